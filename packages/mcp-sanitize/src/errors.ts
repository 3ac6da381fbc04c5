/** Stable codes of the errors this package throws. */
export const SanitizeErrorCode = {
  /** A function was given something other than a string. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** A tag name for `neutralizeTags` / `compileTags` is empty or has characters a tag cannot have. */
  INVALID_TAG: 'INVALID_TAG',
  /** A size limit (`capText`'s `max`, `cleanJson`'s bounds) is not a non-negative integer. */
  INVALID_LIMIT: 'INVALID_LIMIT',
} as const;

/** One of the {@link SanitizeErrorCode} values. */
export type SanitizeErrorCode = (typeof SanitizeErrorCode)[keyof typeof SanitizeErrorCode];

const MARKER = Symbol.for('garuda.mcp-sanitize.SanitizeError');

/**
 * Base class of every error thrown by `@garuda/mcp-sanitize`. Only programming mistakes throw
 * (a wrong argument type or limit): text itself, however hostile, never makes a function throw.
 */
export class SanitizeError extends Error {
  /** A stable string from {@link SanitizeErrorCode}. */
  readonly code: SanitizeErrorCode;
  // A symbol marker rather than `instanceof`, so two copies of this package recognise each other.
  readonly [MARKER] = true;

  constructor(code: SanitizeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SanitizeError';
    this.code = code;
  }

  /**
   * Whether `value` is a `SanitizeError` from any copy of this package.
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this package's error marker
   */
  static isInstance(value: unknown): value is SanitizeError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[MARKER] === true
    );
  }
}

/** A function was given something other than a string (code `INVALID_INPUT`). */
export class InvalidInputError extends SanitizeError {
  constructor(fn: string, value: unknown) {
    super(
      SanitizeErrorCode.INVALID_INPUT,
      `${fn} expects a string, got ${value === null ? 'null' : typeof value}: convert the value to a string first`,
    );
    this.name = 'InvalidInputError';
  }
}

// Tag names are ASCII, so anything else in a rejected one is shown as "?": no escape or bidi
// character from the caller's data can reach a terminal through this message.
function quoteAscii(value: unknown): string {
  if (typeof value !== 'string')
    return `(a ${value === null ? 'null' : typeof value}, not a string)`;
  return JSON.stringify(value.slice(0, 64)).replace(/[^\x20-\x7e]/g, '?');
}

/** A tag name is not usable (code `INVALID_TAG`). */
export class InvalidTagError extends SanitizeError {
  constructor(tag: unknown) {
    super(
      SanitizeErrorCode.INVALID_TAG,
      `tag name ${quoteAscii(tag)} is invalid: use 1 to 64 ASCII letters, digits, "_", "-", "." or ":", starting with a letter`,
    );
    this.name = 'InvalidTagError';
  }
}

/** A tag list is longer than `MAX_TAGS` (code `INVALID_TAG`). */
export class TooManyTagsError extends SanitizeError {
  constructor(count: number, max: number) {
    super(
      SanitizeErrorCode.INVALID_TAG,
      `a tag list holds at most ${max} names, got ${count}: split it or keep the ones a model could mistake for your own markup`,
    );
    this.name = 'TooManyTagsError';
  }
}

/** A size limit is not a non-negative integer (code `INVALID_LIMIT`). */
export class InvalidLimitError extends SanitizeError {
  constructor(what: string, value: unknown) {
    super(
      SanitizeErrorCode.INVALID_LIMIT,
      `${what} must be a non-negative integer, got ${typeof value === 'number' ? String(value) : typeof value}`,
    );
    this.name = 'InvalidLimitError';
  }
}
