import type ProperLockfileModule from 'proper-lockfile';
import { errnoCode, LockFailedError, LockTimeoutError, quote } from './errors.js';
import { log, type OAuthLogger } from './logger.js';

/** A lock held on the auth file. @internal */
export interface HeldLock {
  /** Why the lock was lost while held, if it was. Nothing may be written then. */
  compromised(): Error | undefined;
  /** Gives the lock back. Never throws: a failure is logged. */
  release(): Promise<void>;
}

/** @internal */
export interface LockOptions {
  lockFile: string;
  timeoutMs: number;
  staleMs: number;
  logger: OAuthLogger | undefined;
}

type ProperLockfile = typeof ProperLockfileModule;
let loading: Promise<ProperLockfile> | undefined;

// Loaded on first use: proper-lockfile installs exit handlers when it loads, and a program that
// only opens a browser or parses a pasted address should not get them.
function properLockfile(): Promise<ProperLockfile> {
  loading ??= import('proper-lockfile').then((m) => m.default);
  return loading;
}

const FIRST_DELAY_MS = 10;
const MAX_DELAY_MS = 250;

/**
 * Takes the cross-process lock of `file`: a `<file>.lock` folder, created atomically by mkdir
 * (so it works on every local file system). A lock folder not refreshed for `staleMs` belongs to
 * a process that died and is taken over. Waits with jittered, growing delays, never longer
 * than `timeoutMs` in total. The lock folder holds nothing: no secret is ever written there.
 * @throws {@link LockTimeoutError} when the lock is still held after `timeoutMs`
 * @throws {@link LockFailedError} when the lock folder cannot be created for another reason
 * @internal
 */
export async function acquireLock(file: string, options: LockOptions): Promise<HeldLock> {
  const lockfile = await properLockfile();
  const deadline = performance.now() + options.timeoutMs;
  let delay = FIRST_DELAY_MS;
  let waiting = false;
  for (;;) {
    let lost: Error | undefined;
    try {
      const release = await lockfile.lock(file, {
        // The auth file may not exist yet, and a symlinked home must lock the path we write.
        realpath: false,
        lockfilePath: options.lockFile,
        stale: options.staleMs,
        retries: 0,
        // The library's default throws from a timer, which would crash the host process.
        onCompromised: (error) => {
          lost = error;
          log(
            options.logger,
            'warn',
            `lost the lock on the auth file ${quote(file)} (${error.message}); a change in ` +
              `progress will not be written`,
          );
        },
      });
      return {
        compromised: () => lost,
        release: async () => {
          if (lost) return;
          try {
            await release();
          } catch (error) {
            log(
              options.logger,
              'warn',
              `could not remove the lock folder ${quote(options.lockFile)} ` +
                `(${errnoCode(error) ?? 'unknown error'}); it will be taken over once stale`,
            );
          }
        },
      };
    } catch (error) {
      if (errnoCode(error) !== 'ELOCKED') throw new LockFailedError(file, options.lockFile, error);
    }
    const left = deadline - performance.now();
    if (left <= 0) {
      throw new LockTimeoutError(file, options.lockFile, options.timeoutMs, options.staleMs);
    }
    if (!waiting) {
      waiting = true;
      log(options.logger, 'debug', `waiting for the lock on the auth file ${quote(file)}`);
    }
    // Jitter keeps two waiting processes from retrying in step.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(left, delay * (0.5 + Math.random()))),
    );
    delay = Math.min(delay * 1.5, MAX_DELAY_MS);
  }
}
