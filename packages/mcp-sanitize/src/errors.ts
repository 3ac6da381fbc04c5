import { brand, CodedError, kindOf, quote } from '@garuda/internal';

/** Stable codes of the errors this package throws. */
export const SanitizeErrorCode = {
  /** A function was given something other than a string. */
  INVALID_INPUT: 'SANITIZE_INVALID_INPUT',
  /**
   * A tag name for `neutralizeTags` / `compileTags` is empty or has characters a tag cannot
   * have, or the list holds more than `MAX_TAGS` names.
   */
  INVALID_TAG: 'SANITIZE_INVALID_TAG',
  /** A size limit (`capText`'s `max`, `cleanJson`'s bounds) is not a non-negative integer. */
  INVALID_LIMIT: 'SANITIZE_INVALID_LIMIT',
} as const;

/** One of the {@link SanitizeErrorCode} values. */
export type SanitizeErrorCode = (typeof SanitizeErrorCode)[keyof typeof SanitizeErrorCode];

/**
 * The error of `@garuda/mcp-sanitize`, told apart by its `code`. Only programming mistakes throw
 * (a wrong argument type or limit): text itself, however hostile, never makes a function throw.
 *
 * @example
 * ```ts
 * try {
 *   neutralizeTags(text, tags);
 * } catch (e) {
 *   if (SanitizeError.isInstance(e) && e.code === SanitizeErrorCode.INVALID_TAG) fixTags();
 * }
 * ```
 */
export class SanitizeError extends CodedError<SanitizeErrorCode> {
  /**
   * Whether `value` is an error of this package, also from another copy of it. A plain function
   * that keeps no `this`: `errors.filter(SanitizeError.isInstance)` works.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   */
  static readonly isInstance = brand(this, 'garuda.mcp-sanitize', 'SanitizeError');
}

/** `fn` was given `value`, which is not a string (code `SANITIZE_INVALID_INPUT`). @internal */
export function invalidInput(fn: string, value: unknown): SanitizeError {
  return new SanitizeError(
    SanitizeErrorCode.INVALID_INPUT,
    `${fn} expects a string, got ${value === null ? 'null' : typeof value}: convert the value to a string first`,
  );
}

/**
 * `tag` is not a usable tag name (code `SANITIZE_INVALID_TAG`). Tag names are ASCII, so everything else in
 * a rejected one is escaped: no escape or bidi character from the caller's data reaches a terminal.
 * @internal
 */
export function invalidTag(tag: unknown): SanitizeError {
  const shown =
    typeof tag === 'string'
      ? quote(tag, { max: 64, ascii: true })
      : `(${kindOf(tag)}, not a string)`;
  return new SanitizeError(
    SanitizeErrorCode.INVALID_TAG,
    `tag name ${shown} is invalid: use 1 to 64 ASCII letters, digits, "_", "-", "." or ":", starting with a letter`,
  );
}

/** A tag list holds `count` names, more than `max` (code `SANITIZE_INVALID_TAG`). @internal */
export function tooManyTags(count: number, max: number): SanitizeError {
  return new SanitizeError(
    SanitizeErrorCode.INVALID_TAG,
    `a tag list holds at most ${max} names, got ${count}: split it or keep the ones a model could mistake for your own markup`,
  );
}

/** The limit `what` is `value`, not a non-negative integer (code `SANITIZE_INVALID_LIMIT`). @internal */
export function invalidLimit(what: string, value: unknown): SanitizeError {
  return new SanitizeError(
    SanitizeErrorCode.INVALID_LIMIT,
    `${what} must be a non-negative integer, got ${typeof value === 'number' ? String(value) : typeof value}`,
  );
}
