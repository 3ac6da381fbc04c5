/**
 * Whether a value is an object whose keys can be read as fields: not `null`, not an array (a
 * parsed JSON object, an options object).
 *
 * @param value - anything
 * @returns true for a non-null, non-array object
 * @example
 * ```ts
 * if (!isRecord(data)) return { ok: false, reason: 'it is not an object' };
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
