import { quoteLine } from '@garuda/internal';
import { cleanLine, cleanText, neutralizeTags } from '@garuda/mcp-sanitize';
import { LIMITS } from '@garuda/mcp-tools';

/** The longest reason shown in a status row, a note or an error message, in code points. */
export const MAX_REASON_CHARS = 300;

/**
 * Untrusted text (a server's stderr, an error that quotes one, a project file's value) made safe
 * for one line of a message, a status row or a note for the model: cleaned to one line, its
 * `<mcp_result`/`<garuda_note` tags neutralised (a note is wrapped in `<garuda_note>` by the
 * host), and cut to `max` code points with `…`. @internal
 *
 * @param text - Anything; a non-string is shown as its type.
 * @param max - The most code points kept.
 * @returns One safe line.
 */
export function oneLine(text: unknown, max: number = MAX_REASON_CHARS): string {
  if (typeof text !== 'string') return `(${text === null ? 'null' : typeof text})`;
  // Cap before cleaning too, so a 4 MiB message is never scanned whole for a one-line reason.
  const head = text.length > max * 8 ? text.slice(0, max * 8) : text;
  const line = neutralizeTags(cleanLine(head));
  const points = Array.from(line);
  if (points.length <= max && head.length === text.length) return line;
  return `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * Text a server or a project file wrote, made safe to quote inside a one-line message: cleaned
 * to one line, tag-neutralised, capped at `max` code points with `…` and JSON-quoted; only the
 * first `8 × max` characters are read. @internal
 *
 * @param text - Untrusted text; a non-string is shown by its type.
 * @param max - The most code points kept inside the quotes (default `LIMITS.maxQuotedChars` of
 *   `@garuda/mcp-tools`, 80: the names in the model's notices are quoted the same way).
 * @returns A double-quoted string such as `"read_file"`.
 */
export function quoteText(text: unknown, max: number = LIMITS.maxQuotedChars): string {
  return quoteLine(text, max, (line) => neutralizeTags(cleanLine(line)));
}

/**
 * Text for `prompter.notice`: cleaned (escapes, bidi and invisible characters removed), lines
 * kept, tags neutralised. @internal
 *
 * @param text - The notice.
 * @returns The cleaned notice.
 */
export function noticeText(text: string): string {
  return neutralizeTags(cleanText(text));
}

/**
 * A request for the prompter (consent, sign-in, call preview) with every string in it cleaned
 * (lines kept) and its tags neutralised — the last guard before the host shows it, whatever a
 * builder upstream missed. Arrays and plain objects are copied; other values pass as they are.
 * @internal
 *
 * @param value - The request.
 * @returns A copy that is safe to show, of the same shape.
 */
export function forPrompter<T>(value: T): T {
  return walk(value, 0) as T;
}

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    const clean = neutralizeTags(cleanText(value));
    return clean === value ? value : clean;
  }
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = walk(item, depth + 1);
  return out;
}

/**
 * The message of anything thrown, for a reason. @internal
 *
 * @param error - Anything.
 * @returns Its message, or its string form.
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return String(error);
}
