// Matching a URI the host expanded from a server's RFC 6570 template, by hand and in linear time.
//
// A server writes the template, so it is never turned into a regular expression: a template of
// adjacent expressions (`note://{a}{b}{c}…`) made a backtracking pattern take minutes on a short
// URI, and the gateway answered nothing meanwhile. No library matches an expanded URI back to
// its template (uri-template libraries only expand), so this is written here: the template is
// split at its expressions once, and a URI is matched by finding each piece of the server's own
// text in turn (the leftmost place that leaves room for the rest), which reads the URI a bounded
// number of times. A template this cannot match that way is not offered at all.

/** The most `{…}` expressions a template offered to the host may have. */
export const MAX_TEMPLATE_EXPRESSIONS = 16;
/** The longest template offered to the host, in UTF-16 code units. */
export const MAX_TEMPLATE_CHARS = 2048;

/**
 * A template split for matching: `literals` (the server's text between the expressions, one more
 * than `expressions`, each as the host sees it) and `expressions` (each `{…}` as written).
 */
export interface TemplatePieces {
  readonly literals: readonly string[];
  readonly expressions: readonly string[];
}

/**
 * The text and the `{…}` expressions of a URI template, in turn (text first). A `{` with no `}`
 * before the next brace is text. One pass over the template.
 *
 * @param template - A template as the server wrote it.
 * @returns Its literal text (one more piece than expressions) and its expressions.
 */
export function templateParts(template: string): { literals: string[]; expressions: string[] } {
  const literals: string[] = [];
  const expressions: string[] = [];
  let literalStart = 0;
  let open = -1;
  for (let i = 0; i < template.length; i += 1) {
    const ch = template[i];
    if (ch === '{') open = i;
    else if (ch === '}' && open >= 0) {
      literals.push(template.slice(literalStart, open));
      expressions.push(template.slice(open, i + 1));
      literalStart = i + 1;
      open = -1;
    }
  }
  literals.push(template.slice(literalStart));
  return { literals, expressions };
}

/**
 * Whether the gateway can offer a template, and its pieces as the host sees them (each literal
 * percent-encoded, the expressions kept). Refused, with the reason in a few words: a template
 * longer than {@link MAX_TEMPLATE_CHARS}, with more than {@link MAX_TEMPLATE_EXPRESSIONS}
 * expressions, with two expressions and no text between them (where one value ends and the next
 * begins could not be told), or with text that cannot be written in a URI.
 *
 * @param template - A template as the server wrote it.
 * @returns `{ ok: true, pieces }`, or `{ ok: false, reason }`.
 */
export function templateShape(
  template: string,
): { ok: true; pieces: TemplatePieces } | { ok: false; reason: string } {
  if (template.length > MAX_TEMPLATE_CHARS) {
    return { ok: false, reason: `it is longer than ${MAX_TEMPLATE_CHARS} characters` };
  }
  const { literals, expressions } = templateParts(template);
  if (expressions.length > MAX_TEMPLATE_EXPRESSIONS) {
    return {
      ok: false,
      reason: `it has ${expressions.length} expressions (at most ${MAX_TEMPLATE_EXPRESSIONS} are offered)`,
    };
  }
  if (literals.slice(1, -1).some((literal) => literal === '')) {
    return {
      ok: false,
      reason:
        'two of its expressions have no text between them, so their values cannot be told apart',
    };
  }
  try {
    return {
      ok: true,
      pieces: { literals: literals.map((literal) => encodeURIComponent(literal)), expressions },
    };
  } catch {
    // A lone surrogate half: no URI can carry it.
    return { ok: false, reason: 'its text cannot be written in a URI' };
  }
}

/**
 * The values a URI holds between a template's literal pieces, or `undefined` when the URI is not
 * an expansion of it. Each middle piece is taken at its leftmost place that still leaves room for
 * the last one (when any split fits, this one does, and it is the split a lazy pattern would
 * give). Middle pieces are never empty ({@link templateShape} refuses that), so each search moves
 * forward: the work is a few scans of the URI, whatever the template or the URI.
 *
 * @param literals - The template's literal pieces as the host sees them (at least one).
 * @param text - The URI (after the gateway's prefix).
 * @returns One value per expression, in order, or `undefined`.
 */
export function matchTemplate(literals: readonly string[], text: string): string[] | undefined {
  const first = literals[0] ?? '';
  const last = literals[literals.length - 1] ?? '';
  if (literals.length === 1) return text === first ? [] : undefined;
  if (!text.startsWith(first) || !text.endsWith(last)) return undefined;
  const end = text.length - last.length;
  if (end < first.length) return undefined;
  const values: string[] = [];
  let at = first.length;
  for (const literal of literals.slice(1, -1)) {
    const found = text.indexOf(literal, at);
    if (found < 0 || found + literal.length > end) return undefined;
    values.push(text.slice(at, found));
    at = found + literal.length;
  }
  values.push(text.slice(at, end));
  return values;
}
