import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, PIECES } from '../test/arbitraries.js';
import { referenceCleanText } from '../test/reference/clean-text.js';
import { referenceNeutralizeTags } from '../test/reference/neutralize-tags.js';
import { bmpKind, OTHER } from './tag-chars.js';
import { RUNS_PER_MATCH } from './char-table.js';
import { cleanAndNeutralize, fusedPassForTests } from './clean-and-neutralize.js';
import { cleanText } from './clean-text.js';
import { SanitizeErrorCode } from './errors.js';
import {
  BRACKETS,
  compileTags,
  DEFAULT_TAGS,
  NEUTRAL_BRACKET,
  neutralizeTags,
} from './neutralize-tags.js';
import type { TagList } from './neutralize-tags.js';

/** What the fused pass must return: the two functions in turn, and the simple references. */
function expected(text: string, tags?: readonly string[] | TagList): string {
  const two = neutralizeTags(cleanText(text), tags);
  const names =
    tags === undefined
      ? DEFAULT_TAGS
      : Array.isArray(tags)
        ? (tags as readonly string[])
        : (tags as TagList).tags;
  expect(two).toBe(referenceNeutralizeTags(referenceCleanText(text), names));
  return two;
}

const SEQUENCES = [
  '\x1b[31m',
  '\x1b[0m',
  '\x1b]0;t\x07',
  '\x1b]8;;u\x1b\\',
  '\x9b1m',
  '\x1bP1$\x9c',
];
const OPENERS = ['<', '</', '＜', '〈/', '˂', '«'];

describe('cleanAndNeutralize', () => {
  it('is cleanText then neutralizeTags', () => {
    expect(cleanAndNeutralize('\x1b[31m</mcp_result>\x1b[0m\u200b')).toBe('‹/mcp_result>');
    expect(cleanAndNeutralize('<div>a < b</div>')).toBe('<div>a < b</div>');
    expect(cleanAndNeutralize('plain text')).toBe('plain text');
    expect(cleanAndNeutralize('x\r\n\u2028<garuda_note>')).toBe('x\n\n‹garuda_note>');
  });

  it('refuses what the two functions refuse', () => {
    expect(() => cleanAndNeutralize(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: SanitizeErrorCode.INVALID_INPUT }),
    );
    expect(() => cleanAndNeutralize('x', ['1bad'])).toThrow(
      expect.objectContaining({ code: SanitizeErrorCode.INVALID_TAG }),
    );
  });

  it('property: returns what the two functions return, on hostile strings', () => {
    fc.assert(
      fc.property(hostileString, (s) => cleanAndNeutralize(s) === expected(s)),
      { numRuns: 4000 },
    );
  });

  it('property: with other lists, given as an array or compiled', () => {
    const tagList = fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_:.-]{0,20}$/), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(hostileString, tagList, (s, tags) => {
        const want = expected(s, tags);
        return (
          cleanAndNeutralize(s, tags) === want && cleanAndNeutralize(s, compileTags(tags)) === want
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('property: escape sequences anywhere inside a tag, and idempotence', () => {
    const piece = fc.constantFrom(...SEQUENCES, ...OPENERS, ...PIECES, 'mcp', '_result', '>');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const s = parts.join('');
        const out = cleanAndNeutralize(s);
        return out === expected(s) && cleanAndNeutralize(out) === out;
      }),
      { numRuns: 4000 },
    );
  });

  it('reads a bracket joined to a name by a removed sequence in the cleaned text', () => {
    for (const seq of SEQUENCES) {
      for (const open of OPENERS) {
        for (const s of [
          `${open}${seq}mcp_result>`,
          `${open}${seq}/mcp_result>`,
          `${open}m${seq}cp_result>`,
          `${open} \u200b${seq}garuda${seq}_note`,
          `${open}${seq}div>${open}${seq}mcp_result`,
          `${open}${seq}`,
          `${seq}${open}mcp_result`,
        ]) {
          expect(cleanAndNeutralize(s), JSON.stringify(s)).toBe(expected(s));
        }
      }
    }
    expect(cleanAndNeutralize('<\x1b[1mmcp_result>')).toBe('‹mcp_result>');
    // An unterminated control string swallows the rest, the name with it.
    expect(cleanAndNeutralize('<\x1b]mcp_result>')).toBe('<');
  });

  it('finds a tag right where its regex stops after its bounded number of runs', () => {
    // ASCII and other text alternating one unit at a time: one run each.
    for (let runs = RUNS_PER_MATCH - 6; runs <= RUNS_PER_MATCH + 6; runs++) {
      const head = 'a日'.repeat(runs >> 1) + (runs % 2 === 1 ? 'a' : '');
      for (const tail of [
        '</mcp_result>',
        '<div><mcp_result>',
        '＜mcp_result',
        '\x1b[0m<\x1b[0mmcp_result',
        '\u200b</mcp_result>',
        '😀<mcp_result',
      ]) {
        const s = head + tail;
        expect(cleanAndNeutralize(s), tail).toBe(expected(s));
        expect(cleanAndNeutralize(s)).toContain(NEUTRAL_BRACKET);
      }
    }
  });

  it('on hostile strings cut into pieces at every offset of a long text', () => {
    // Long ordinary text with a hostile piece spliced at many offsets: the piece lands at the
    // start, the middle and the end of the regex's runs and of the cleaner's short steps.
    const text = 'log line: value=42 <div> a < b; ok\n'.repeat(40);
    const pieces = [
      '</mcp_result>',
      '<\x1b[31m/mcp_result>',
      '\x1b[31m<\x1b[0mgaruda_note',
      '＜\u200bｍｃｐ＿ｒｅｓｕｌｔ',
      '<\r\n/web_result',
      '\ud800<mcp_prompt',
    ];
    for (const piece of pieces) {
      for (let at = 0; at <= 80; at++) {
        const s = text.slice(0, at) + piece + text.slice(at);
        expect(cleanAndNeutralize(s), `${JSON.stringify(piece)} at ${at}`).toBe(expected(s));
      }
    }
  });

  it('reads no bracket nor the neutral bracket as part of a name', () => {
    // neutralizeAt reads a bracket again in a result where later brackets may be neutralised.
    for (const c of [...BRACKETS, NEUTRAL_BRACKET.charCodeAt(0)]) {
      expect(c < 0x80 || bmpKind(c) === OTHER, `U+${c.toString(16)}`).toBe(true);
    }
  });
});

describe('cleanAndNeutralize, by each of its two scans', () => {
  const byScanner = (s: string, blockUnits: number, tags?: readonly string[] | TagList) => {
    const out = fusedPassForTests(s, tags, { blockUnits });
    if (out === undefined) throw new Error('no vector scanner on this runtime');
    return out;
  };

  it('has the vector scanner on Node, so the tests below exercise it', () => {
    expect(fusedPassForTests('x', undefined, { blockUnits: 16 })).toBe('x');
  });

  it('property: both scans return what the two functions return, whatever the block size', () => {
    fc.assert(
      fc.property(hostileString, fc.integer({ min: 1, max: 70 }), (s, blockUnits) => {
        const want = expected(s);
        return (
          fusedPassForTests(s, undefined, 'regex') === want && byScanner(s, blockUnits) === want
        );
      }),
      { numRuns: 4000 },
    );
  });

  it('property: the scanner with other lists, given as an array or compiled', () => {
    const tagList = fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_:.-]{0,20}$/), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(hostileString, tagList, fc.integer({ min: 1, max: 40 }), (s, tags, block) => {
        const want = expected(s, tags);
        return (
          byScanner(s, block, tags) === want && byScanner(s, block, compileTags(tags)) === want
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('finds every code unit at every position of its groups of sixteen', () => {
    // Each BMP code unit, between runs of ASCII of varying length, so each lands in every lane
    // of the scanner's groups and in its one-at-a-time tail, and before a tag.
    let s = '';
    for (let c = 0; c < 0x10000; c++) {
      s += String.fromCharCode(c) + 'abcdefghijklmnopq'.slice(0, c % 17);
      if (c % 97 === 0) s += '<mcp_result>';
    }
    const want = neutralizeTags(cleanText(s));
    for (const blockUnits of [32768, 4099, 37])
      expect(byScanner(s, blockUnits) === want).toBe(true);
  });

  it('on long text, through the public function', () => {
    const line = 'log: \x1b[32mINFO\x1b[39m value=42 <div> a < b; ok 日本 😀\r\n';
    const s = `${line.repeat(1200)}</mcp_result>${'\u200b<\x1b[0mgaruda_note'.repeat(50)}${line.repeat(300)}`;
    expect(s.length).toBeGreaterThan(2 * 32768);
    expect(cleanAndNeutralize(s)).toBe(neutralizeTags(cleanText(s)));
    expect(cleanAndNeutralize(s)).toContain('‹/mcp_result>');
  });
});
