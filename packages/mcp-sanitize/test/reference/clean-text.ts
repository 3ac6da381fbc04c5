// The cleaner the simple way, as an oracle for the fast one: the same escape grammar and the same
// character table, but every code unit stepped through in order, with no regex skip-ahead, and
// the result built piece by piece. Tests check that cleanText returns exactly what this returns.
import {
  bmpTable,
  C1_INTRO,
  CR,
  ESC,
  HIGH,
  isRemovedAstral,
  KEEP,
  NEWLINE,
} from '../../src/char-table.js';

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

/** A 7-bit sequence starting with ESC at `i`; returns the index after it. */
function skipEscape(s: string, i: number): number {
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

/** An 8-bit C1 introducer at `i`; returns the index after the whole sequence. */
function skipC1(s: string, i: number): number {
  switch (s.charCodeAt(i)) {
    case 0x9b:
      return skipCsi(s, i + 1);
    case 0x9d:
      return skipOsc(s, i + 1);
    default: // DCS 0x90, SOS 0x98, PM 0x9E, APC 0x9F
      return skipControlString(s, i + 1);
  }
}

/** cleanText, one code unit at a time. */
export function referenceCleanText(text: string): string {
  const t = bmpTable();
  const n = text.length;
  let out = '';
  let start = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const kind = t[c] as number;
    if (kind === KEEP) {
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
      // A lone high surrogate: dropped below like any other removed unit.
    }
    if (i > start) out += text.slice(start, i);
    switch (kind) {
      case NEWLINE:
        out += '\n';
        i++;
        break;
      case CR:
        out += '\n';
        i += text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
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
