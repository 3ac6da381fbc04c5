/**
 * The start of an `mcp.json` written the way people do (odd spacing, one server on one line, one
 * over several with other indentation), for edits that must leave every other byte alone: up to
 * the end of the second server, `oneLine`'s then `multiLine`'s, with no comma after it.
 */
export function oddStart(oneLine: string, multiLine: string): string {
  return `{
  "$schema": "https://example.com/schema.json",
  "servers": {
    "${oneLine}":   { "command": "a",   "args": ["x"] },
    "${multiLine}": {
        "url": "https://b.example/mcp",
        "headers": {"X-A": "1"}
    }`;
}

/** The end of such a file: the servers closed, and a key of the user's own that must be kept. */
export const ODD_END = `
  },
  "zzz": { "kept": [1, 2,   3] }
}
`;
