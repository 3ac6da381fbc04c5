// Oracles for tests of code that cleans what a server sends: what hostile text is left, and
// every string of a value to look in.

/** Code points that must never reach a model or a terminal from a server. */
const FORBIDDEN: readonly (readonly [what: string, pattern: RegExp])[] = [
  ['a C0 control (other than tab and newline), DEL or a C1 control', /[\0-\x08\x0B-\x1F\x7F-\x9F]/],
  ['an escape character', /\x1B/],
  ['a format character (bidi, zero-width, BOM, soft hyphen, tag character)', /\p{Cf}/u],
  ['a variation selector', /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u],
  ['a lone surrogate', /\p{Cs}/u],
  [
    'an invisible filler',
    /\u034F|\u115F|\u1160|\u17B4|\u17B5|[\u180B-\u180F]|\u2800|\u3164|\uFFA0/,
  ],
  ['a line or paragraph separator', /[\u2028\u2029]/],
];

/** Wrapper tags a server must not be able to open or close, in any disguise NFKC unfolds. */
const TAG = /<\/?(?:mcpresult|mcpresource|mcpprompt|garudanote|webresult)/;

/**
 * Everything hostile left in a text: forbidden code points, and `<mcp_result`, `<mcp_resource`,
 * `<mcp_prompt`, `<garuda_note` or `<web_result` (or their closing forms) in any case, width or
 * spacing that was not neutralised.
 *
 * @param text - Output of the code under test (without our own wrapper).
 * @returns What was found, empty when the text is clean.
 */
export function hostileLeftovers(text: string): string[] {
  const found: string[] = [];
  for (const [what, pattern] of FORBIDDEN) {
    const match = pattern.exec(text);
    if (match)
      found.push(`${what}: U+${(match[0].codePointAt(0) ?? 0).toString(16)} at ${match.index}`);
  }
  const folded = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_.:-]/g, '');
  const tag = TAG.exec(folded);
  if (tag)
    found.push(`an un-neutralised tag: ${JSON.stringify(folded.slice(tag.index, tag.index + 20))}`);
  return found;
}

/**
 * Every string in a JSON-like value, keys included.
 *
 * @param value - Any value.
 * @returns The strings, depth first.
 */
export function allStrings(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        out.push(key);
        walk(item);
      }
    }
  };
  walk(value);
  return out;
}
