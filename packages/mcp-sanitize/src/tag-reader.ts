// The tag reader of neutralizeTags (and of the fused pass of cleanAndNeutralize): after a
// bracket, whether a listed name follows, walking the names as a trie over folded characters.
import { bmpTable, C1_INTRO } from './char-table.js';
import type { CompiledTags } from './neutralize-tags.js';
import {
  ASCII_KINDS,
  astralKind,
  bmpKind,
  LETTERS,
  letterIndex,
  MULTI,
  multiFold,
  SKIP,
  SLASH,
  slashFallbackKind,
  SURROGATE,
} from './tag-chars.js';

/** What the reader found after a bracket. */
export const NOT_A_TAG = 0;
/** A listed name follows: the bracket is neutralised. */
export const LISTED_TAG = 1;
/** Raw text only: an escape sequence came first, so only the cleaned text can tell. */
export const UNSURE = 2;

/**
 * Reads the tag name that may follow a bracket at `start` and reports whether it begins with a
 * listed name. The names are walked as a trie, one folded character at a time, and the scan stops
 * at the first character no listed name can continue with. Only characters that can sit inside a
 * tag are read (a bracket is never one), so the scans of two brackets never overlap and the whole
 * pass stays linear.
 *
 * With `raw`, `s` is text not yet cleaned (the fused pass of cleanAndNeutralize): every character
 * the cleaner removes or turns into a newline is one the reader skips, so the answer is the same
 * as in the cleaned text, except after an ESC or an 8-bit introducer, whose sequence the cleaner
 * removes whole: there the reader stops and answers {@link UNSURE}.
 * @internal
 */
export function readTag(s: string, start: number, list: CompiledTags, raw: boolean): number {
  const { next, complete } = list;
  const n = s.length;
  let state = 0;
  let slashAllowed = true;
  let i = start;
  while (i < n) {
    const c = s.charCodeAt(i++);
    if (raw && (c === 0x1b || (c >= 0x90 && c <= 0x9f && bmpTable()[c] === C1_INTRO))) {
      return UNSURE;
    }
    let kind = c < 0x80 ? (ASCII_KINDS[c] as number) : bmpKind(c);
    if (kind === SURROGATE) {
      const d = s.charCodeAt(i);
      // A lone high surrogate (also one at the very end, where `d` is NaN) is invisible: skipped
      // like the other removed characters.
      if (!(d >= 0xdc00 && d <= 0xdfff)) continue;
      i++;
      kind = astralKind(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
    } else if (kind === SLASH) {
      if (slashAllowed && state === 0) {
        slashAllowed = false;
        continue;
      }
      kind = slashFallbackKind(c);
    }
    if (kind < LETTERS) {
      state = next[state * LETTERS + kind] as number;
      if (state < 0) return NOT_A_TAG;
      if (complete[state] === 1) return LISTED_TAG;
    } else if (kind === SKIP) {
      continue;
    } else if (kind === MULTI) {
      // A ligature or a compatibility form of several letters (`ﬁ`, `㎒`): each letter in turn.
      const folded = multiFold(c >= 0xd800 && c <= 0xdbff ? (s.codePointAt(i - 2) as number) : c);
      for (let k = 0; k < folded.length; k++) {
        state = next[state * LETTERS + letterIndex(folded.charCodeAt(k))] as number;
        if (state < 0) return NOT_A_TAG;
        if (complete[state] === 1) return LISTED_TAG;
      }
    } else {
      return NOT_A_TAG;
    }
  }
  return NOT_A_TAG;
}
