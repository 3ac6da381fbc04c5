import {
  TrustStoreError,
  withFileLock as withLockedFile,
  type LockCompromisedError as TrustLockCompromisedError,
  type LockTimeoutError as TrustLockTimeoutError,
} from '@garuda/mcp-trust';
import { errnoCode, LockFailedError, LockTimeoutError } from './errors.js';

/** How long a lock may go untouched before it counts as left behind by a dead process. */
const STALE_MS = 10_000;

/**
 * Runs `action` while holding the cross-process lock of `file`: the `<file>.lock` folder of
 * `withFileLock` from `@garuda/mcp-trust`, refreshed while held and taken over once it has been
 * untouched for 10 s. Waits for at most `timeoutMs`. `action` gets a function that throws if
 * the lock was lost meanwhile; call it right before writing. Lock failures come out as this
 * package's errors; what `action` throws comes out unchanged.
 * @throws {@link LockTimeoutError} when another process holds the lock for longer than `timeoutMs`
 * @throws {@link LockFailedError} when the lock cannot be created for another reason, or was lost
 * @internal
 */
export async function withFileLock<T>(
  file: string,
  timeoutMs: number,
  action: (assertHeld: () => void) => Promise<T>,
): Promise<T> {
  let failed: { error: unknown } | undefined;
  try {
    return await withLockedFile(
      file,
      { timeoutMs, staleMs: STALE_MS, label: 'config file' },
      async (lock) => {
        const assertHeld = () => {
          try {
            lock.assertHeld();
          } catch (error) {
            const lost = (error as TrustLockCompromisedError).cause;
            throw new LockFailedError(file, 'the lock was lost while held', lost);
          }
        };
        try {
          return await action(assertHeld);
        } catch (error) {
          failed = { error };
          throw error;
        }
      },
    );
  } catch (error) {
    if ((failed && failed.error === error) || !TrustStoreError.isInstance(error)) throw error;
    if (error.code === 'LOCK_TIMEOUT') {
      throw new LockTimeoutError(file, (error as TrustLockTimeoutError).timeoutMs);
    }
    throw new LockFailedError(file, errnoCode(error.cause) ?? 'unknown error', error.cause);
  }
}
