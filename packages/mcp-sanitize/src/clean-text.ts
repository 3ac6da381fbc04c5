import {
  bmpTable,
  C1_INTRO,
  CR,
  ESC,
  HIGH,
  isRemovedAstral,
  keptRunPattern,
  KEEP,
  NEWLINE,
} from './char-table.js';
import { invalidInput } from './errors.js';

const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const ESC_CODE = 0x1b;
const BACKSLASH = 0x5c;
const ST_8BIT = 0x9c;

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

// Escape sequences are parsed by hand (ECMA-48 shapes) rather than with an ANSI regex: the
// cleaner has to decide what an unterminated or broken sequence swallows, and doing it in the
// same single pass as the character filtering keeps the whole clean linear and fast.

/** CSI body from `j` (just after `ESC [` or 0x9B): parameters, intermediates, one final byte. */
function skipCsi(s: string, j: number): number {
  const n = s.length;
  let c = 0;
  while (j < n && (c = s.charCodeAt(j)) >= 0x30 && c <= 0x3f) j++;
  while (j < n && (c = s.charCodeAt(j)) >= 0x20 && c <= 0x2f) j++;
  if (j < n && c >= 0x40 && c <= 0x7e) return j + 1;
  // Broken or cut off: drop what was read; the offending character is read again as text.
  return j;
}

/**
 * A control string (OSC, DCS, SOS, PM, APC) from `j`: runs to BEL or ST (`ESC \` or 0x9C).
 * CAN and SUB cancel it; an ESC that does not start ST ends it and starts a new sequence, as in
 * a terminal. An unterminated string runs to the end of the input, which a terminal would also
 * hide.
 */
function skipControlString(s: string, j: number): number {
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c === BEL || c === ST_8BIT) return j + 1;
    if (c === CAN || c === SUB) return j + 1;
    if (c === ESC_CODE) return s.charCodeAt(j + 1) === BACKSLASH ? j + 2 : j;
    j++;
  }
  return n;
}

/** OSC from `j`, with the Linux console's unterminated palette forms (`ESC ] P nrrggbb`, `ESC ] R`). */
function skipOsc(s: string, j: number): number {
  const c = s.charCodeAt(j);
  if (c === 0x52 /* R */) return j + 1;
  if (c === 0x50 /* P */) {
    let k = j + 1;
    while (k < j + 8 && k < s.length && isHex(s.charCodeAt(k))) k++;
    if (k === j + 8) return k;
  }
  return skipControlString(s, j);
}

/** A 7-bit sequence starting with ESC at `i`; returns the index after it. @internal */
export function skipEscape(s: string, i: number): number {
  const n = s.length;
  let j = i + 1;
  if (j >= n) return j;
  const c = s.charCodeAt(j);
  switch (c) {
    case 0x5b: // [
      return skipCsi(s, j + 1);
    case 0x5d: // ]
      return skipOsc(s, j + 1);
    case 0x50: // P  DCS
    case 0x58: // X  SOS
    case 0x5e: // ^  PM
    case 0x5f: // _  APC
      return skipControlString(s, j + 1);
  }
  if (c >= 0x20 && c <= 0x2f) {
    // nF: intermediates, then one final byte (e.g. `ESC ( B`, `ESC # 8`).
    let d = c;
    while (j < n && (d = s.charCodeAt(j)) >= 0x20 && d <= 0x2f) j++;
    return j < n && d >= 0x30 && d <= 0x7e ? j + 1 : j;
  }
  // Two-character forms (`ESC 7`, `ESC c`, `ESC M`, …); anything else drops the ESC alone.
  return c >= 0x30 && c <= 0x7e ? j + 1 : j;
}

/** An 8-bit C1 introducer at `i`; returns the index after the whole sequence. @internal */
export function skipC1(s: string, i: number): number {
  switch (s.charCodeAt(i)) {
    case 0x9b:
      return skipCsi(s, i + 1);
    case 0x9d:
      return skipOsc(s, i + 1);
    default: // DCS 0x90, SOS 0x98, PM 0x9E, APC 0x9F
      return skipControlString(s, i + 1);
  }
}

/** Text that {@link cleanText} keeps whole: printable ASCII, tab and newline. */
const PLAIN_ASCII = /^[\t\n\x20-\x7e]*$/;
/** The longest text checked against {@link PLAIN_ASCII} before the loop. */
const PLAIN_CHECK_MAX = 1024;

/**
 * Cleans untrusted text for a model or a terminal.
 *
 * In one linear pass: line breaks become `\n` (CRLF, CR, U+2028, U+2029, NEL); ANSI/VT escape
 * sequences are removed whole (CSI, OSC ending in BEL or ST, DCS/SOS/PM/APC, nF and two-character
 * escapes, and their 8-bit C1 forms), so no `[31m` debris is left; then C0 controls except tab and
 * newline, DEL, C1 controls, every `\p{Cf}` character (bidi controls, zero-width characters, BOM,
 * soft hyphen, Unicode tag characters), variation selectors, lone surrogates and invisible fillers
 * are dropped. Text of every script and emoji stays (emoji lose their variation selectors and
 * zero-width joiners, so a joined sequence shows as its parts).
 *
 * The result contains none of the characters it removes, so `cleanText(cleanText(s)) ===
 * cleanText(s)`.
 *
 * @param text - untrusted text, of any size
 * @returns the cleaned text
 * @throws {@link SanitizeError} `SANITIZE_INVALID_INPUT` when `text` is not a string
 * @example
 * ```ts
 * cleanText('\x1b[31mred\x1b[0m and \u202Egnp.exe'); // 'red and gnp.exe'
 * ```
 */
export function cleanText(text: string): string {
  if (typeof text !== 'string') throw invalidInput('cleanText', text);
  // A short text of printable ASCII, tabs and newlines only keeps every code unit (the loop
  // below would return it as it is): it is answered without the tables, which are built from
  // the engine's Unicode data on first use, so a command that only shows names and paths never
  // builds them. Longer text goes through the loop, which skips such runs as fast.
  if (text.length <= PLAIN_CHECK_MAX && PLAIN_ASCII.test(text)) return text;
  const t = bmpTable();
  const keptRun = keptRunPattern();
  const n = text.length;
  // The result is built by concatenation, a rope of slices that V8 flattens when it is first
  // read. Measured on Node 20, that is the cheapest way V8 has to build it: joining an array of
  // the slices, or copying code units into a buffer and decoding it, cost more, both for few
  // long pieces (tool output) and for many short ones (hostile input).
  let out = '';
  let start = 0;
  let i = 0;
  // Ordinary characters seen in a row. A few after an escape are cheaper to step through here;
  // then the run is handed to the regex engine, which skips it several times faster.
  let plain = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const kind = c >= 0x20 && c < 0x7f ? KEEP : (t[c] as number);
    if (kind === KEEP) {
      if (++plain < 4) {
        i++;
        continue;
      }
      // The regex stops at the next code unit that needs attention, or earlier (see its doc):
      // either way the loop goes on from there and looks at that code unit itself.
      keptRun.lastIndex = i + 1;
      keptRun.test(text);
      i = keptRun.lastIndex;
      plain = 0;
      continue;
    }
    plain = 0;
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
      // A lone high surrogate: dropped below like any other removed unit.
    }
    if (i > start) out += text.slice(start, i);
    switch (kind) {
      case NEWLINE:
        out += '\n';
        i++;
        break;
      case CR:
        // CRLF: the LF stays and starts the next run, so no piece of its own is added.
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
  if (start === 0) return text;
  if (start < n) out += text.slice(start);
  return out;
}

/**
 * Text the whitespace pass of {@link cleanLine} returns as it is: printable ASCII whose only
 * whitespace is single spaces between other characters (every run of `\s` is then one space
 * already, and there is none at either end to trim). Most lines are such (names, hashes, short
 * reasons); testing for it costs less than the replace, which makes a new string. The words
 * cannot overlap (a space is not in `[!-~]`), so the test is linear.
 */
const ONE_LINE = /^[!-~]+(?: [!-~]+)*$/;

/**
 * Cleans text that must stay on one line (a consent screen, a status table): {@link cleanText},
 * then every run of whitespace — newlines, tabs, Unicode spaces — becomes one space, and the ends
 * are trimmed. A newline or escape in the value can therefore never add a line of its own (such
 * as a fake "Network: no").
 *
 * @param text - untrusted text
 * @returns one line of cleaned text
 * @throws {@link SanitizeError} `SANITIZE_INVALID_INPUT` when `text` is not a string
 * @example
 * ```ts
 * cleanLine('my-server\n  Network: no'); // 'my-server Network: no'
 * ```
 */
export function cleanLine(text: string): string {
  if (typeof text !== 'string') throw invalidInput('cleanLine', text);
  const clean = cleanText(text);
  return ONE_LINE.test(clean) ? clean : clean.replace(/\s+/gu, ' ').trim();
}

