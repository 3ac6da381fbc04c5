import type { lock } from 'proper-lockfile';
import { errnoCode, LockFailedError, LockTimeoutError } from './errors.js';

/** How long a lock may go untouched before it counts as left behind by a dead process. */
const STALE_MS = 10_000;
const FIRST_DELAY_MS = 10;
const MAX_DELAY_MS = 250;

interface ProperLockfile {
  readonly lock: typeof lock;
}
let loading: Promise<ProperLockfile> | undefined;

// Loaded on first use: proper-lockfile installs process exit handlers when it is loaded, which a
// program that only reads its configuration should not get.
function properLockfile(): Promise<ProperLockfile> {
  loading ??= import('proper-lockfile').then((m) => m.default);
  return loading;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `action` while holding the cross-process lock of `file`: a `<file>.lock` folder made with
 * `mkdir` (atomic, also on network file systems), refreshed while held and taken over once it
 * is stale. Waits with jittered backoff for at most `timeoutMs`. `action` gets a function that
 * throws if the lock was lost meanwhile; call it right before writing.
 * @throws {@link LockTimeoutError} when another process holds the lock for longer than `timeoutMs`
 * @throws {@link LockFailedError} when the lock cannot be created for another reason
 * @internal
 */
export async function withFileLock<T>(
  file: string,
  timeoutMs: number,
  action: (assertHeld: () => void) => Promise<T>,
): Promise<T> {
  const lockfile = await properLockfile();
  const started = performance.now();
  let delay = FIRST_DELAY_MS;
  let lost: Error | undefined;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        lockfilePath: `${file}.lock`,
        stale: STALE_MS,
        retries: 0,
        // The library's default throws from a timer, which would crash the host process.
        onCompromised: (error) => {
          lost = error;
        },
      });
      break;
    } catch (error) {
      if (errnoCode(error) !== 'ELOCKED') {
        throw new LockFailedError(file, errnoCode(error) ?? 'unknown error', error);
      }
      const waited = performance.now() - started;
      if (waited >= timeoutMs) throw new LockTimeoutError(file, Math.round(waited));
      const pause = Math.min(delay * (0.5 + Math.random()), timeoutMs - waited);
      await sleep(Math.max(1, pause));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
  try {
    return await action(() => {
      if (lost !== undefined) throw new LockFailedError(file, 'the lock was lost while held', lost);
    });
  } finally {
    if (lost === undefined) {
      // A lock folder that cannot be removed is taken over once stale; nothing to report here.
      await release().catch(() => undefined);
    }
  }
}
