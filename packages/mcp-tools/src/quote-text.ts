import { cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';
import { headLine as boundedLine, quoteLine } from '@garuda/internal';

/** The longest quoted name in a notice or warning, in code points (before the closing quote). */
export const MAX_QUOTED_CHARS = 80;

const safeLine = (text: string): string => neutralizeTags(cleanLine(text));

/**
 * Text a server or a project file wrote, made safe to quote inside a one-line message: cleaned
 * to one line (`cleanLine`), tag-neutralised, capped, and JSON-quoted so a quote inside cannot
 * end the quotation. Only the first `8 × max` characters are read.
 *
 * @param text - Untrusted text; a non-string is shown by its type.
 * @param max - The most code points kept inside the quotes (default {@link MAX_QUOTED_CHARS}).
 * @returns A double-quoted string such as `"read_file"`.
 */
export function quoteText(text: unknown, max: number = MAX_QUOTED_CHARS): string {
  return quoteLine(text, max, safeLine);
}

/**
 * Untrusted text as one cleaned, tag-neutralised line of at most `max` code points (`…` when
 * cut), reading only its first `8 × max` characters.
 *
 * @param text - Untrusted text.
 * @param max - The most code points kept; at least 1.
 * @returns The line, possibly empty.
 */
export function headLine(text: string, max: number): string {
  return boundedLine(text, max, safeLine);
}
