import { capLine } from '@garuda/internal';
import { neutralizeTags } from '@garuda/mcp-sanitize';
import { LIMITS } from '@garuda/mcp-tools';

// Characters a terminal would hide, reorder or act on: controls, format characters (bidi,
// zero-width, tags), surrogates, private-use and unassigned code points, separators other than
// the plain space, variation selectors and the fillers that render as nothing.
const HIDDEN =
  /[\p{C}\p{Z}]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]|\u034F|\u115F|\u1160|\u17B4|\u17B5|[\u180B-\u180F]|\u2800|\u3164|\uFFA0/u;

/**
 * User-written text quoted with every hidden character shown as an escape (`\u200b`, `\n`), so
 * a person can see why it was refused; tags are neutralised and the result is capped.
 * @internal
 *
 * @param text - Text as the user wrote it.
 * @param max - The most code points kept inside the quotes (default `LIMITS.maxQuotedChars`).
 * @returns A double-quoted string such as `" mcp.*\n"`.
 * @example
 * ```ts
 * revealText('a\u200bb '); // '"a\\u200bb "'
 * ```
 */
export function revealText(text: string, max: number = LIMITS.maxQuotedChars): string {
  let out = '';
  for (const ch of capLine(text, max)) {
    if (ch === ' ') out += ch;
    else if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (HIDDEN.test(ch)) {
      const cp = ch.codePointAt(0) ?? 0;
      out += cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\u{${cp.toString(16)}}`;
    } else out += ch;
  }
  return `"${neutralizeTags(out)}"`;
}
