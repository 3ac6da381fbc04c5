/**
 * Whether a value is a JSON object: not null, not an array. @internal
 *
 * @param value - Any value.
 * @returns `true` for an object that is not an array.
 * @example
 * ```ts
 * isRecord({}); // true
 * isRecord([]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
