// Only a code of the usual shape (ENOENT, ERR_STREAM_DESTROYED, ELOCKED) is returned, so what a
// message shows of it needs no quoting.
const CODE = /^[A-Z0-9_]{1,64}$/;

/**
 * The `code` of a Node.js system error (`EACCES`, `ENOENT`…) or of a library error shaped like
 * one, if it has one of the usual shape.
 *
 * @param error - anything, typically a caught error
 * @returns the code, or `undefined`
 * @example
 * ```ts
 * if (errnoCode(error) === 'ENOENT') return undefined;
 * ```
 */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && CODE.test(code) ? code : undefined;
}
