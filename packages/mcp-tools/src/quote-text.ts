import { cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';

/** The longest quoted name in a notice or warning, in code points (before the closing quote). */
export const MAX_QUOTED_CHARS = 80;

/**
 * Cuts one line of text to at most `max` code points (so a surrogate pair is never split), ending
 * with `…` when something was cut. Unlike `capText` it adds no line break, so the result stays a
 * one-line field.
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
 * end the quotation. Only the first `8 × max` characters are read, so a huge value costs no more
 * than a short one (a value cut there ends with `…` too).
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
  return JSON.stringify(headLine(text, max));
}

/**
 * Untrusted text as one cleaned, tag-neutralised line of at most `max` code points (`…` when
 * cut), reading only its first `8 × max` characters. @internal
 *
 * @param text - Untrusted text.
 * @param max - The most code points kept; at least 1.
 * @returns The line, possibly empty.
 */
export function headLine(text: string, max: number): string {
  const head = text.length > max * 8 ? text.slice(0, max * 8) : text;
  const line = neutralizeTags(cleanLine(head));
  if (head.length === text.length) return capLine(line, max);
  return `${Array.from(line)
    .slice(0, Math.max(0, max - 1))
    .join('')}…`;
}

/**
 * A whole number with its digits grouped by spaces, as the messages write numbers.
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
