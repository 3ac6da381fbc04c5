import { describe, expect, it } from 'vitest';
import { matchesToolPattern } from './tool-control.js';

describe('matchesToolPattern', () => {
  it.each([
    ['read_file', 'read_file', true],
    ['read_file', 'read_files', false],
    ['read_*', 'read_file', true],
    ['read_*', 'read_', true],
    ['read_*', 'write_file', false],
    ['*_file', 'read_file', true],
    ['*file*', 'files', true],
    ['*', '', true],
    ['*', 'anything at all', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'aXbY', false],
    ['a*a', 'a', false],
    ['Read_*', 'read_file', false],
    ['', '', true],
    ['', 'x', false],
  ])('%j on %j: %j', (pattern, name, expected) => {
    expect(matchesToolPattern(pattern, name)).toBe(expected);
  });

  it('takes time in proportion to pattern × name, not more, on a pattern made to backtrack', () => {
    const pattern = `${'*a'.repeat(100)}*b`;
    const name = 'a'.repeat(20_000);
    // A regular expression of this pattern backtracks for far longer than any test would wait.
    expect(matchesToolPattern(pattern, name)).toBe(false);
    expect(matchesToolPattern(pattern, `${name}b`)).toBe(true);
  });
});
