import { brand, CodedError } from '@garuda/internal';

/** Stable codes of the errors this package throws. */
export const McpToolsErrorCode = {
  /** An option has a value it cannot take (a `maxTools` of `-1`): a programming error. */
  INVALID_OPTION: 'TOOLS_INVALID_OPTION',
} as const;

/** One of the {@link McpToolsErrorCode} values. */
export type McpToolsErrorCode = (typeof McpToolsErrorCode)[keyof typeof McpToolsErrorCode];

/**
 * Base class of every error thrown by `@garuda/mcp-tools`. Only programming mistakes throw (an
 * option out of range): what a server sends, however hostile, never makes a function throw.
 */
export class McpToolsError extends CodedError<McpToolsErrorCode> {
  /**
   * Whether `value` is an error of this package (any of its classes), also from another copy of
   * it. Every subclass has its own `isInstance`, true for that class and its subclasses only.
   * Each is a plain function that keeps its class, so it can be passed on as it is:
   * `errors.filter(InvalidOptionError.isInstance)`.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   * @example
   * ```ts
   * if (McpToolsError.isInstance(e)) ui.error(e.code, e.message);
   * ```
   */
  static readonly isInstance = brand(this, 'garuda.mcp-tools', 'McpToolsError');
}

/**
 * An option has a value it cannot take (code `TOOLS_INVALID_OPTION`), e.g. `adaptTools`'s `maxTools`
 * or `formatResult`'s `maxChars` that is not a non-negative integer.
 *
 * @example
 * ```ts
 * adaptTools('github', tools, { maxTools: -1 }); // throws InvalidOptionError
 * ```
 */
export class InvalidOptionError extends McpToolsError {
  /**
   * Whether `value` is an {@link InvalidOptionError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'garuda.mcp-tools', 'InvalidOptionError');

  /** The option at fault, e.g. `maxTools`. */
  readonly option: string;

  /**
   * @param fn - The function that was called, e.g. `adaptTools`.
   * @param option - The option at fault.
   * @param value - The value it was given (only its type or number is shown).
   */
  constructor(fn: string, option: string, value: unknown) {
    const got = typeof value === 'number' ? String(value) : value === null ? 'null' : typeof value;
    super(
      McpToolsErrorCode.INVALID_OPTION,
      `${fn}: ${option} must be a non-negative integer, not ${got}`,
    );
    this.option = option;
  }
}

/**
 * `value` when it is a non-negative safe integer, `fallback` when it is `undefined`.
 *
 * @throws InvalidOptionError otherwise.
 */
export function countOption(fn: string, option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidOptionError(fn, option, value);
  }
  return value;
}
