import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quote, shorten } from './quote.js';

// What a cleaner of @garuda/mcp-sanitize does, as far as these tests need: drop escapes and
// invisible characters, fold whitespace.
const cleanLine = (text: string) =>
  text
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/[\u200b-\u200f\u202a-\u202e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('quote', () => {
  it('JSON-quotes, so a newline cannot start a fake line', () => {
    expect(quote('a\nNetwork: no')).toBe('"a\\nNetwork: no"');
    expect(quote('say "hi"')).toBe('"say \\"hi\\""');
  });

  it('escapes controls, bidi, zero-width and other invisible characters', () => {
    expect(quote('a\x1b[2J\x07b')).toBe('"a\\u001b[2J\\u0007b"');
    expect(quote('x\u202ey\u200bz\u2028\u0085\u00ad\ufeff\u2066')).toBe(
      '"x\\u202ey\\u200bz\\u2028\\u0085\\u00ad\\ufeff\\u2066"',
    );
  });

  it('keeps ordinary text of every script, and emoji', () => {
    expect(quote('/home/josé/日本 😀')).toBe('"/home/josé/日本 😀"');
  });

  it('escapes everything outside printable ASCII with ascii: true', () => {
    expect(quote('josé\u202e😀', { ascii: true })).toBe('"jos\\u00e9\\u202e\\ud83d\\ude00"');
  });

  it('shortens long text to max code points, never inside a surrogate pair', () => {
    expect(quote('a'.repeat(300))).toBe(`"${'a'.repeat(200)}…"`);
    expect(quote('abcdef', { max: 3 })).toBe('"abc…"');
    expect(quote('abc', { max: 3 })).toBe('"abc"');
    expect(quote('😀😀😀😀', { max: 2 })).toBe('"😀😀…"');
    expect(quote('a'.repeat(300), { max: 10, ascii: true })).toBe(`"${'a'.repeat(10)}\\u2026"`);
  });

  it('cleans first when given a cleaner, then shortens what is left', () => {
    expect(quote('evil\n\x1b[2Jserver\u202e', { clean: cleanLine })).toBe('"evil server"');
    expect(quote(`${'\u200b'.repeat(50)}abc`, { max: 10, clean: cleanLine })).toBe('"abc"');
  });

  it('cleans only a bounded prefix of a huge text, and says it was cut', () => {
    let seen = 0;
    const clean = (text: string) => {
      seen = text.length;
      return text.replace(/x/g, '');
    };
    expect(quote(`${'x'.repeat(1_000_000)}tail`, { max: 10, clean })).toBe('"…"');
    expect(seen).toBe(80);
  });

  it('never lets a raw control or invisible character through (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (text, ascii) => {
        const quoted = quote(text, { ascii });
        expect(quoted).not.toMatch(
          /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/,
        );
        if (ascii) expect(quoted).toMatch(/^[\x20-\x7e]*$/);
        expect(quoted.startsWith('"') && quoted.endsWith('"')).toBe(true);
      }),
    );
  });
});

describe('shorten', () => {
  it('cuts without quoting', () => {
    expect(shorten('a'.repeat(10), { max: 4 })).toBe('aaaa…');
    expect(shorten('short')).toBe('short');
    expect(shorten('a  b\n', { clean: cleanLine })).toBe('a b');
  });
});
