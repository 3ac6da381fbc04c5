import { describe, expect, it } from 'vitest';
import { MASK, looksLiteralSecret, maskValue } from './secrets.js';

describe('maskValue', () => {
  it.each([
    ['API_KEY', 'plain', MASK],
    ['Authorization', 'Bearer abc', MASK],
    ['X-Team', 'core', 'core'],
    ['MODE', 'sk_live_0123456789abcdefghijklmnop', MASK],
    ['GITHUB_TOKEN', '${GITHUB_TOKEN}', '${GITHUB_TOKEN}'],
    ['Authorization', 'Bearer ${TOKEN}', 'Bearer ${TOKEN}'],
    ['MODE', 'prefix-sk_live_0123456789abcdefghijk${X}', `${MASK}\${X}`],
    ['API_KEY', '', ''],
    ['DIR', '/home/me/projects/a-long-folder', '/home/me/projects/a-long-folder'],
  ])('%s=%s is shown as %s', (name, value, shown) => {
    expect(maskValue(name, value)).toEqual({ text: shown, masked: shown !== value });
  });
});

describe('looksLiteralSecret', () => {
  it('tells a written-out secret from a reference', () => {
    expect(looksLiteralSecret('Bearer sk_live_0123456789abcdefghijklmnop')).toBe(true);
    expect(looksLiteralSecret('Bearer ${TOKEN}')).toBe(false);
    expect(looksLiteralSecret('core')).toBe(false);
  });
});
