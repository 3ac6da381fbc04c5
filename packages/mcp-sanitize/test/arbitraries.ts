import fc from 'fast-check';

/** Pieces that hostile text is made of: escape introducers, invisible characters, tag fragments. */
export const PIECES = [
  '\x1b',
  '\x1b[',
  '\x1b]',
  '\x1bP',
  '\x1b\\',
  '\x07',
  '\x9b',
  '\x9d',
  '\x90',
  '\x9c',
  '[31m',
  ';',
  '0',
  'm',
  '\r',
  '\n',
  '\r\n',
  '\u2028',
  '\u2029',
  '\x85',
  '\t',
  ' ',
  '\u00a0',
  '\u3000',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\u00ad',
  '\ufe0f',
  '\u{e0041}',
  '\u{e0100}',
  '\u3164',
  '\u2800',
  '\u034f',
  '\ud800',
  '\udc00',
  '<',
  '/',
  '＜',
  '／',
  '〈',
  '˂',
  '‹',
  'mcp',
  '_',
  'result',
  'resource',
  'prompt',
  'ＭＣＰ',
  'ｒｅｓｕｌｔ',
  'garuda',
  'note',
  'web',
  '-',
  '\u0301',
  '😀',
  'é',
  '日本',
] as const;

/** Arbitrary strings biased towards hostile content, including lone surrogates. */
export const hostileString = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      },
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

/** Every code point cleanText must remove, as an independent oracle (not the implementation's table). */
export const FORBIDDEN =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\p{Cf}\ufe00-\ufe0f\u{e0000}-\u{e0fff}\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b-\u180f\u2028\u2029]/u;

/** Whether a string has a lone surrogate. */
export function hasLoneSurrogate(s: string): boolean {
  return !(s as unknown as { isWellFormed(): boolean }).isWellFormed();
}
