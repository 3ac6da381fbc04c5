import { quote, shorten } from '@garuda/internal';
import { cleanLine } from '@garuda/mcp-sanitize';
import { MAX_QUOTED_CHARS } from './limits.js';

// Text from a file is cleaned to one line of visible text (no escape sequences, invisible or
// bidi characters, whitespace collapsed) and cut to MAX_QUOTED_CHARS code points.
const FROM_A_FILE = { max: MAX_QUOTED_CHARS, clean: cleanLine };
// A path is shown whole (Linux's PATH_MAX), with controls and invisible characters escaped.
const PATH = { max: 4096 };

/** Text from a file, made safe for one line of a message, not quoted. @internal */
export function shortText(value: string): string {
  return shorten(value, FROM_A_FILE);
}

/** {@link shortText}, JSON-quoted: how text from a file appears inside a message. @internal */
export function quoteText(value: string): string {
  return quote(value, FROM_A_FILE);
}

/** A file path for a message: JSON-quoted, with control and invisible characters escaped. @internal */
export function quotePath(file: string): string {
  return quote(file, PATH);
}
