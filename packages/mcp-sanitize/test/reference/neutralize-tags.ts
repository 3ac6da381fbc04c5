// The tag neutraliser the simple way, as an oracle for the fast one: every bracket in the text is
// read, every character after it is looked up in the Unicode data on the spot (`\s`, `\p{M}`,
// NFKD), and the names are compared side by side. No tables, no trie, no candidate regex. Tests
// check that neutralizeTags returns exactly what this returns.
import { bmpTable, HIGH, isRemovedAstral, KEEP } from '../../src/char-table.js';

const DEFAULT_NAMES = ['mcp_result', 'mcp_resource', 'mcp_prompt', 'web_result', 'garuda_note'];
// Written out again on purpose: a bracket added to one list and not the other fails the tests.
const BRACKETS = new Set([
  0x3c, 0xff1c, 0xfe64, 0x2329, 0x3008, 0x27e8, 0x02c2, 0x276e, 0x1438, 0x276c, 0x2770, 0x29fc,
  0x27ea, 0x300a, 0x00ab,
]);
const SLASHES = new Set([0x2f, 0xff0f, 0x2215, 0x2044, 0x29f8, 0x2571, 0x27cb]);
const SEPARATORS = new Set([0x5f, 0x2d, 0x2e, 0x3a]);

/** How many code units at `i` are skipped inside a tag: whitespace, invisible, control or combining. */
function ignorableLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return c <= 0x20 || c === 0x7f ? 1 : 0;
  const kind = bmpTable()[c] as number;
  if (kind === HIGH) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      return isRemovedAstral(cp) || /\p{M}/u.test(String.fromCodePoint(cp)) ? 2 : 0;
    }
    return 1;
  }
  if (kind !== KEEP) return 1;
  return /[\s\p{M}]/u.test(String.fromCharCode(c)) ? 1 : 0;
}

function fold(cp: number): string | null {
  const folded = String.fromCodePoint(cp)
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\p{M}_:.\-\s]/gu, '');
  return /^[a-z0-9]*$/.test(folded) ? folded : null;
}

function followsListedTag(s: string, start: number, names: readonly string[]): boolean {
  let alive = names.map(() => true);
  let pos = 0;
  let slashAllowed = true;
  let i = start;
  let pending = '';
  while (i < s.length || pending !== '') {
    let code: number;
    if (pending !== '') {
      code = pending.charCodeAt(0);
      pending = pending.slice(1);
    } else {
      const skip = ignorableLength(s, i);
      if (skip > 0) {
        i += skip;
        continue;
      }
      const cp = s.codePointAt(i) as number;
      i += cp > 0xffff ? 2 : 1;
      if (slashAllowed && pos === 0 && SLASHES.has(cp)) {
        slashAllowed = false;
        continue;
      }
      if (SEPARATORS.has(cp)) continue;
      const folded = cp < 0x80 ? String.fromCharCode(cp).toLowerCase() : fold(cp);
      if (folded === null || !/^[a-z0-9]*$/.test(folded)) return false;
      if (folded === '') continue;
      code = folded.charCodeAt(0);
      pending = folded.slice(1);
    }
    alive = alive.map((ok, k) => ok && names[k]?.charCodeAt(pos) === code);
    if (alive.some((ok, k) => ok && names[k]?.length === pos + 1)) return true;
    if (!alive.includes(true)) return false;
    pos++;
  }
  return false;
}

/** neutralizeTags, every bracket read and every character looked up on the spot. */
export function referenceNeutralizeTags(
  text: string,
  tags: readonly string[] = DEFAULT_NAMES,
): string {
  const names = [...new Set(tags.map((t) => t.toLowerCase().replace(/[_:.-]/g, '')))];
  if (names.length === 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += BRACKETS.has(c) && followsListedTag(text, i + 1, names) ? '\u2039' : text[i];
  }
  return out;
}
