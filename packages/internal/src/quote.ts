// Text in an error or log message may come from a file, a server or a caller. JSON quoting shows
// where it starts and ends, and escapes C0 controls, newlines and lone surrogates; what JSON
// leaves as it is but a terminal would act on or hide (DEL, C1 controls, bidi overrides,
// zero-width and other invisible characters, line separators) is escaped here.
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;

/** Options of {@link quote} and {@link shorten}. */
export interface QuoteOptions {
  /** At most this many characters (code points) of the text are kept. Default 200. */
  max?: number;
  /**
   * Cleans the text before it is shortened: `cleanLine` or `cleanText` of `@garuda/mcp-sanitize`
   * for text a server or a project wrote, which then shows as the visible text it is instead of
   * escapes. Only a bounded prefix (8 × `max`) is cleaned, so a huge text costs no more than a
   * short one.
   */
  clean?: (text: string) => string;
  /**
   * Escape every character outside printable ASCII (`é` as `\u00e9`), not only invisible and
   * control ones: for a package with no Unicode tables, or names that must be ASCII.
   */
  ascii?: boolean;
}

/**
 * Text for a message, not yet quoted: cleaned when `clean` is given, and cut to `max` code points
 * (never inside a surrogate pair) with a trailing `…` when anything was left out.
 *
 * @param text - the text
 * @param options - `max` and `clean`; `ascii` does not apply here
 * @returns the shortened text
 * @example
 * ```ts
 * shorten('a'.repeat(300), { max: 5 }); // 'aaaaa…'
 * ```
 */
export function shorten(text: string, options: QuoteOptions = {}): string {
  const { max = 200, clean } = options;
  // Cleaning only removes characters, so 8 × max is plenty to fill max after it.
  const bounded = clean !== undefined && text.length > max * 8;
  const source = bounded ? text.slice(0, max * 8) : text;
  const cleaned = clean === undefined ? source : clean(source);
  const end = codePointEnd(cleaned, max);
  return end < cleaned.length || bounded ? `${cleaned.slice(0, end)}…` : cleaned;
}

/**
 * Quotes text for an error or log message: {@link shorten}ed, JSON-quoted, and every control,
 * bidi, zero-width or other invisible character left escaped (`\u202e`), so nothing in it can
 * move the cursor, reorder a line or start a fake one in a terminal or a log.
 *
 * @param text - the text
 * @param options - `max` (default 200), `clean`, `ascii`
 * @returns the quoted text, `"…"` included
 * @example
 * ```ts
 * quote('evil\u202e\nname'); // '"evil\\u202e\\nname"'
 * quote(serverText, { max: 120, clean: cleanLine });
 * ```
 */
export function quote(text: string, options: QuoteOptions = {}): string {
  return JSON.stringify(shorten(text, options)).replace(
    options.ascii === true ? NOT_PRINTABLE_ASCII : INVISIBLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// The index after the first `max` code points of `text`, without walking past them.
function codePointEnd(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) {
    end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  }
  return end;
}
