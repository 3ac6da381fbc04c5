import { describe, expect, it } from 'vitest';
import { closeMatches, didYouMean, editDistance } from './did-you-mean.js';

describe('editDistance', () => {
  it.each([
    ['status', 'status', 0],
    ['stauts', 'status', 1],
    ['statu', 'status', 1],
    ['sttus', 'status', 1],
    ['Status', 'status', 0],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['ab', 'ba', 1],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closeMatches', () => {
  const commands = ['status', 'tools', 'call', 'add', 'remove', 'list', 'get', 'login', 'logout'];

  it('suggests only what is a few typos away, nearest first', () => {
    expect(closeMatches('stauts', commands)).toEqual(['status']);
    expect(closeMatches('lgoin', commands)).toEqual(['login']);
    expect(closeMatches('frobnicate', commands)).toEqual([]);
    // One letter is never a typo of anything.
    expect(closeMatches('x', ['a', 'b'])).toEqual([]);
    // "fx" for "fz", not "fxyz".
    expect(closeMatches('fz', ['fxyz', 'fx'])).toEqual(['fx']);
    expect(closeMatches('status', commands)).toEqual([]);
  });

  it('words the suggestion', () => {
    expect(didYouMean('fz', ['fx'])).toBe(' Did you mean "fx"?');
    expect(didYouMean('ab', ['ac', 'ad'])).toBe(' Did you mean "ac" or "ad"?');
    expect(didYouMean('database', ['fx'])).toBe('');
  });
});
