import type { StoredValue } from './json-value.js';
import type { TrustStoreLogger } from './logger.js';

/**
 * What the MCP helpers need from a store. {@link TrustStore} has it all; another store (in
 * memory, in a database) can stand in, and should make `update` atomic in the same way.
 */
export interface TrustStoreLike {
  /** The value under `key`, or `undefined`. */
  get(key: string): Promise<StoredValue | undefined>;
  /** Atomic read-modify-write of one key: `fn` returns the new value, or `undefined` to delete. */
  update(
    key: string,
    fn: (current: StoredValue | undefined) => StoredValue | undefined,
  ): Promise<StoredValue | undefined>;
  /** Removes `key`; `true` when there was an entry. */
  delete(key: string): Promise<boolean>;
  /** The clock for `at`; `new Date()` when absent. */
  now?(): Date;
  /** Where helpers report a malformed entry. */
  readonly logger?: TrustStoreLogger | undefined;
}
