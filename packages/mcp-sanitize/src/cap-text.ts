import { invalidInput, invalidLimit } from './errors.js';

function marker(cut: number): string {
  return `\n[… ${cut} more characters cut]`;
}

/**
 * Shortens text to at most `max` characters (UTF-16 code units, i.e. `string.length`), ending
 * with a marker that says how much was cut. A surrogate pair is never split. When `max` is too
 * small to hold the marker, the text ends with a single `…` instead; `max` 0 gives `''`.
 *
 * @param text - the text to shorten
 * @param max - the largest length the result may have
 * @returns `text` itself when it fits, otherwise a prefix of it plus the marker
 * @throws {@link SanitizeError} `SANITIZE_INVALID_LIMIT` when `max` is not a non-negative integer
 * @throws {@link SanitizeError} `SANITIZE_INVALID_INPUT` when `text` is not a string
 * @example
 * ```ts
 * capText('a'.repeat(100), 40); // 'aaaaaaaaaaaa\n[… 88 more characters cut]'
 * ```
 */
export function capText(text: string, max: number): string {
  if (typeof text !== 'string') throw invalidInput('capText', text);
  if (!Number.isSafeInteger(max) || max < 0) throw invalidLimit('capText max', max);
  if (text.length <= max) return text;
  // The marker is sized for the longest possible count, so the real (smaller) count still fits.
  const room = max - marker(text.length).length;
  const short = room < 0;
  let keep = short ? max - 1 : room;
  if (keep <= 0) return max === 0 ? '' : '…';
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  const head = text.slice(0, keep);
  return head + (short ? '…' : marker(text.length - keep));
}
