import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate } from '../test/arbitraries.js';
import { capText } from './cap-text.js';
import { SanitizeErrorCode } from './errors.js';

describe('capText', () => {
  it('returns short text unchanged', () => {
    expect(capText('hello', 5)).toBe('hello');
    expect(capText('', 0)).toBe('');
  });

  it('cuts long text and says how much was cut', () => {
    const out = capText('x'.repeat(1000), 100);
    expect(out.length).toBeLessThanOrEqual(100);
    const kept = out.indexOf('\n');
    expect(out.slice(0, kept)).toBe('x'.repeat(kept));
    expect(out).toMatch(new RegExp(`\\[… ${1000 - kept} more characters cut\\]$`));
  });

  it('never splits a surrogate pair', () => {
    const out = capText('a😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀', 31);
    expect(hasLoneSurrogate(out)).toBe(false);
  });

  it('uses a one-character marker when the full marker does not fit', () => {
    expect(capText('abcdefghij', 5)).toBe('abcd…');
    expect(capText('😀😀😀😀', 4)).toBe('😀…');
    expect(capText('abc', 1)).toBe('…');
    expect(capText('abc', 0)).toBe('');
  });

  it.each([-1, 1.5, Number.NaN, Infinity, '10'])('rejects the limit %s', (max) => {
    expect(() => capText('abc', max as number)).toThrow(
      expect.objectContaining({ name: 'SanitizeError', code: SanitizeErrorCode.INVALID_LIMIT }),
    );
  });

  it('never exceeds max, never splits a pair, keeps a prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.nat(500), (s, max) => {
        const out = capText(s, max);
        if (out.length > max) return false;
        if (!hasLoneSurrogate(s) && hasLoneSurrogate(out)) return false;
        if (s.length <= max) return out === s;
        if (max === 0) return out === '';
        const cut = out.search(/\n\[… \d+ more characters cut\]$|…$/);
        return cut >= 0 && s.startsWith(out.slice(0, cut));
      }),
      { numRuns: 3000 },
    );
  });
});
