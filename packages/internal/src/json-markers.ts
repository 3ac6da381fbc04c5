// Text put in place of a JSON value that is not copied, the same in every package that writes one.
/**
 * The markers `cleanJson` of `@garuda/mcp-sanitize` puts in place of what it cannot or will not
 * copy; `@garuda/mcp-tools` writes the same ones in a call preview.
 */
export const JSON_MARKERS = {
  circular: '[circular reference]',
  tooDeep: '[nested too deeply]',
  tooLarge: '[cut: too many values]',
  unreadable: '[unreadable value]',
  /** The key under which an object's cut-off remainder is noted. */
  cutKey: '…',
} as const;
