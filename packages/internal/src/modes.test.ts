import { describe, expect, it } from 'vitest';
import { modesOf, quotedModes } from './modes.js';

describe('modesOf and quotedModes', () => {
  it('list a table’s modes in its order', () => {
    const table = { b: 'second letter', a: 'first letter', c: 'third' };
    expect(modesOf(table)).toEqual(['b', 'a', 'c']);
    expect(quotedModes(table)).toBe('"b", "a" or "c"');
    expect(quotedModes({ only: 'one' })).toBe('"only"');
    expect(quotedModes({ x: '1', y: '2' })).toBe('"x" or "y"');
  });
});
