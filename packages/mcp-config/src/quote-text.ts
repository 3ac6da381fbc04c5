import { cleanLine } from '@garuda/mcp-sanitize';
import { MAX_QUOTED_CHARS } from './limits.js';

/**
 * Text from a file, made safe for one line of a message: cleaned (`cleanLine`: no escape
 * sequences, no invisible or bidi characters, whitespace collapsed) and cut to
 * `MAX_QUOTED_CHARS` code points with a trailing `…`. @internal
 */
export function shortText(value: string): string {
  // Only a bounded prefix is cleaned, so a megabyte-long key costs no more than a short one.
  const head = value.length > MAX_QUOTED_CHARS * 8 ? value.slice(0, MAX_QUOTED_CHARS * 8) : value;
  const cleaned = cleanLine(head);
  let out = '';
  let count = 0;
  for (const ch of cleaned) {
    if (count === MAX_QUOTED_CHARS) return `${out}…`;
    out += ch;
    count += 1;
  }
  return head.length < value.length ? `${out}…` : out;
}

/** {@link shortText}, JSON-quoted: how text from a file appears inside a message. @internal */
export function quoteText(value: string): string {
  return JSON.stringify(shortText(value));
}
