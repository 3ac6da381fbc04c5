import { withFileLock as withLockedFile } from '@garuda/mcp-trust';

/** How long a lock may go untouched before it counts as left behind by a dead process. */
const STALE_MS = 10_000;

/**
 * Runs `action` while holding the cross-process lock of `file`: the `<file>.lock` folder of
 * `withFileLock` from `@garuda/mcp-trust`, refreshed while held and taken over once it has been
 * untouched for 10 s. Waits for at most `timeoutMs`. `action` gets a function that throws if
 * the lock was lost meanwhile; call it right before writing. Lock failures are
 * `@garuda/mcp-trust`'s own errors, passed through with "config file" in their messages; what
 * `action` throws comes out unchanged.
 * @throws `LockedFileError` of `@garuda/mcp-trust`: `TRUST_LOCK_TIMEOUT` when another process holds
 *   the lock for longer than `timeoutMs`, `TRUST_LOCK_FAILED` when it cannot be created for another
 *   reason, `TRUST_LOCK_COMPROMISED` (from `assertHeld`) when it was lost
 * @internal
 */
export function withFileLock<T>(
  file: string,
  timeoutMs: number,
  action: (assertHeld: () => void) => Promise<T>,
): Promise<T> {
  return withLockedFile(file, { timeoutMs, staleMs: STALE_MS, label: 'config file' }, (lock) =>
    action(() => lock.assertHeld()),
  );
}
