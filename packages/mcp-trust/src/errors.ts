/** Stable codes of the errors this package throws. */
export const TrustStoreErrorCode = {
  /** A key is not a non-empty string of at most 1 000 characters without control characters. */
  INVALID_KEY: 'INVALID_KEY',
  /** A value cannot be stored as JSON (a function, a bigint, a cycle, `NaN`, a class instance…). */
  INVALID_VALUE: 'INVALID_VALUE',
  /** A constructor option or a helper argument is not usable. */
  INVALID_OPTION: 'INVALID_OPTION',
  /** The cross-process lock could not be taken within the time limit (`lockTimeoutMs`). */
  LOCK_TIMEOUT: 'LOCK_TIMEOUT',
  /** The lock folder could not be created for another reason than a holder (permissions…). */
  LOCK_FAILED: 'LOCK_FAILED',
  /** The lock was lost while held (taken over as stale or removed), so nothing was written. */
  LOCK_COMPROMISED: 'LOCK_COMPROMISED',
  /** The trust file (or another locked file) exists but cannot be read (permissions, a folder…). */
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  /** The trust file (or another locked file) or its folder could not be written. */
  WRITE_FAILED: 'WRITE_FAILED',
  /** A corrupt trust file (or another locked file) could not be moved aside, so it was left untouched. */
  MOVE_ASIDE_FAILED: 'MOVE_ASIDE_FAILED',
} as const;

/** One of the {@link TrustStoreErrorCode} values. */
export type TrustStoreErrorCode = (typeof TrustStoreErrorCode)[keyof typeof TrustStoreErrorCode];

// Markers instead of `instanceof`, so an error made by another copy of this package (two
// versions in one node_modules tree) is still recognised. Each class puts its own marker on its
// prototype, so an instance carries the markers of its class and of every class above it: that
// is what makes `X.isInstance` accept X and its subclasses, and never a sibling. The class name
// is written out, not read from `cls.name`, which bundlers and minifiers rename.
function brand<T extends object>(
  cls: abstract new (...args: never[]) => T,
  name: string,
): (value: unknown) => value is T {
  const marker = Symbol.for(`garuda.mcp-trust.${name}`);
  Object.defineProperty(cls.prototype, marker, { value: true });
  return (value): value is T =>
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true;
}

/**
 * Base class of every error thrown by `@garuda/mcp-trust`. Messages name the file and say what
 * to do; they never contain stored values.
 */
export class TrustStoreError extends Error {
  /**
   * Whether `value` is an error of this package (any of its classes), also from another copy of
   * it. Every subclass has its own `isInstance`, true for that class and its subclasses only.
   * Each is a plain function that keeps its class, so it can be passed on as it is:
   * `errors.filter(LockTimeoutError.isInstance)`.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   * @example
   * ```ts
   * if (TrustStoreError.isInstance(e)) ui.error(e.code, e.message);
   * ```
   */
  static readonly isInstance = brand(this, 'TrustStoreError');

  /** A stable string from {@link TrustStoreErrorCode}. */
  readonly code: TrustStoreErrorCode;

  constructor(code: TrustStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TrustStoreError';
    this.code = code;
  }
}

// Controls, bidi and zero-width characters from a key or a path must not reach a terminal through
// a message: JSON quoting escapes C0 controls, this escapes the rest.
const UNSAFE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * Quotes text for an error or log message: JSON-quoted, invisible and control characters escaped,
 * long text shortened.
 * @internal
 */
export function quote(text: string, max = 200): string {
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(short).replace(
    UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Describes a non-string for a message without printing it. @internal */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The `code` of a Node.js system error, if any. @internal */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** A key is unusable (code `INVALID_KEY`). */
export class InvalidKeyError extends TrustStoreError {
  /**
   * Whether `value` is an {@link InvalidKeyError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidKeyError');

  constructor(reason: string) {
    super(TrustStoreErrorCode.INVALID_KEY, `trust key is invalid: ${reason}`);
    this.name = 'InvalidKeyError';
  }
}

/** A value cannot be stored as JSON (code `INVALID_VALUE`). */
export class InvalidValueError extends TrustStoreError {
  /**
   * Whether `value` is an {@link InvalidValueError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidValueError');

  constructor(reason: string) {
    super(
      TrustStoreErrorCode.INVALID_VALUE,
      `trust value cannot be stored: ${reason}; use plain objects, arrays, strings, finite numbers, booleans and null`,
    );
    this.name = 'InvalidValueError';
  }
}

/** A constructor option or helper argument is unusable (code `INVALID_OPTION`). */
export class InvalidOptionError extends TrustStoreError {
  /**
   * Whether `value` is an {@link InvalidOptionError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidOptionError');

  constructor(reason: string) {
    super(TrustStoreErrorCode.INVALID_OPTION, reason);
    this.name = 'InvalidOptionError';
  }
}

/**
 * What a file is called in messages when no label is given: the errors below are shared by
 * `TrustStore` and by every store built on `LockedJsonFile`, which pass their own.
 * @internal
 */
export const DEFAULT_LABEL = 'trust file';

/** The cross-process lock was not free within the time limit (code `LOCK_TIMEOUT`). */
export class LockTimeoutError extends TrustStoreError {
  /**
   * Whether `value` is a {@link LockTimeoutError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'LockTimeoutError');

  /** The file whose lock could not be taken. */
  readonly file: string;
  /** The lock folder (`<file>.lock`). */
  readonly lockFile: string;
  /** How long it waited, in milliseconds. */
  readonly timeoutMs: number;
  /** After how long an untouched lock counts as abandoned, in milliseconds. */
  readonly staleMs: number;

  /**
   * @param file - the locked file
   * @param lockFile - its lock folder
   * @param timeoutMs - how long it waited
   * @param staleMs - after how long a lock counts as abandoned
   * @param label - what the file is, for the message (default `'trust file'`)
   */
  constructor(
    file: string,
    lockFile: string,
    timeoutMs: number,
    staleMs: number,
    label: string = DEFAULT_LABEL,
  ) {
    const stale = Math.ceil(staleMs / 1000);
    super(
      TrustStoreErrorCode.LOCK_TIMEOUT,
      `could not lock the ${label} ${quote(file)} within ${timeoutMs} ms: another garuda process ` +
        `may be using it, so try again when it is done. If no other garuda process is running, ` +
        `a lock folder ${quote(lockFile)} older than ${stale} s is stale: it is taken over ` +
        `automatically, or you can remove it`,
    );
    this.name = 'LockTimeoutError';
    this.file = file;
    this.lockFile = lockFile;
    this.timeoutMs = timeoutMs;
    this.staleMs = staleMs;
  }
}

/** The lock folder could not be created, for another reason than a holder (code `LOCK_FAILED`). */
export class LockFailedError extends TrustStoreError {
  /**
   * Whether `value` is a {@link LockFailedError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'LockFailedError');

  /** The file whose lock could not be taken. */
  readonly file: string;
  /** The lock folder that could not be created. */
  readonly lockFile: string;

  /**
   * @param file - the locked file
   * @param lockFile - its lock folder
   * @param cause - the file system error
   * @param label - what the file is, for the message (default `'trust file'`)
   */
  constructor(file: string, lockFile: string, cause: unknown, label: string = DEFAULT_LABEL) {
    super(
      TrustStoreErrorCode.LOCK_FAILED,
      `could not lock the ${label} ${quote(file)}: creating ${quote(lockFile)} failed` +
        `${errnoCode(cause) ? ` (${errnoCode(cause)})` : ''}; check that its folder exists and is ` +
        `writable by you`,
      { cause },
    );
    this.name = 'LockFailedError';
    this.file = file;
    this.lockFile = lockFile;
  }
}

/** The lock was lost while held, so the change was not written (code `LOCK_COMPROMISED`). */
export class LockCompromisedError extends TrustStoreError {
  /**
   * Whether `value` is a {@link LockCompromisedError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'LockCompromisedError');

  /** The file whose lock was lost. */
  readonly file: string;

  /**
   * @param file - the locked file
   * @param cause - why the lock was lost
   * @param label - what the file is, for the message (default `'trust file'`)
   */
  constructor(file: string, cause: unknown, label: string = DEFAULT_LABEL) {
    super(
      TrustStoreErrorCode.LOCK_COMPROMISED,
      `the lock on the ${label} ${quote(file)} was lost before the change was written ` +
        `(this process was paused for longer than the stale time, or the lock folder was ` +
        `removed); nothing was written: try again`,
      { cause },
    );
    this.name = 'LockCompromisedError';
    this.file = file;
  }
}

/** The trust file (or another locked file) exists but cannot be read (code `FILE_UNREADABLE`). */
export class TrustFileUnreadableError extends TrustStoreError {
  /**
   * Whether `value` is a {@link TrustFileUnreadableError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'TrustFileUnreadableError');

  /** The path that could not be read. */
  readonly file: string;

  /**
   * @param file - the file
   * @param cause - the file system error
   * @param label - what the file is, for the message (default `'trust file'`)
   */
  constructor(file: string, cause: unknown, label: string = DEFAULT_LABEL) {
    const code = errnoCode(cause);
    let advice: string;
    if (code === 'EISDIR') {
      advice = 'it is a folder, not a file: move it away or pass another path';
    } else if (code === 'EACCES' || code === 'EPERM') {
      advice = 'permission denied: it should belong to you with mode 0600 (chmod 600)';
    } else if (code === 'ENOTDIR') {
      advice = 'a part of its path is a file, not a folder: pass another path';
    } else {
      advice = `${code ?? 'unknown error'}: check the file and its folder`;
    }
    super(
      TrustStoreErrorCode.FILE_UNREADABLE,
      `cannot read the ${label} ${quote(file)}: ${advice}`,
      {
        cause,
      },
    );
    this.name = 'TrustFileUnreadableError';
    this.file = file;
  }
}

/** The trust file (or another locked file) or its folder could not be written (code `WRITE_FAILED`). */
export class TrustFileWriteError extends TrustStoreError {
  /**
   * Whether `value` is a {@link TrustFileWriteError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'TrustFileWriteError');

  /** What was being done: `'create the folder'` or `'write the <label>'`. */
  readonly operation: string;
  /** The path that could not be created or written. */
  readonly target: string;

  /**
   * @param operation - what was being done ("write the trust file")
   * @param target - the path
   * @param cause - the file system error
   * @param label - what the file is, for the message (default `'trust file'`)
   */
  constructor(operation: string, target: string, cause: unknown, label: string = DEFAULT_LABEL) {
    const code = errnoCode(cause);
    super(
      TrustStoreErrorCode.WRITE_FAILED,
      `could not ${operation} ${quote(target)}${code ? ` (${code})` : ''}: check that the folder ` +
        `is writable by you and the disk is not full; the ${label} was left as it was`,
      { cause },
    );
    this.name = 'TrustFileWriteError';
    this.operation = operation;
    this.target = target;
  }
}

/** A corrupt file could not be moved aside, so it was left untouched (code `MOVE_ASIDE_FAILED`). */
export class CorruptFileMoveError extends TrustStoreError {
  /**
   * Whether `value` is a {@link CorruptFileMoveError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'CorruptFileMoveError');

  /** The corrupt file. */
  readonly file: string;
  /** Where it was to be moved. */
  readonly target: string;

  /**
   * @param file - the corrupt file
   * @param target - where it was to be moved
   * @param cause - the file system error
   * @param label - what the file is, for the message (default `'trust file'`)
   */
  constructor(file: string, target: string, cause: unknown, label: string = DEFAULT_LABEL) {
    const code = errnoCode(cause);
    const after =
      label === DEFAULT_LABEL ? ' (the servers you trusted will be asked about again)' : '';
    super(
      TrustStoreErrorCode.MOVE_ASIDE_FAILED,
      `the ${label} ${quote(file)} is corrupt and could not be moved to ${quote(target)}` +
        `${code ? ` (${code})` : ''}: move or remove it yourself${after}`,
      { cause },
    );
    this.name = 'CorruptFileMoveError';
    this.file = file;
    this.target = target;
  }
}
