import { describe, expect, it } from 'vitest';
import { revealText } from './reveal-text.js';

describe('revealText', () => {
  it('shows hidden characters as escapes', () => {
    expect(revealText(' mcp.*\n')).toBe('" mcp.*\\n"');
    expect(revealText('a\u200bb\u202e\t"\\')).toBe('"a\\u200bb\\u202e\\t\\"\\\\"');
    expect(revealText('\u{E0041}')).toBe('"\\u{e0041}"');
    expect(revealText('<garuda_note>')).toBe('"‹garuda_note>"');
  });
});
