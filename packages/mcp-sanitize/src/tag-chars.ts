// How the tag reader of neutralizeTags sees each character, as one small number per code unit.
//
// Deciding whether a character can sit inside a tag name takes Unicode lookups (`\s`, `\p{M}`,
// NFKD folding, lower case) that cost a regex or a `normalize` call each. Hostile text repeats a
// few lookalikes thousands of times, so the answers go into a table: filled 256 code units at a
// time, the first time a character of that block is met, so a process that never reads fullwidth
// letters never pays for them. The answers come from the engine's own Unicode data, so they
// follow Node's Unicode version, like the cleaner's table.

import { bmpTable, HIGH, isRemovedAstral, KEEP } from './char-table.js';

/** Kinds below this are a folded letter or digit: 0–9 for `0`–`9`, 10–35 for `a`–`z`. */
export const LETTERS = 36;
/** Skipped inside a tag: whitespace, separators, controls, invisible and combining characters. */
export const SKIP = 36;
/** `/` or a lookalike: skipped once, right after the bracket; elsewhere read as its fold. */
export const SLASH = 37;
/** Cannot be part of a tag name: the reader stops. */
export const OTHER = 38;
/** Folds to several letters or digits (a ligature such as `ﬁ`): see {@link multiFold}. */
export const MULTI = 39;
/** A high surrogate: the kind depends on the code point it starts. */
export const SURROGATE = 40;

/** Separators inside a tag name: "mcp_result", "mcp-result", "mcp.result" and "mcp:result" are one tag. */
const SEPARATORS: readonly number[] = [0x5f, 0x2d, 0x2e, 0x3a];
/** Characters a model may read as "/" (the "<" lookalikes are listed in neutralize-tags.ts). */
const SLASHES: readonly number[] = [0x2f, 0xff0f, 0x2215, 0x2044, 0x29f8, 0x2571, 0x27cb];

/** The index of a folded letter or digit (`0`–`9`, `a`–`z`), or -1. */
export function letterIndex(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61 + 10;
  return -1;
}

/** ASCII, decided once at load: the common case never reaches the lazy table. */
export const ASCII_KINDS = new Uint8Array(0x80).fill(OTHER);
for (let c = 0; c <= 0x20; c++) ASCII_KINDS[c] = SKIP;
ASCII_KINDS[0x7f] = SKIP;
for (const c of SEPARATORS) ASCII_KINDS[c] = SKIP;
ASCII_KINDS[0x2f] = SLASH;
for (let c = 0x30; c <= 0x39; c++) ASCII_KINDS[c] = letterIndex(c);
for (let c = 0x61; c <= 0x7a; c++) ASCII_KINDS[c] = letterIndex(c);
for (let c = 0x41; c <= 0x5a; c++) ASCII_KINDS[c] = letterIndex(c + 32);

const bmpKinds = new Uint8Array(0x10000);
/** Bit k of word b: block 32b + k (256 code units) is filled in. */
const blocksDone = new Uint32Array(8);
/**
 * Astral code points looked up so far. A map per code point, not blocks: astral text is rare,
 * and filling a block per character met would let text with one character from each of the
 * 4,352 astral blocks cost a million lookups. Cleared when full, so it stays small.
 */
const astralKinds = new Map<number, number>();
const MAX_ASTRAL_KINDS = 4096;
const multiFolds = new Map<number, string>();
const slashFallbacks = new Map<number, number>();

const SPACE_OR_MARK = /^[\s\p{M}]$/u;
const FOLD_DROPS = /[\p{M}_:.\-\s]/gu;
const FOLDED = /^[a-z0-9]*$/;

/** The NFKD, lower-case, mark- and separator-free form of a code point, or `null` if not [a-z0-9]*. */
export function foldCodePoint(cp: number): string | null {
  const folded = String.fromCodePoint(cp).normalize('NFKD').toLowerCase().replace(FOLD_DROPS, '');
  return FOLDED.test(folded) ? folded : null;
}

/** The kind of a folded form: a letter index, SKIP for nothing, MULTI, or OTHER. */
function foldKind(cp: number): number {
  const folded = foldCodePoint(cp);
  if (folded === null) return OTHER;
  if (folded === '') return SKIP;
  if (folded.length === 1) return letterIndex(folded.charCodeAt(0));
  multiFolds.set(cp, folded);
  return MULTI;
}

/** The kind of one non-ASCII BMP code unit, from the Unicode data (the slow way). */
function computeKind(c: number, table: Uint8Array): number {
  const kind = table[c] as number;
  if (kind === HIGH) return SURROGATE;
  // Controls, line separators, invisible characters and lone low surrogates: skipped.
  if (kind !== KEEP) return SKIP;
  if (SPACE_OR_MARK.test(String.fromCharCode(c))) return SKIP;
  if (SLASHES.includes(c)) return SLASH;
  return foldKind(c);
}

function fillBlock(block: number): void {
  const table = bmpTable();
  const from = block << 8;
  for (let c = Math.max(from, 0x80); c < from + 0x100; c++) bmpKinds[c] = computeKind(c, table);
  blocksDone[block >> 5] = (blocksDone[block >> 5] as number) | (1 << (block & 31));
}

/**
 * The kind of a non-ASCII BMP code unit: a letter index (below {@link LETTERS}), {@link SKIP},
 * {@link SLASH}, {@link OTHER}, {@link MULTI} or {@link SURROGATE}.
 */
export function bmpKind(c: number): number {
  const block = c >> 8;
  if (((blocksDone[block >> 5] as number) & (1 << (block & 31))) === 0) fillBlock(block);
  return bmpKinds[c] as number;
}

/** The kind of an astral code point: a letter index, {@link SKIP}, {@link OTHER} or {@link MULTI}. */
export function astralKind(cp: number): number {
  let kind = astralKinds.get(cp);
  if (kind === undefined) {
    kind =
      isRemovedAstral(cp) || SPACE_OR_MARK.test(String.fromCodePoint(cp)) ? SKIP : foldKind(cp);
    if (astralKinds.size >= MAX_ASTRAL_KINDS) astralKinds.clear();
    astralKinds.set(cp, kind);
  }
  return kind;
}

/** What a slash lookalike reads as where a slash is not allowed: its fold (`/` itself stops). */
export function slashFallbackKind(cp: number): number {
  if (cp < 0x80) return OTHER;
  let kind = slashFallbacks.get(cp);
  if (kind === undefined) {
    kind = foldKind(cp);
    slashFallbacks.set(cp, kind);
  }
  return kind;
}

/** The letters and digits a {@link MULTI} code point folds to. */
export function multiFold(cp: number): string {
  return multiFolds.get(cp) ?? (foldCodePoint(cp) as string);
}
