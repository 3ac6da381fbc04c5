/**
 * Describes a value that is not what was expected, for a message, without printing it (it may be
 * a secret, or huge): `null`, `undefined`, `an array`, `an object`, `a number`, `a function`…
 *
 * @param value - anything
 * @returns a short description of its kind
 * @example
 * ```ts
 * throw new TypeError(`options must be an object, got ${kindOf(options)}`);
 * ```
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
