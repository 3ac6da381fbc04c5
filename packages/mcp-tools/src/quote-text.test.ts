import { describe, expect, it } from 'vitest';
import { quoteText } from './quote-text.js';

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

  it('reads at most 8 × max characters, and marks a value cut there with …', () => {
    expect(quoteText('n'.repeat(40), 5)).toBe('"nnnn…"');
    // Most of the head is invisible: what is left fits, but the rest was never read.
    expect(quoteText(`${'\u200b'.repeat(40)}abc${'d'.repeat(1_000)}`, 5)).toBe('"…"');
    expect(quoteText(`${'\u200b'.repeat(30)}abc${'d'.repeat(1_000)}`, 5)).toBe('"abcd…"');
    expect(quoteText('x'.repeat(10_000_000))).toBe(`"${'x'.repeat(79)}…"`);
  });
});
