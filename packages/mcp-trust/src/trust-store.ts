import { kindOf } from '@garuda/internal';
import { invalidOption } from './errors.js';
import { toStoredValue, type StoredValue } from './json-value.js';
import { LockedJsonFile } from './locked-json-file.js';
import type { TrustStoreLogger } from './logger.js';
import { trustFileFromJson, trustFileToJson } from './trust-file.js';
import { validateKey, validatePrefix } from './validate-key.js';

/** Options of {@link TrustStore}. */
export interface TrustStoreOptions {
  /** Receives warnings (a corrupt file moved aside, a folder others can write to) and debug notes. */
  logger?: TrustStoreLogger;
  /** How long a change waits for another process's lock before it fails. Default 10 000 ms. */
  lockTimeoutMs?: number;
  /**
   * After how long without a refresh a lock counts as left behind by a dead process and is taken
   * over. A live holder refreshes it every `lockStaleMs / 2`. At least 2 000; default 5 000 ms,
   * so a lock left by a killed process is taken over within the default `lockTimeoutMs`.
   */
  lockStaleMs?: number;
  /** The clock, for the names of moved-aside files and for `at` in MCP entries. */
  now?: () => Date;
}

/**
 * A small key-value store of JSON values in one file, safe to share between processes: the
 * record of which servers (or hooks, or commands) a person trusted.
 *
 * - The file is `{ "version": 1, "entries": { … } }`, mode 0600, in a folder created with mode
 *   0700. Every write goes to a temporary file that is flushed to disk and renamed over the old
 *   one, so readers see the old or the new file, never half of one.
 * - Every change is a read-modify-write under a cross-process lock (`<file>.lock`), so two
 *   processes never lose each other's entries. Reads take no lock.
 * - A corrupt file is moved aside to `<file>.corrupt-<UTC time>` with a warning, and the store
 *   goes on empty: the trusted servers will be asked about again.
 *
 * @example
 * ```ts
 * const store = new TrustStore(path.join(home, 'trust.json'), { logger: console });
 * await store.set('hooks::format-on-save', { def: 'ab12…', at: new Date().toISOString() });
 * await store.get('hooks::format-on-save'); // → { def: 'ab12…', at: '…' }
 * ```
 */
export class TrustStore {
  /** The trust file, made absolute. */
  readonly file: string;
  /** The lock folder, `<file>.lock`. */
  readonly lockFile: string;
  /** The logger given in the options, so helpers built on the store can report through it. */
  readonly logger: TrustStoreLogger | undefined;

  readonly #store: LockedJsonFile<Map<string, StoredValue>>;

  /**
   * @param file - path of the trust file, for example `<home>/trust.json`; made absolute here
   * @param options - logger, lock timeout, stale time and clock
   * @throws {@link TrustStoreError} `TRUST_INVALID_OPTION` when `file` is empty or an option is out of range
   */
  constructor(file: string, options: TrustStoreOptions = {}) {
    this.#store = new LockedJsonFile(file, {
      label: 'trust file',
      fromJson: trustFileFromJson,
      toJson: trustFileToJson,
      logger: options.logger,
      lockTimeoutMs: options.lockTimeoutMs,
      lockStaleMs: options.lockStaleMs,
      now: options.now,
      afterMoveAside: 'the store starts empty: the servers you trusted will be asked about again.',
      // Read on every call of a tool (its grant): parsed once per version of the file, and each
      // value handed out is a copy.
      reuseValue: true,
    });
    this.file = this.#store.file;
    this.lockFile = this.#store.lockFile;
    this.logger = options.logger;
  }

  /**
   * The current time from the injected clock.
   * @returns a valid `Date`
   * @throws {@link TrustStoreError} `TRUST_INVALID_OPTION` when the clock returns something else
   */
  now(): Date {
    return this.#store.now();
  }

  /**
   * Reads one entry.
   * @param key - the entry's key
   * @returns the stored value (a fresh copy), or `undefined` when there is none
   * @throws {@link TrustStoreError} `TRUST_INVALID_KEY` for an unusable key
   * @throws {@link LockedFileError} `TRUST_FILE_UNREADABLE` when the file exists but cannot be read
   * @throws {@link LockedFileError} `TRUST_LOCK_TIMEOUT` only when the file is corrupt and must be moved aside while
   *   another process holds the lock
   */
  async get(key: string): Promise<StoredValue | undefined> {
    validateKey(key);
    const value = (await this.#read()).get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  /**
   * Lists the entries whose key starts with `prefix`.
   * @param prefix - a key prefix; `''` (the default) lists everything
   * @returns `[key, value]` pairs sorted by key (UTF-16 code unit order)
   * @throws {@link TrustStoreError} `TRUST_INVALID_KEY` for an unusable prefix
   * @throws {@link LockedFileError} `TRUST_FILE_UNREADABLE` when the file exists but cannot be read
   */
  async entries(prefix = ''): Promise<[string, StoredValue][]> {
    validatePrefix(prefix);
    const out = [...(await this.#read())]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]): [string, StoredValue] => [key, structuredClone(value)]);
    return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * Stores `value` under `key`, replacing what was there, under the cross-process lock.
   * @param key - the entry's key
   * @param value - any JSON value; it is copied before this returns
   * @throws {@link TrustStoreError} `TRUST_INVALID_KEY`, {@link TrustStoreError} `TRUST_INVALID_VALUE` for unusable input
   * @throws {@link LockedFileError} `TRUST_LOCK_TIMEOUT` when another process holds the lock for too long
   * @throws {@link LockedFileError} `TRUST_WRITE_FAILED` when the file cannot be written
   */
  async set(key: string, value: StoredValue): Promise<void> {
    validateKey(key);
    const stored = toStoredValue(value);
    await this.#change((entries) => {
      entries.set(key, stored);
      return { changed: true, result: undefined };
    });
  }

  /**
   * Removes one entry, under the cross-process lock.
   * @param key - the entry's key
   * @returns whether there was an entry to remove
   * @throws as {@link TrustStore.set} does
   */
  async delete(key: string): Promise<boolean> {
    validateKey(key);
    return this.#change((entries) => {
      const had = entries.delete(key);
      return { changed: had, result: had };
    });
  }

  /**
   * Reads, changes and writes one entry while holding the cross-process lock, so no other
   * process's change can slip in between.
   * @param key - the entry's key
   * @param fn - gets the current value (`undefined` when absent) and returns the new one, or
   *   `undefined` to remove the entry. It must be synchronous and quick: the lock is held while
   *   it runs. If it throws, nothing is written and the error comes out of `update`.
   * @returns the new value (a copy), or `undefined` when the entry is now absent
   * @throws as {@link TrustStore.set} does, and whatever `fn` throws
   */
  async update(
    key: string,
    fn: (current: StoredValue | undefined) => StoredValue | undefined,
  ): Promise<StoredValue | undefined> {
    validateKey(key);
    if (typeof fn !== 'function') {
      throw invalidOption(`update needs a function, got ${kindOf(fn)}`);
    }
    return this.#change((entries) => {
      const current = entries.get(key);
      // Taken before `fn` runs: `fn` may change the object it gets in place and return it.
      const before = current === undefined ? undefined : JSON.stringify(current);
      const next = fn(current);
      if (next === undefined) {
        const had = entries.delete(key);
        return { changed: had, result: undefined };
      }
      const stored = toStoredValue(next);
      // An unchanged value is not written again: no disk write, no new file mode or owner.
      if (before === JSON.stringify(stored)) {
        return { changed: false, result: stored };
      }
      entries.set(key, stored);
      return { changed: true, result: stored };
    });
  }

  async #read(): Promise<Map<string, StoredValue>> {
    return (await this.#store.load()) ?? new Map();
  }

  #change<R>(
    op: (entries: Map<string, StoredValue>) => { changed: boolean; result: R },
  ): Promise<R> {
    return this.#store.update((current) => {
      const entries = current ?? new Map<string, StoredValue>();
      const { changed, result } = op(entries);
      return { write: changed ? entries : undefined, result };
    });
  }
}
