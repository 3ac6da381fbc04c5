// The package's limits and defaults, as one read-only record: the public name of each.
import { DEFAULT_AUTH_LOCK_TIMEOUT_MS, DEFAULT_AUTH_LOCK_STALE_MS } from './auth-store.js';
import { DEFAULT_CALLBACK_TIMEOUT_MS } from './wait-for-callback.js';
import { DEFAULT_KEYRING_TIMEOUT_MS } from './os-keyring.js';
import { DEFAULT_OPENER_TIMEOUT_MS } from './open-browser.js';
import { DEFAULT_REVOKE_TIMEOUT_MS } from './revoke.js';
import { MAX_PASTED_URL_LENGTH } from './parse-redirect-url.js';

/**
 * The limits and defaults of `@garuda/mcp-oauth`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /** Default of {@link AuthStoreOptions.lockTimeoutMs}. */
  defaultAuthLockTimeoutMs: DEFAULT_AUTH_LOCK_TIMEOUT_MS,
  /** Default of {@link AuthStoreOptions.lockStaleMs}. */
  defaultAuthLockStaleMs: DEFAULT_AUTH_LOCK_STALE_MS,
  /** Default of {@link WaitForCallbackOptions.timeoutMs}: five minutes. */
  defaultCallbackTimeoutMs: DEFAULT_CALLBACK_TIMEOUT_MS,
  /** Default of {@link OsKeyringOptions.timeoutMs}. */
  defaultKeyringTimeoutMs: DEFAULT_KEYRING_TIMEOUT_MS,
  /** Default of {@link OpenBrowserOptions.timeoutMs}. */
  defaultOpenerTimeoutMs: DEFAULT_OPENER_TIMEOUT_MS,
  /** Default of {@link RevokeOptions.timeoutMs}. */
  defaultRevokeTimeoutMs: DEFAULT_REVOKE_TIMEOUT_MS,
  /** Longer pasted text is refused before it is parsed. */
  maxPastedUrlLength: MAX_PASTED_URL_LENGTH,
} as const);
