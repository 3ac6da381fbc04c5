// The package's limits and defaults, as one read-only record: the public name of each.
import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_LOCK_STALE_MS } from './file-lock.js';
import { MAX_GRANTS_PER_SERVER } from './tool-grants.js';
import { MAX_KEY_LENGTH } from './validate-key.js';
import { MAX_VALUE_DEPTH } from './json-value.js';

/**
 * The limits and defaults of `@garuda/mcp-trust`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /** Default of {@link FileLockOptions.timeoutMs}: how long to wait for another process's lock. */
  defaultLockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS,
  /** Default of {@link FileLockOptions.staleMs}: after how long an untouched lock is taken over. */
  defaultLockStaleMs: DEFAULT_LOCK_STALE_MS,
  /** The most grants kept for one server; an older one gives way to a new one. */
  maxGrantsPerServer: MAX_GRANTS_PER_SERVER,
  /** The longest key (and prefix) a {@link TrustStore} accepts, in UTF-16 code units. */
  maxKeyLength: MAX_KEY_LENGTH,
  /** How deep a stored value may nest. Deeper values are refused rather than risk the stack. */
  maxValueDepth: MAX_VALUE_DEPTH,
} as const);
