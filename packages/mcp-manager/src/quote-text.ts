import { cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';

/** The longest quoted name in a notice or warning, in code points (before the closing quote). */
export const MAX_QUOTED_CHARS = 80;

/**
 * Cuts one line of text to at most `max` code points (so a surrogate pair is never split), ending
 * with `…` when something was cut. Unlike `capText` it adds no line break, so the result stays a
 * one-line field. @internal
 *
 * @param text - Text that is already one line (e.g. from `cleanLine`).
 * @param max - The most code points kept, `…` included; at least 1.
 * @returns `text`, or its start and `…`.
 * @example
 * ```ts
 * capLine('abcdef', 4); // 'abc…'
 * ```
 */
export function capLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * Text a server or a project file wrote, made safe to quote inside a one-line message: cleaned
 * to one line (`cleanLine`), tag-neutralised, capped, and JSON-quoted so a quote inside cannot
 * end the quotation. @internal
 *
 * @param text - Untrusted text; a non-string is shown by its type.
 * @param max - The most code points kept inside the quotes (default {@link MAX_QUOTED_CHARS}).
 * @returns A double-quoted string such as `"read_file"`.
 * @example
 * ```ts
 * quoteText('a"b\u202e\nc'); // '"a\\"b c"'
 * ```
 */
export function quoteText(text: unknown, max: number = MAX_QUOTED_CHARS): string {
  if (typeof text !== 'string') return `(${text === null ? 'null' : typeof text})`;
  return JSON.stringify(capLine(neutralizeTags(cleanLine(text)), max));
}

/**
 * A whole number with its digits grouped by spaces, as the messages write numbers. @internal
 *
 * @param n - A non-negative integer.
 * @returns E.g. `20 000` for 20000.
 * @example
 * ```ts
 * groupDigits(1000); // '1 000'
 * ```
 */
export function groupDigits(n: number): string {
  const digits = String(n);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ' ';
    out += digits[i];
  }
  return out;
}

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
 * @param max - The most code points kept inside the quotes (default {@link MAX_QUOTED_CHARS}).
 * @returns A double-quoted string such as `" mcp.*\n"`.
 * @example
 * ```ts
 * revealText('a\u200bb '); // '"a\\u200bb "'
 * ```
 */
export function revealText(text: string, max: number = MAX_QUOTED_CHARS): string {
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
