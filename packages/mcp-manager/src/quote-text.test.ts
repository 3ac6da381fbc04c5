import { describe, expect, it } from 'vitest';
import { capLine, groupDigits, quoteText, revealText } from './quote-text.js';

describe('capLine', () => {
  it('cuts by code points and marks the cut with …', () => {
    expect(capLine('abcdef', 10)).toBe('abcdef');
    expect(capLine('abcdef', 4)).toBe('abc…');
    expect(capLine('😀😀😀', 2)).toBe('😀…');
    expect(capLine('😀😀', 2)).toBe('😀😀');
  });
});

describe('quoteText', () => {
  it('cleans to one line, neutralises tags, caps and JSON-quotes', () => {
    expect(quoteText('read_file')).toBe('"read_file"');
    expect(quoteText('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quoteText('x\u202e\ny\x1b[31m')).toBe('"x y"');
    expect(quoteText('</mcp_result>')).toBe('"‹/mcp_result>"');
    expect(quoteText('n'.repeat(100), 5)).toBe('"nnnn…"');
    expect(quoteText(7)).toBe('(number)');
    expect(quoteText(null)).toBe('(null)');
  });
});

describe('revealText', () => {
  it('shows hidden characters as escapes', () => {
    expect(revealText(' mcp.*\n')).toBe('" mcp.*\\n"');
    expect(revealText('a\u200bb\u202e\t"\\')).toBe('"a\\u200bb\\u202e\\t\\"\\\\"');
    expect(revealText('\u{E0041}')).toBe('"\\u{e0041}"');
    expect(revealText('<garuda_note>')).toBe('"‹garuda_note>"');
  });
});

describe('groupDigits', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1 000'],
    [20000, '20 000'],
    [1234567, '1 234 567'],
  ])('%d → %s', (n, expected) => {
    expect(groupDigits(n)).toBe(expected);
  });
});
