import { brand, CodedError, errnoCode, quote } from '@garuda/internal';

/** Stable codes of the errors this package throws. */
export const TrustStoreErrorCode = {
  /** A key is not a non-empty string of at most 1 000 characters without control characters. */
  INVALID_KEY: 'TRUST_INVALID_KEY',
  /** A value cannot be stored as JSON (a function, a bigint, a cycle, `NaN`, a class instance…). */
  INVALID_VALUE: 'TRUST_INVALID_VALUE',
  /** A constructor option or a helper argument is not usable. */
  INVALID_OPTION: 'TRUST_INVALID_OPTION',
  /** The cross-process lock could not be taken within the time limit (`lockTimeoutMs`). */
  LOCK_TIMEOUT: 'TRUST_LOCK_TIMEOUT',
  /** The lock folder could not be created for another reason than a holder (permissions…). */
  LOCK_FAILED: 'TRUST_LOCK_FAILED',
  /** The lock was lost while held (taken over as stale or removed), so nothing was written. */
  LOCK_COMPROMISED: 'TRUST_LOCK_COMPROMISED',
  /** The trust file (or another locked file) exists but cannot be read (permissions, a folder…). */
  FILE_UNREADABLE: 'TRUST_FILE_UNREADABLE',
  /** The trust file (or another locked file) or its folder could not be written. */
  WRITE_FAILED: 'TRUST_WRITE_FAILED',
  /** A corrupt trust file (or another locked file) could not be moved aside, so it was left untouched. */
  MOVE_ASIDE_FAILED: 'TRUST_MOVE_ASIDE_FAILED',
} as const;

/** One of the {@link TrustStoreErrorCode} values. */
export type TrustStoreErrorCode = (typeof TrustStoreErrorCode)[keyof typeof TrustStoreErrorCode];

/** The codes of a {@link LockedFileError}. */
export type LockedFileErrorCode = Extract<
  TrustStoreErrorCode,
  | typeof TrustStoreErrorCode.LOCK_TIMEOUT
  | typeof TrustStoreErrorCode.LOCK_FAILED
  | typeof TrustStoreErrorCode.LOCK_COMPROMISED
  | typeof TrustStoreErrorCode.FILE_UNREADABLE
  | typeof TrustStoreErrorCode.WRITE_FAILED
  | typeof TrustStoreErrorCode.MOVE_ASIDE_FAILED
>;

/**
 * Base class of every error thrown by `@garuda/mcp-trust`, and the class of those about an
 * argument (`TRUST_INVALID_KEY`, `TRUST_INVALID_VALUE`, `TRUST_INVALID_OPTION`). Messages name the file and say
 * what to do; they never contain stored values.
 *
 * @example
 * ```ts
 * try {
 *   await store.set(key, value);
 * } catch (e) {
 *   if (TrustStoreError.isInstance(e)) ui.error(e.code, e.message);
 * }
 * ```
 */
export class TrustStoreError extends CodedError<TrustStoreErrorCode> {
  /**
   * Whether `value` is an error of this package (any of its classes), also from another copy of
   * it. {@link LockedFileError.isInstance} is true for that class only. Both are plain functions
   * that keep no `this`: `errors.filter(TrustStoreError.isInstance)` works.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   */
  static readonly isInstance = brand(this, 'garuda.mcp-trust', 'TrustStoreError');
}

/**
 * A file kept under the cross-process lock of `withFileLock` / `LockedJsonFile` (the trust file,
 * `@garuda/mcp-oauth`'s auth file, `@garuda/mcp-config`'s config files…) could not be locked,
 * read or written: codes `TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED`, `TRUST_LOCK_COMPROMISED`, `TRUST_FILE_UNREADABLE`,
 * `TRUST_WRITE_FAILED`, `TRUST_MOVE_ASIDE_FAILED`. The file is left as it was; the message names it with the
 * label its store gave it ("auth file") and says what to do.
 *
 * @example
 * ```ts
 * if (LockedFileError.isInstance(e) && e.code === 'TRUST_LOCK_TIMEOUT') ui.show('try again in a moment');
 * ```
 */
export class LockedFileError extends TrustStoreError {
  /** Whether `value` is a {@link LockedFileError}, from any copy of this package. */
  static override readonly isInstance = brand(this, 'garuda.mcp-trust', 'LockedFileError');

  declare readonly code: LockedFileErrorCode;
  /** The locked file, made absolute. */
  readonly file: string;
  /**
   * The path the failed step was on: the lock folder `<file>.lock` (`LOCK_*`), the file itself
   * (`TRUST_FILE_UNREADABLE`, writing it), its folder (creating it), or where a corrupt file was to be
   * moved (`TRUST_MOVE_ASIDE_FAILED`).
   */
  readonly path: string;

  /**
   * @param code - one of {@link LockedFileErrorCode}
   * @param message - what happened and what to do
   * @param where - the file, and the path the failed step was on
   * @param options - `cause`: the file system or lock error
   */
  constructor(
    code: LockedFileErrorCode,
    message: string,
    where: { file: string; path: string },
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.file = where.file;
    this.path = where.path;
  }
}

/** A key or prefix is unusable (code `TRUST_INVALID_KEY`). @internal */
export function invalidKey(reason: string): TrustStoreError {
  return new TrustStoreError(TrustStoreErrorCode.INVALID_KEY, `trust key is invalid: ${reason}`);
}

/** A value cannot be stored as JSON (code `TRUST_INVALID_VALUE`). @internal */
export function invalidValue(reason: string): TrustStoreError {
  return new TrustStoreError(
    TrustStoreErrorCode.INVALID_VALUE,
    `trust value cannot be stored: ${reason}; use plain objects, arrays, strings, finite numbers, booleans and null`,
  );
}

/** A constructor option or helper argument is unusable (code `TRUST_INVALID_OPTION`). @internal */
export function invalidOption(reason: string): TrustStoreError {
  return new TrustStoreError(TrustStoreErrorCode.INVALID_OPTION, reason);
}

/**
 * What a file is called in messages when no label is given: the errors below are shared by
 * `TrustStore` and by every store built on `LockedJsonFile`, which pass their own.
 * @internal
 */
export const DEFAULT_LABEL = 'trust file';

// " (ENOENT)", or nothing when the error has no code.
function codeNote(cause: unknown): string {
  const code = errnoCode(cause);
  return code ? ` (${code})` : '';
}

/**
 * Where a failure of a locked file happened, for its error: the file, the path the failed step
 * was on (see {@link LockedFileError.path}), the underlying error, and what the file is called
 * in messages (default `'trust file'`). @internal
 */
export interface FileFailure {
  readonly file: string;
  readonly path: string;
  readonly cause?: unknown;
  readonly label?: string | undefined;
}

function lockedFileError(
  code: LockedFileErrorCode,
  message: string,
  { file, path, cause }: FileFailure,
): LockedFileError {
  return new LockedFileError(code, message, { file, path }, { cause });
}

/** The lock (`at.path`) was not free within `timeoutMs` (code `TRUST_LOCK_TIMEOUT`). @internal */
export function lockTimeout(at: FileFailure, timeoutMs: number, staleMs: number): LockedFileError {
  const { file, path, label = DEFAULT_LABEL } = at;
  return lockedFileError(
    TrustStoreErrorCode.LOCK_TIMEOUT,
    `could not lock the ${label} ${quote(file)} within ${timeoutMs} ms: another garuda process ` +
      `may be using it, so try again when it is done. If no other garuda process is running, ` +
      `a lock folder ${quote(path)} older than ${Math.ceil(staleMs / 1000)} s is stale: it is ` +
      `taken over automatically, or you can remove it`,
    at,
  );
}

/** The lock folder could not be created, for another reason than a holder (code `TRUST_LOCK_FAILED`). @internal */
export function lockFailed(at: FileFailure): LockedFileError {
  const { file, path, cause, label = DEFAULT_LABEL } = at;
  return lockedFileError(
    TrustStoreErrorCode.LOCK_FAILED,
    `could not lock the ${label} ${quote(file)}: creating ${quote(path)} failed` +
      `${codeNote(cause)}; check that its folder exists and is writable by you`,
    at,
  );
}

/** The lock was lost while held, so the change was not written (code `TRUST_LOCK_COMPROMISED`). @internal */
export function lockCompromised(at: FileFailure): LockedFileError {
  return lockedFileError(
    TrustStoreErrorCode.LOCK_COMPROMISED,
    `the lock on the ${at.label ?? DEFAULT_LABEL} ${quote(at.file)} was lost before the change ` +
      `was written (this process was paused for longer than the stale time, or the lock folder ` +
      `was removed); nothing was written: try again`,
    at,
  );
}

const UNREADABLE_ADVICE: Readonly<Record<string, string>> = {
  EISDIR: 'it is a folder, not a file: move it away or pass another path',
  EACCES: 'permission denied: it should belong to you with mode 0600 (chmod 600)',
  EPERM: 'permission denied: it should belong to you with mode 0600 (chmod 600)',
  ENOTDIR: 'a part of its path is a file, not a folder: pass another path',
};

/** The file exists but cannot be read (code `TRUST_FILE_UNREADABLE`). @internal */
export function fileUnreadable(at: FileFailure): LockedFileError {
  const code = errnoCode(at.cause);
  const advice =
    code !== undefined && Object.hasOwn(UNREADABLE_ADVICE, code)
      ? UNREADABLE_ADVICE[code]
      : `${code ?? 'unknown error'}: check the file and its folder`;
  return lockedFileError(
    TrustStoreErrorCode.FILE_UNREADABLE,
    `cannot read the ${at.label ?? DEFAULT_LABEL} ${quote(at.file)}: ${advice}`,
    at,
  );
}

/**
 * The file or its folder (`at.path`) could not be written (code `TRUST_WRITE_FAILED`). @internal
 * @param operation - what was being done: `'create the folder'`, `'write the <label>'`
 */
export function writeFailed(at: FileFailure, operation: string): LockedFileError {
  return lockedFileError(
    TrustStoreErrorCode.WRITE_FAILED,
    `could not ${operation} ${quote(at.path)}${codeNote(at.cause)}: check that the folder is ` +
      `writable by you and the disk is not full; the ${at.label ?? DEFAULT_LABEL} was left as it was`,
    at,
  );
}

/** A corrupt file could not be moved aside to `at.path`, so it was left untouched (code `TRUST_MOVE_ASIDE_FAILED`). @internal */
export function moveAsideFailed(at: FileFailure): LockedFileError {
  const { file, path, cause, label = DEFAULT_LABEL } = at;
  const after =
    label === DEFAULT_LABEL ? ' (the servers you trusted will be asked about again)' : '';
  return lockedFileError(
    TrustStoreErrorCode.MOVE_ASIDE_FAILED,
    `the ${label} ${quote(file)} is corrupt and could not be moved to ${quote(path)}` +
      `${codeNote(cause)}: move or remove it yourself${after}`,
    at,
  );
}
