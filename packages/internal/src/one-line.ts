// One-line fields in messages and notes: text a server or a project wrote, cut to a bounded
// number of code points and quoted, and whole numbers written the way the messages write them.

/**
 * Cuts one line of text to at most `max` code points (so a surrogate pair is never split), ending
 * with `…` when something was cut. Unlike `capText` of `@garuda/mcp-sanitize` it adds no line
 * break, so the result stays a one-line field.
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
 * Untrusted text as one cleaned line of at most `max` code points (`…` when cut), reading only
 * its first `8 × max` characters, so a huge value costs no more than a short one (a value cut
 * there ends with `…` too).
 *
 * @param text - Untrusted text.
 * @param max - The most code points kept; at least 1.
 * @param clean - Makes one safe line of text (for a server's text: `cleanLine` of
 *   `@garuda/mcp-sanitize`, then `neutralizeTags`); it only removes or replaces characters.
 * @returns The line, possibly empty.
 * @example
 * ```ts
 * headLine('a\nb'.repeat(100), 5, cleanLine); // 'a b …'
 * ```
 */
export function headLine(text: string, max: number, clean: (text: string) => string): string {
  const head = text.length > max * 8 ? text.slice(0, max * 8) : text;
  const line = clean(head);
  if (head.length === text.length) return capLine(line, max);
  return `${Array.from(line)
    .slice(0, Math.max(0, max - 1))
    .join('')}…`;
}

/**
 * Untrusted text made safe to quote inside a one-line message: {@link headLine}, then
 * JSON-quoted so a quote inside cannot end the quotation.
 *
 * @param text - Untrusted text; a non-string is shown by its type, unquoted.
 * @param max - The most code points kept inside the quotes.
 * @param clean - As for {@link headLine}.
 * @returns A double-quoted string such as `"read_file"`, or `(number)` and the like.
 * @example
 * ```ts
 * quoteLine('read_file', 80, cleanLine); // '"read_file"'
 * ```
 */
export function quoteLine(text: unknown, max: number, clean: (text: string) => string): string {
  if (typeof text !== 'string') return `(${text === null ? 'null' : typeof text})`;
  return JSON.stringify(headLine(text, max, clean));
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
