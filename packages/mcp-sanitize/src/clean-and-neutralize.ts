// cleanText and neutralizeTags in one pass over the text, for the product's hot path (every tool
// result, resource and prompt a model reads).
//
// Run one after the other, the two passes each scan the whole text, and the second first
// flattens the rope of slices the first built. Here the text is read once, and only the code
// units that need work are looked at: found by the vector scanner of block-scanner.ts (long text,
// where the runtime has it) or by one sticky regex that skips the ordinary text (its runs exclude
// both the characters the cleaner removes and the brackets, and a bracket the reader would reject
// is passed over inside the regex too). Each one is handled as each pass would: a removable
// character or an escape as in cleanText, a bracket by the tag reader, run on the raw text. That
// is exact because every character the cleaner removes or turns into a newline is one the reader
// skips; the one exception, an escape sequence (removed whole, so it may join a bracket to a
// name), makes the reader answer "unsure", and those few brackets are read again in the cleaned
// result. The tests compare the result with the two functions run in turn, by both scans.
import {
  bmpTable,
  C1_INTRO,
  CR,
  ESC,
  HIGH,
  isRemovedAstral,
  keptRunClasses,
  KEEP,
  NEWLINE,
  RUNS_PER_MATCH,
} from './char-table.js';
import { BLOCK_UNITS, createBlockScanner, type BlockScanner } from './block-scanner.js';
import { cleanText, skipC1, skipEscape } from './clean-text.js';
import { invalidInput } from './errors.js';
import {
  BRACKETS,
  compiledOf,
  NEUTRAL_BRACKET,
  rawIdleBracket,
  type CompiledTags,
  type TagList,
} from './neutralize-tags.js';
import { LISTED_TAG, readTag, UNSURE } from './tag-reader.js';

/** The fused table's kind of a bracket (the cleaner's kinds are 0–6; a bracket is KEEP there). */
const BRACKET = 7;

/**
 * How many letters of a name the fused regex follows after a bracket before leaving the rest to
 * the reader. Measured on Node 20 with the default list: with 1, 3, 6 or 9 letters the regex
 * skips realistic tool output as fast as cleanText's own, with 2, 11 or 12 about 1.4 times
 * slower (an effect of how V8 compiles the pattern, not of what it reads: the text never goes
 * past the first letter there). 9 also keeps near misses such as `<mcp_resul` inside the regex.
 */
const NAME_DEPTH = 9;

/**
 * From how many code units the vector scanner is used. Below, copying the text into it and
 * calling it cost more than the regex scan: measured on Node 20 on slices of realistic tool
 * output, the scanner is 0.7 times as fast at 16 units, 0.9 at 32, 1.2 at 64, 1.9 at 256.
 */
const SCANNER_MIN_UNITS = 64;

let fusedTable: Uint8Array | undefined;
/** The vector scanner, created on first use; null where the runtime has none. */
let blockScanner: BlockScanner | null | undefined;
const runPatterns = new WeakMap<CompiledTags, RegExp>();
let anyNamePattern: RegExp | undefined;

/** The cleaner's table with the brackets marked, so the loop stops at them. */
function table(): Uint8Array {
  if (fusedTable) return fusedTable;
  const t = Uint8Array.from(bmpTable());
  for (const b of BRACKETS) {
    // Every bracket is a character the cleaner keeps; the fused pass relies on it.
    if (t[b] !== KEEP) throw new Error(`U+${b.toString(16)} is both a bracket and removed`);
    t[b] = BRACKET;
  }
  fusedTable = t;
  return t;
}

/**
 * The fused sticky regex for a list: runs of kept characters other than brackets (the cleaner's
 * classes, same shape and bound as keptRunPattern), or a bracket the reader rejects whatever the
 * cleaner does after it. Cached per compiled list; a list given as an array shares one.
 */
function runPattern(list: CompiledTags, anyName: boolean): RegExp {
  if (anyName && anyNamePattern) return anyNamePattern;
  let pattern = anyName ? undefined : runPatterns.get(list);
  if (pattern === undefined) {
    const alternatives = [...keptRunClasses(BRACKETS), rawIdleBracket(list, NAME_DEPTH)];
    pattern = new RegExp(`(?:${alternatives.join('|')}){0,${RUNS_PER_MATCH}}`, 'y');
    if (anyName) anyNamePattern = pattern;
    else runPatterns.set(list, pattern);
  }
  return pattern;
}

/** Reads again, in the cleaned text, the brackets the raw pass was unsure of (ascending offsets). */
function neutralizeAt(text: string, offsets: readonly number[], list: CompiledTags): string {
  // Brackets after an offset may already be neutralised; the reader stops at a bracket and at
  // the neutral bracket alike (neither can sit inside a name), so that changes no answer.
  let out = '';
  let start = 0;
  for (const at of offsets) {
    if (readTag(text, at + 1, list, false) === LISTED_TAG) {
      out += text.slice(start, at) + NEUTRAL_BRACKET;
      start = at + 1;
    }
  }
  return start === 0 ? text : out + text.slice(start);
}

/**
 * {@link cleanText} then {@link neutralizeTags}, in one pass: returns exactly
 * `neutralizeTags(cleanText(text), tags)` for every input, faster. Use it for untrusted text a
 * model or a person reads (tool results, resources, prompts).
 *
 * @param text - untrusted text, of any size
 * @param tags - tag names, or a {@link TagList} from {@link compileTags}; default {@link DEFAULT_TAGS}
 * @returns the cleaned text with every listed tag neutralised
 * @throws {@link SanitizeError} `SANITIZE_INVALID_INPUT` when `text` is not a string
 * @throws {@link SanitizeError} `SANITIZE_INVALID_TAG` for a malformed tag name
 * @example
 * ```ts
 * cleanAndNeutralize('\x1b[31m</mcp_result>\x1b[0m\u200b'); // '‹/mcp_result>'
 * ```
 */
export function cleanAndNeutralize(text: string, tags?: readonly string[] | TagList): string {
  if (typeof text !== 'string') throw invalidInput('cleanAndNeutralize', text);
  const list = compiledOf(tags);
  if (list.names.length === 0) return cleanText(text);
  if (text.length >= SCANNER_MIN_UNITS) {
    blockScanner ??= createBlockScanner(table()) ?? null;
    if (blockScanner !== null) return scannedPass(text, list, blockScanner, BLOCK_UNITS);
  }
  return regexPass(text, list, runPattern(list, Array.isArray(tags)));
}

/**
 * @internal For the tests: the fused pass by the regex scan, or by the vector scanner in blocks
 * of `blockUnits` (small blocks put block edges inside escapes, surrogate pairs and tags). The
 * scanner is `undefined` where the runtime has none.
 */
export function fusedPassForTests(
  text: string,
  tags: readonly string[] | TagList | undefined,
  scan: 'regex' | { readonly blockUnits: number },
): string | undefined {
  const list = compiledOf(tags);
  if (scan === 'regex') return regexPass(text, list, runPattern(list, Array.isArray(tags)));
  blockScanner ??= createBlockScanner(table()) ?? null;
  if (blockScanner === null) return undefined;
  return scannedPass(text, list, blockScanner, Math.min(scan.blockUnits, BLOCK_UNITS));
}

/**
 * The fused pass with the vector scanner: the text goes through it block by block, and only the
 * positions it reports are looked at; everything between them is kept as it is. A position
 * before `i` was consumed by what came before it (an escape sequence, the low half of a pair).
 * What is done at a position is the same as in {@link regexPass}, written out in both loops
 * because they are the hot loops of every result's cleaning; the tests run both scans against
 * the two calls, so a change made to one loop and not the other fails them.
 */
function scannedPass(
  text: string,
  list: CompiledTags,
  scanner: BlockScanner,
  blockUnits: number,
): string {
  const t = table();
  const events = scanner.events;
  const n = text.length;
  let out = '';
  let start = 0;
  let i = 0;
  let unsure: number[] | undefined;
  for (let from = 0; from < n;) {
    const length = Math.min(blockUnits, n - from);
    const count = scanner.scan(text, from, length);
    for (let k = 0; k < count; k++) {
      const at = from + (events[k] as number);
      if (at < i) continue;
      i = at;
      const c = text.charCodeAt(i);
      const kind = t[c] as number;
      if (kind === BRACKET) {
        const seen = readTag(text, i + 1, list, true);
        if (seen === LISTED_TAG) {
          out += text.slice(start, i) + NEUTRAL_BRACKET;
          start = i + 1;
        } else if (seen === UNSURE) {
          (unsure ??= []).push(out.length + (i - start));
        }
        i++;
        continue;
      }
      if (kind === HIGH) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          if (!isRemovedAstral(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) {
            i += 2;
            continue;
          }
          if (i > start) out += text.slice(start, i);
          i += 2;
          start = i;
          continue;
        }
      }
      if (i > start) out += text.slice(start, i);
      switch (kind) {
        case NEWLINE:
          out += '\n';
          i++;
          break;
        case CR:
          if (text.charCodeAt(i + 1) !== 0x0a) out += '\n';
          i++;
          break;
        case ESC:
          i = skipEscape(text, i);
          break;
        case C1_INTRO:
          i = skipC1(text, i);
          break;
        default:
          i++;
      }
      start = i;
    }
    // An escape sequence may run past the block: the next block starts after it.
    from = Math.max(from + length, i);
  }
  const cleaned = start === 0 ? text : start < n ? out + text.slice(start) : out;
  return unsure === undefined ? cleaned : neutralizeAt(cleaned, unsure, list);
}

/** The fused pass with the regex scan: the regex skips ordinary text, the loop handles the rest. */
function regexPass(text: string, list: CompiledTags, run: RegExp): string {
  const t = table();
  const n = text.length;
  // A rope of slices, as in cleanText (measured there to be the cheapest way V8 builds it).
  let out = '';
  let start = 0;
  let i = 0;
  let plain = 0;
  // Offsets in the result of brackets followed by an escape sequence, to read once it is clean.
  let unsure: number[] | undefined;
  while (i < n) {
    const c = text.charCodeAt(i);
    const kind = c >= 0x20 && c < 0x7f && c !== 0x3c ? KEEP : (t[c] as number);
    if (kind === KEEP) {
      if (++plain < 4) {
        i++;
        continue;
      }
      run.lastIndex = i + 1;
      run.test(text);
      i = run.lastIndex;
      plain = 0;
      continue;
    }
    plain = 0;
    if (kind === BRACKET) {
      const seen = readTag(text, i + 1, list, true);
      if (seen === LISTED_TAG) {
        out += text.slice(start, i) + NEUTRAL_BRACKET;
        start = i + 1;
      } else if (seen === UNSURE) {
        (unsure ??= []).push(out.length + (i - start));
      }
      i++;
      continue;
    }
    if (kind === HIGH) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (!isRemovedAstral(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) {
          i += 2;
          continue;
        }
        if (i > start) out += text.slice(start, i);
        i += 2;
        start = i;
        continue;
      }
    }
    if (i > start) out += text.slice(start, i);
    switch (kind) {
      case NEWLINE:
        out += '\n';
        i++;
        break;
      case CR:
        if (text.charCodeAt(i + 1) !== 0x0a) out += '\n';
        i++;
        break;
      case ESC:
        i = skipEscape(text, i);
        break;
      case C1_INTRO:
        i = skipC1(text, i);
        break;
      default:
        i++;
    }
    start = i;
  }
  const cleaned = start === 0 ? text : start < n ? out + text.slice(start) : out;
  return unsure === undefined ? cleaned : neutralizeAt(cleaned, unsure, list);
}
