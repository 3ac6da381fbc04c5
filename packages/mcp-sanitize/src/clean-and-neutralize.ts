// cleanText and neutralizeTags in one pass over the text, for the product's hot path (every tool
// result, resource and prompt a model reads).
//
// Run one after the other, the two passes each scan the whole text, and the second first
// flattens the rope of slices the first built. Here one sticky regex skips the ordinary text
// once: its runs exclude both the characters the cleaner removes and the brackets, and a bracket
// the reader would reject is passed over inside the regex too. What stops it is handled as each
// pass would: a removable character or an escape as in cleanText, a bracket by the tag reader,
// run on the raw text. That is exact because every character the cleaner removes or turns into a
// newline is one the reader skips; the one exception, an escape sequence (removed whole, so it may
// join a bracket to a name), makes the reader answer "unsure", and those few brackets are read
// again in the cleaned result. The tests compare the result with the two functions run in turn.
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

let fusedTable: Uint8Array | undefined;
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
  const t = table();
  const run = runPattern(list, Array.isArray(tags));
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
