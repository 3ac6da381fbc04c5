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

// Markers instead of `instanceof`, so an error made by another copy of this package (two
// versions in one node_modules tree) is still recognised. Each class puts its own marker on its
// prototype, so an instance carries the markers of its class and of every class above it: that
// is what makes `X.isInstance` accept X and its subclasses, and never a sibling. The class name
// is written out, not read from `cls.name`, which bundlers and minifiers rename.
function brand<T extends object>(
  cls: abstract new (...args: never[]) => T,
  name: string,
): (value: unknown) => value is T {
  const marker = Symbol.for(`garuda.mcp-sanitize.${name}`);
  Object.defineProperty(cls.prototype, marker, { value: true });
  return (value): value is T =>
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true;
}

/**
 * Base class of every error thrown by `@garuda/mcp-sanitize`. Only programming mistakes throw
 * (a wrong argument type or limit): text itself, however hostile, never makes a function throw.
 */
export class SanitizeError extends Error {
  /**
   * Whether `value` is an error of this package (any of its classes), also from another copy of
   * it. Every subclass has its own `isInstance`, true for that class and its subclasses only.
   * Each is a plain function that keeps its class, so it can be passed on as it is:
   * `errors.filter(InvalidTagError.isInstance)`.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   * @example
   * ```ts
   * if (SanitizeError.isInstance(e)) ui.error(e.code, e.message);
   * ```
   */
  static readonly isInstance = brand(this, 'SanitizeError');

  /** A stable string from {@link SanitizeErrorCode}. */
  readonly code: SanitizeErrorCode;

  constructor(code: SanitizeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SanitizeError';
    this.code = code;
  }
}

/** A function was given something other than a string (code `INVALID_INPUT`). */
export class InvalidInputError extends SanitizeError {
  /**
   * Whether `value` is an {@link InvalidInputError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidInputError');

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
  /**
   * Whether `value` is an {@link InvalidTagError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidTagError');

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
  /**
   * Whether `value` is a {@link TooManyTagsError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'TooManyTagsError');

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
  /**
   * Whether `value` is an {@link InvalidLimitError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidLimitError');

  constructor(what: string, value: unknown) {
    super(
      SanitizeErrorCode.INVALID_LIMIT,
      `${what} must be a non-negative integer, got ${typeof value === 'number' ? String(value) : typeof value}`,
    );
    this.name = 'InvalidLimitError';
  }
}
