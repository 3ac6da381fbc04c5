// Per-code-unit classification shared by cleanText and neutralizeTags.
//
// A lookup table instead of one big regex: the cleaner must also understand escape sequences
// (which a character class cannot) and stay linear on hostile input; a regex built from the
// table skips the ordinary text between. The table is built once, on first use, from the
// engine's own Unicode data (`\p{Cf}`), so it follows Node's Unicode version.

/** Keep the code unit as it is. */
export const KEEP = 0;
/** Drop the code unit (controls, `\p{Cf}`, variation selectors, invisible fillers, lone low surrogates). */
export const REMOVE = 1;
/** A line separator that becomes `\n` (U+2028, U+2029, NEL U+0085). */
export const NEWLINE = 2;
/** A high surrogate: look at the next code unit. */
export const HIGH = 3;
/** CR: `\r\n` and `\r` become `\n`. */
export const CR = 4;
/** ESC: the start of a 7-bit escape sequence. */
export const ESC = 5;
/** An 8-bit C1 introducer of a sequence (CSI, OSC, DCS, SOS, PM, APC). */
export const C1_INTRO = 6;

/** Invisible characters that are not `\p{Cf}` but render as nothing (fillers, CGJ, Khmer and Mongolian). */
const INVISIBLE_FILLERS: readonly (number | readonly [number, number])[] = [
  0x034f,
  0x115f,
  0x1160,
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  0x2800,
  0x3164,
  0xffa0,
];

/** The most ranges in one class of {@link keptRunPattern}. */
const RANGES_PER_CLASS = 16;
/** The most runs {@link keptRunPattern} matches at once. */
export const RUNS_PER_MATCH = 256;

let bmp: Uint8Array | undefined;
let keptRun: RegExp | undefined;
let plane1Cf: Uint8Array | undefined;

function markCf(table: Uint8Array, base: number, from: number, to: number): void {
  // One string holding every code point of the range, scanned once with the engine's \p{Cf}.
  const parts: string[] = [];
  for (let cp = from; cp <= to; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    parts.push(String.fromCodePoint(cp));
  }
  for (const m of parts.join('').matchAll(/\p{Cf}/gu)) {
    table[(m[0].codePointAt(0) as number) - base] = REMOVE;
  }
}

/** The BMP table, built on first use. */
export function bmpTable(): Uint8Array {
  if (bmp) return bmp;
  const t = new Uint8Array(0x10000);
  for (let c = 0; c < 0x20; c++) t[c] = REMOVE;
  t[0x09] = KEEP;
  t[0x0a] = KEEP;
  t[0x0d] = CR;
  t[0x1b] = ESC;
  t[0x7f] = REMOVE;
  for (let c = 0x80; c <= 0x9f; c++) t[c] = REMOVE;
  t[0x85] = NEWLINE;
  for (const c of [0x90, 0x98, 0x9b, 0x9d, 0x9e, 0x9f]) t[c] = C1_INTRO;
  markCf(t, 0, 0xa0, 0xffff);
  for (let c = 0xfe00; c <= 0xfe0f; c++) t[c] = REMOVE;
  for (const f of INVISIBLE_FILLERS) {
    const [a, b] = typeof f === 'number' ? [f, f] : f;
    for (let c = a; c <= b; c++) t[c] = REMOVE;
  }
  t[0x2028] = NEWLINE;
  t[0x2029] = NEWLINE;
  for (let c = 0xd800; c <= 0xdbff; c++) t[c] = HIGH;
  // A low surrogate reached on its own is lone: a valid pair is consumed from its high half.
  for (let c = 0xdc00; c <= 0xdfff; c++) t[c] = REMOVE;
  bmp = t;
  return t;
}

/** Whether an astral code point is one the cleaner drops. */
export function isRemovedAstral(cp: number): boolean {
  // Plane 14 holds only tag characters (ASCII smuggling), the variation selector supplement and
  // unassigned code points: all invisible, all dropped.
  if (cp >= 0xe0000 && cp <= 0xeffff) return true;
  if (cp < 0x20000) {
    if (!plane1Cf) {
      plane1Cf = new Uint8Array(0x10000);
      markCf(plane1Cf, 0x10000, 0x10000, 0x1ffff);
    }
    return plane1Cf[cp - 0x10000] === REMOVE;
  }
  return false;
}

/**
 * A sticky regex that matches a run of code units the table marks KEEP, built from the table
 * itself so the two can never disagree; the cleaner uses it to skip ordinary text at the regex
 * engine's speed. Set `lastIndex`, call `test` (it always matches, perhaps nothing), and
 * `lastIndex` is where the run ends: at a code unit that needs attention (surrogates included),
 * at the end of the text, or, after {@link RUNS_PER_MATCH} runs, wherever the last one ended.
 *
 * Why this shape (measured on Node 20): a greedy loop over a tiny ASCII class is the fastest scan
 * V8 has for mostly-ASCII text, about 1.6 times as fast as searching for the next character of the
 * removal set; a class of more than 16 ranges is about eight times slower, so the other runs are
 * split into classes of at most 16 ranges; and the repetition is bounded because irregexp keeps a
 * backtracking entry per iteration, so unbounded, text alternating ASCII and non-ASCII one
 * character at a time would overflow its stack. The classes are disjoint and every iteration
 * takes at least one code unit, so there is nothing to backtrack into: linear time.
 */
export function keptRunPattern(): RegExp {
  if (keptRun) return keptRun;
  keptRun = new RegExp(`(?:${keptRunClasses([]).join('|')}){0,${RUNS_PER_MATCH}}`, 'y');
  return keptRun;
}

/**
 * The classes of {@link keptRunPattern}, each with its `+`: the ASCII code units the table marks
 * KEEP first, then the others in classes of at most 16 ranges, leaving out `excluded` (the fused
 * pass of cleanAndNeutralize leaves out the brackets, so it stops at them).
 */
export function keptRunClasses(excluded: readonly number[]): string[] {
  const t = bmpTable();
  const hex = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
  const kept = (c: number) => t[c] === KEEP && !excluded.includes(c);
  const ascii: string[] = [];
  const other: string[] = [];
  for (let c = 0; c < 0x10000; c++) {
    if (!kept(c)) continue;
    let end = c;
    // ASCII and the rest in separate ranges, so the common case has a class of its own.
    while (end + 1 < 0x10000 && kept(end + 1) && end + 1 !== 0x80) end++;
    (c < 0x80 ? ascii : other).push(end === c ? hex(c) : `${hex(c)}-${hex(end)}`);
    c = end;
  }
  const classes = [`[${ascii.join('')}]+`];
  for (let k = 0; k < other.length; k += RANGES_PER_CLASS) {
    classes.push(`[${other.slice(k, k + RANGES_PER_CLASS).join('')}]+`);
  }
  return classes;
}
