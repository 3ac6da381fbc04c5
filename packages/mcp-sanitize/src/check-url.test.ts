import { cpuMsOf } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH, UrlRefusalCode, checkUrl, type UrlUse } from './check-url.js';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// One row per URL: what each use decides (a code is a refusal, `ok` a pass, `ok-loopback` a pass
// only with allowHttpLoopback).
const TABLE: readonly (readonly [string, Record<UrlUse, string>])[] = [
  ['https://example.com/a?b=c', { open: 'ok', icon: 'ok', show: 'ok' }],
  ['https://example.com/a#frag', { open: 'FRAGMENT', icon: 'ok', show: 'ok' }],
  ['HTTPS://EXAMPLE.COM/', { open: 'ok', icon: 'ok', show: 'ok' }],
  ['http://example.com/', { open: 'NOT_HTTPS', icon: 'NOT_HTTPS', show: 'ok' }],
  ['http://localhost:8080/cb', { open: 'ok-loopback', icon: 'ok-loopback', show: 'ok' }],
  ['http://127.1:8080/', { open: 'ok-loopback', icon: 'ok-loopback', show: 'ok' }],
  ['http://0x7f.0.0.1/', { open: 'ok-loopback', icon: 'ok-loopback', show: 'ok' }],
  ['http://[::1]/', { open: 'ok-loopback', icon: 'ok-loopback', show: 'ok' }],
  ['http://localhost.example.com/', { open: 'NOT_HTTPS', icon: 'NOT_HTTPS', show: 'ok' }],
  ['http://127.0.0.1.nip.io/', { open: 'NOT_HTTPS', icon: 'NOT_HTTPS', show: 'ok' }],
  [
    'https://user:pw@example.com/',
    { open: 'CREDENTIALS', icon: 'CREDENTIALS', show: 'CREDENTIALS' },
  ],
  ['https://user@example.com/', { open: 'CREDENTIALS', icon: 'CREDENTIALS', show: 'CREDENTIALS' }],
  ['javascript:alert(1)', { open: 'SCHEME', icon: 'SCHEME', show: 'SCHEME' }],
  ['JavaScript:alert(1)', { open: 'SCHEME', icon: 'SCHEME', show: 'SCHEME' }],
  ['vbscript:msgbox(1)', { open: 'SCHEME', icon: 'SCHEME', show: 'SCHEME' }],
  [
    'data:text/html,<script>alert(1)</script>',
    { open: 'SCHEME', icon: 'DATA_IMAGE', show: 'SCHEME' },
  ],
  [
    'data:image/svg+xml,<svg%20onload=alert(1)>',
    { open: 'SCHEME', icon: 'DATA_IMAGE', show: 'SCHEME' },
  ],
  [PNG, { open: 'SCHEME', icon: 'ok', show: 'SCHEME' }],
  ['file:///etc/passwd', { open: 'SCHEME', icon: 'SCHEME', show: 'ok' }],
  ['ftp://example.com/x', { open: 'SCHEME', icon: 'SCHEME', show: 'ok' }],
  ['ws://example.com/', { open: 'SCHEME', icon: 'SCHEME', show: 'ok' }],
  ['memo://notes/1', { open: 'SCHEME', icon: 'SCHEME', show: 'ok' }],
  [
    'https://exa\u202emple.com/',
    { open: 'HIDDEN_CHARACTERS', icon: 'HIDDEN_CHARACTERS', show: 'HIDDEN_CHARACTERS' },
  ],
  [
    'https://example.com/\na',
    { open: 'HIDDEN_CHARACTERS', icon: 'HIDDEN_CHARACTERS', show: 'HIDDEN_CHARACTERS' },
  ],
  [
    ' https://example.com/',
    { open: 'HIDDEN_CHARACTERS', icon: 'HIDDEN_CHARACTERS', show: 'HIDDEN_CHARACTERS' },
  ],
  [
    'https://exa\u200bmple.com/',
    { open: 'HIDDEN_CHARACTERS', icon: 'HIDDEN_CHARACTERS', show: 'HIDDEN_CHARACTERS' },
  ],
  ['/relative/path', { open: 'NOT_A_URL', icon: 'NOT_A_URL', show: 'NOT_A_URL' }],
  ['https://', { open: 'NOT_A_URL', icon: 'NOT_A_URL', show: 'NOT_A_URL' }],
];

describe('checkUrl', () => {
  for (const [raw, expected] of TABLE) {
    for (const use of ['open', 'icon', 'show'] as const) {
      const want = expected[use];
      it(`${use}: ${JSON.stringify(raw.slice(0, 60))} → ${want}`, () => {
        const strict = checkUrl(raw, { use, what: 'the page' });
        const loose = checkUrl(raw, { use, what: 'the page', allowHttpLoopback: true });
        if (want === 'ok') {
          expect(strict.ok && loose.ok).toBe(true);
        } else if (want === 'ok-loopback') {
          expect(strict).toMatchObject({ ok: false, code: UrlRefusalCode.HTTP_LOOPBACK });
          expect(loose.ok).toBe(true);
        } else {
          expect(strict).toMatchObject({ ok: false, code: want });
          expect(loose).toMatchObject({ ok: false, code: want });
        }
      });
    }
  }

  it('says what is wrong, naming the address by its origin, on one clean line', () => {
    expect(
      checkUrl('http://example.com/secret?t=1', { use: 'open', what: 'the sign-in page' }),
    ).toEqual({
      ok: false,
      code: 'NOT_HTTPS',
      reason: 'the sign-in page "http://example.com" is not https',
    });
    expect(checkUrl('http://localhost:9/', { use: 'open' })).toMatchObject({
      reason:
        'the address "http://localhost:9" is http on this computer, which is allowed only for a server you configured yourself',
    });
    expect(checkUrl('javascript:alert(1)', { use: 'open' })).toMatchObject({
      reason: 'the address uses the scheme "javascript:", not https',
    });
    expect(checkUrl(42, { use: 'show', what: 'the link' })).toMatchObject({
      code: 'NOT_A_URL',
      reason: 'the link is missing',
    });
    const hidden = checkUrl('https://a.example/\u001b[2J\u202e', { use: 'open' });
    expect(hidden.ok).toBe(false);
    if (!hidden.ok) expect(hidden.reason).not.toMatch(/[\u001b\u202e\n]/);
  });

  it('shows the whole URL with its host to highlight, and flags punycode', () => {
    const verdict = checkUrl('https://xn--pple-43d.com/login?next=%2F', { use: 'open' });
    expect(verdict).toMatchObject({
      ok: true,
      shown: 'https://xn--pple-43d.com/login?next=%2F',
      host: 'xn--pple-43d.com',
      punycode: true,
      openable: true,
    });
    // Unicode in the host is shown as the punycode the browser will use.
    expect(checkUrl('https://аpple.com/', { use: 'show' })).toMatchObject({
      host: 'xn--pple-43d.com',
      punycode: true,
    });
    expect(checkUrl('memo://notes/1', { use: 'show' })).toMatchObject({
      ok: true,
      openable: false,
    });
    expect(checkUrl(new URL('https://example.com/'), { use: 'open' })).toMatchObject({
      ok: true,
      punycode: false,
    });
  });

  it('takes a data: icon only up to its size limit', () => {
    expect(checkUrl(PNG, { use: 'icon', maxDataBytes: 10 })).toMatchObject({ code: 'DATA_IMAGE' });
    const big = `data:image/png;base64,${'A'.repeat(100_000)}`;
    expect(checkUrl(big, { use: 'icon' })).toMatchObject({ code: 'DATA_IMAGE' });
    expect(checkUrl(big, { use: 'icon', maxDataBytes: 80_000 })).toMatchObject({
      ok: true,
      openable: false,
    });
    expect(
      checkUrl(`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`, { use: 'show' }),
    ).toMatchObject({
      code: 'TOO_LONG',
    });
  });

  it('never throws and never passes a script scheme, whatever the text (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.webUrl(), fc.anything()),
        fc.constantFrom('open', 'icon', 'show'),
        (raw, use) => {
          const verdict = checkUrl(raw, { use: use as UrlUse, allowHttpLoopback: true });
          if (verdict.ok) {
            expect(['javascript:', 'vbscript:']).not.toContain(verdict.url.protocol);
            expect(verdict.shown).not.toMatch(/[\s\u0000-\u001f\u202e]/);
          }
        },
      ),
    );
  });
});

describe('checkUrl on hostile data URLs', () => {
  // A guard against quadratic time, not a speed test (the bound only catches a hang).
  it(
    'ReDoS: base64 padding of 50 000 `=` before one last character is counted in linear time',
    { timeout: 300_000 },
    () => {
      const hostile = `data:image/png;base64,${'='.repeat(50_000)}A`;
      let accepted = 0;
      const cpuMs = cpuMsOf(() => {
        for (let i = 0; i < 20; i += 1) {
          const checked = checkUrl(hostile, {
            use: 'icon',
            what: 'the icon',
            maxDataBytes: 100_000,
          });
          if (checked.ok) accepted += 1;
        }
      });
      expect(accepted).toBe(20);
      expect(cpuMs).toBeLessThan(20_000);
    },
  );
});
