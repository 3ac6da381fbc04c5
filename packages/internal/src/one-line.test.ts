import { describe, expect, it } from 'vitest';
import { capLine, groupDigits, headLine, quoteLine } from './one-line.js';

const noTabs = (text: string): string => text.replace(/\s+/g, ' ');

describe('capLine', () => {
  it('cuts by code points and marks the cut with …', () => {
    expect(capLine('abcdef', 10)).toBe('abcdef');
    expect(capLine('abcdef', 4)).toBe('abc…');
    expect(capLine('😀😀😀', 2)).toBe('😀…');
    expect(capLine('😀😀', 2)).toBe('😀😀');
  });
});

describe('headLine and quoteLine', () => {
  it('clean only the first 8 × max characters and mark a value cut there with …', () => {
    let seen = 0;
    const clean = (text: string): string => {
      seen = text.length;
      return noTabs(text);
    };
    expect(headLine('x'.repeat(1_000), 5, clean)).toBe('xxxx…');
    expect(seen).toBe(40);
    expect(headLine('a\tb', 5, clean)).toBe('a b');
    expect(headLine(`${'\t'.repeat(39)}ab`, 5, (text) => text.replace(/\t/g, ''))).toBe('a…');
  });

  it('quote a string and show anything else by its type', () => {
    expect(quoteLine('a"b\tc', 80, noTabs)).toBe('"a\\"b c"');
    expect(quoteLine(7, 80, noTabs)).toBe('(number)');
    expect(quoteLine(null, 80, noTabs)).toBe('(null)');
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
