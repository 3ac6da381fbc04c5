import * as path from 'node:path';
import type ProperLockfileModule from 'proper-lockfile';
import { errnoCode, kindOf, log, quote } from '@garuda/internal';
import { invalidOption, lockCompromised, lockFailed, lockTimeout } from './errors.js';
import type { TrustStoreLogger } from './logger.js';

/** Default of {@link FileLockOptions.timeoutMs}: how long to wait for another process's lock. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** Default of {@link FileLockOptions.staleMs}: after how long an untouched lock is taken over. */
export const DEFAULT_LOCK_STALE_MS = 5_000;
/** The shortest stale time a lock accepts (the lock library refuses anything shorter). @internal */
export const MIN_LOCK_STALE_MS = 2_000;

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /**
   * How long to wait for another process's lock before failing with {@link LockedFileError} `TRUST_LOCK_TIMEOUT`.
   * Default {@link DEFAULT_LOCK_TIMEOUT_MS}; 0 tries once.
   */
  timeoutMs?: number;
  /**
   * After how long without a refresh a lock counts as left behind by a dead process and is taken
   * over. A live holder refreshes it every `staleMs / 2`. At least 2 000; default
   * {@link DEFAULT_LOCK_STALE_MS}.
   */
  staleMs?: number;
  /** Receives a debug note while waiting and a warning when a held lock is lost. */
  logger?: TrustStoreLogger | undefined;
  /** What the file is, for messages and errors: `'trust file'` (the default), `'auth file'`… */
  label?: string;
}

/** The lock {@link withFileLock} holds while its action runs. */
export interface HeldFileLock {
  /** The locked file, made absolute. */
  readonly file: string;
  /** The lock folder, `<file>.lock`. */
  readonly lockFile: string;
  /**
   * Throws when the lock was lost while held (this process was paused for longer than the stale
   * time, or the lock folder was removed): call it right before writing, so a change is never
   * written over another process's.
   * @throws {@link LockedFileError} `TRUST_LOCK_COMPROMISED` when the lock is no longer held
   */
  assertHeld(): void;
}

type ProperLockfile = typeof ProperLockfileModule;
let loading: Promise<ProperLockfile> | undefined;

// Loaded on first use: proper-lockfile installs exit handlers when it loads, and a program that
// only hashes tool lists should not get them.
function properLockfile(): Promise<ProperLockfile> {
  loading ??= import('proper-lockfile').then((m) => m.default);
  return loading;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const FIRST_DELAY_MS = 10;
const MAX_DELAY_MS = 250;

/**
 * Checks a number of milliseconds given as an option.
 * @throws {@link TrustStoreError} `TRUST_INVALID_OPTION` naming the option when it is not a finite number ≥ `min`
 * @internal
 */
export function checkMs(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw invalidOption(
      `options.${name} must be a finite number of milliseconds, at least ${min}, got ` +
        `${typeof value === 'number' ? String(value) : kindOf(value)}`,
    );
  }
  return value;
}

/**
 * Runs `action` while holding the cross-process lock of `file`: a `<file>.lock` folder, created
 * atomically by mkdir (so it works on every local file system; it holds nothing, so no secret
 * is ever written there). The file itself need not exist. A lock folder not refreshed for
 * `staleMs` belongs to a process that died and is taken over. Waits with jittered, growing
 * delays, never longer than `timeoutMs` in total. The lock is given back when `action` settles,
 * whether it returns or throws; what it throws comes out unchanged.
 *
 * @param file - the file the lock guards (its folder must exist)
 * @param options - time limit, stale time, logger, and the label used in messages
 * @param action - runs while the lock is held; gets the {@link HeldFileLock}, whose
 *   `assertHeld()` it calls right before it writes
 * @returns what `action` returns
 * @throws {@link LockedFileError} `TRUST_LOCK_TIMEOUT` when another process holds the lock for longer than `timeoutMs`
 * @throws {@link LockedFileError} `TRUST_LOCK_FAILED` when the lock folder cannot be created for another reason
 *   (a missing or read-only folder)
 * @throws {@link TrustStoreError} `TRUST_INVALID_OPTION` when an option is out of range
 *
 * @example
 * ```ts
 * await withFileLock(file, { label: 'notes file' }, async (lock) => {
 *   const notes = await readNotes(file);
 *   lock.assertHeld();
 *   await writeNotes(file, [...notes, 'one more']);
 * });
 * ```
 */
export async function withFileLock<T>(
  file: string,
  options: FileLockOptions,
  action: (lock: HeldFileLock) => Promise<T> | T,
): Promise<T> {
  if (typeof file !== 'string' || file.length === 0 || file.includes('\0')) {
    throw invalidOption(
      `the file to lock must be a non-empty path, got ${typeof file === 'string' ? quote(file) : kindOf(file)}`,
    );
  }
  const timeoutMs = checkMs('timeoutMs', options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, 0);
  const staleMs = checkMs('staleMs', options.staleMs ?? DEFAULT_LOCK_STALE_MS, MIN_LOCK_STALE_MS);
  const label = options.label ?? 'trust file';
  const { logger } = options;
  const absolute = path.resolve(file);
  const lockFile = `${absolute}.lock`;

  const lockfile = await properLockfile();
  const deadline = performance.now() + timeoutMs;
  let delay = FIRST_DELAY_MS;
  let waiting = false;
  let lost: Error | undefined;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(absolute, {
        // The file may not exist yet, and a symlinked home must lock the path that is written.
        realpath: false,
        lockfilePath: lockFile,
        stale: staleMs,
        retries: 0,
        // The library's default throws from a timer, which would crash the host process.
        onCompromised: (error) => {
          lost = error;
          log(
            logger,
            'warn',
            `lost the lock on the ${label} ${quote(absolute)} (${error.message}); ` +
              `a change in progress will not be written`,
          );
        },
      });
      break;
    } catch (error) {
      if (errnoCode(error) !== 'ELOCKED') {
        throw lockFailed({ file: absolute, path: lockFile, cause: error, label });
      }
    }
    const left = deadline - performance.now();
    if (left <= 0) throw lockTimeout({ file: absolute, path: lockFile, label }, timeoutMs, staleMs);
    if (!waiting) {
      waiting = true;
      log(logger, 'debug', `waiting for the lock on the ${label} ${quote(absolute)}`);
    }
    // Jitter keeps two waiting processes from retrying in step.
    await sleep(Math.min(left, delay * (0.5 + Math.random())));
    delay = Math.min(delay * 1.5, MAX_DELAY_MS);
  }

  const held: HeldFileLock = {
    file: absolute,
    lockFile,
    assertHeld: () => {
      if (lost) throw lockCompromised({ file: absolute, path: lockFile, cause: lost, label });
    },
  };
  try {
    return await action(held);
  } finally {
    // A lost lock may belong to another process by now: it is not ours to remove.
    if (!lost) {
      try {
        await release();
      } catch (error) {
        log(
          logger,
          'warn',
          `could not remove the lock folder ${quote(lockFile)} ` +
            `(${errnoCode(error) ?? 'unknown error'}); it will be taken over once stale`,
        );
      }
    }
  }
}
