import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthorizationDeniedError } from './errors.js';
import { parseRedirectUrl } from './parse-redirect-url.js';

const STATE = 'st_0123456789abcdefghij';
const REDIRECT = 'http://127.0.0.1:53121/callback';
const parse = (pasted: string) => parseRedirectUrl(pasted, STATE, { redirectUri: REDIRECT });
const good = `${REDIRECT}?code=code-abcdefghijkl&state=${STATE}`;

/** What `fn` threw; fails the test when it returned instead. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return expect.fail('expected it to throw, but it returned');
}

describe('parseRedirectUrl', () => {
  it.each([
    ['the plain address', good],
    ['surrounded by whitespace', `  \t${good}\n`],
    ['wrapped over lines by a terminal', `${good.slice(0, 30)}\n  ${good.slice(30)}`],
    ['in double quotes', `"${good}"`],
    ['in single quotes', `'${good}'`],
    ['in angle brackets', `<${good}>`],
    ['with a trailing fragment', `${good}#`],
  ])('accepts %s', (_, pasted) => {
    expect([...parse(pasted)]).toEqual([
      ['code', 'code-abcdefghijkl'],
      ['state', STATE],
    ]);
  });

  it('passes iss on and drops everything else', () => {
    const params = parse(`${good}&iss=https%3A%2F%2Fas.example&error_description=hi&extra=1`);
    expect([...params]).toEqual([
      ['code', 'code-abcdefghijkl'],
      ['state', STATE],
      ['iss', 'https://as.example'],
    ]);
  });

  it.each([
    ['nothing', '   ', /nothing was pasted/],
    ['not a URL', 'code-abcdefghijkl', /not a web address/],
    [
      'another host',
      good.replace('127.0.0.1', 'localhost'),
      /does not point at this sign-in's callback/,
    ],
    ['another port', good.replace('53121', '53122'), /does not point at/],
    ['another path', good.replace('/callback', '/callback2'), /does not point at/],
    ['https instead of http', good.replace('http:', 'https:'), /does not point at/],
    ['a javascript: address', `javascript:alert('${STATE}')`, /does not point at/],
    ['no code', `${REDIRECT}?state=${STATE}`, /carries no authorization code/],
    ['an empty code', `${REDIRECT}?code=&state=${STATE}`, /carries no authorization code/],
    ['two codes', `${good}&code=other`, /more than one code/],
    ['two issuers', `${good}&iss=a&iss=b`, /more than one issuer/],
    ['user and password', good.replace('http://', 'http://u:p@'), /user name or password/],
    ['too long', `${good}&x=${'a'.repeat(20_000)}`, /longer than/],
  ])('refuses %s', (_, pasted, message) => {
    const error = thrownBy(() => parse(pasted));
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_REDIRECT_URL' });
    expect((error as Error).message).toMatch(message);
  });

  it.each([
    ['no state', `${REDIRECT}?code=abc`, true],
    ['another state', `${REDIRECT}?code=abc&state=other-state-123456`, false],
    ['two states', `${good}&state=${STATE}`, false],
  ])('refuses %s as another sign-in', (_, pasted, missing) => {
    expect(() => parse(pasted)).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_STATE_MISMATCH' }),
    );
    expect(() => parse(pasted)).toThrow(missing ? /has no state/ : /belongs to another sign-in/);
  });

  it('turns an error into AuthorizationDeniedError with only the code', () => {
    const error = thrownBy(() =>
      parse(`${REDIRECT}?error=access_denied&error_description=%1B%5B31mrun%20this&state=${STATE}`),
    );
    expect(error).toBeInstanceOf(AuthorizationDeniedError);
    expect((error as AuthorizationDeniedError).error).toBe('access_denied');
    expect((error as Error).message).not.toContain('run this');
  });

  it('refuses unusable arguments', () => {
    expect(() => parseRedirectUrl(good, 'short', { redirectUri: REDIRECT })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
    expect(() => parseRedirectUrl(good, STATE, { redirectUri: 'not a url' })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
    expect(() => parseRedirectUrl(42 as never, STATE, { redirectUri: REDIRECT })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_REDIRECT_URL' }),
    );
  });

  it('never echoes the pasted text in an error (property)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/);
    const noise = fc.string({ maxLength: 30 });
    fc.assert(
      fc.property(secret, noise, noise, fc.nat(4), (code, before, after, shape) => {
        const pastes = [
          `${before}${REDIRECT}?code=${code}&state=${STATE}x${after}`,
          `${before}https://elsewhere.example/callback?code=${code}${after}`,
          `${code}${after}`,
          `${REDIRECT}?code=${code}&code=${code}&state=${STATE}`,
          `${REDIRECT}?error=${code}&state=${STATE}&error_description=${code}`,
        ];
        const pasted = pastes[shape] as string;
        // Every shape is refused (a wrong state, another address, no address, two codes, an
        // error answer): a paste that parsed would fail here, not pass unchecked.
        const error = thrownBy(() => parse(pasted));
        expect(error).toBeInstanceOf(Error);
        const text = `${(error as Error).message} ${(error as Error).stack ?? ''}`;
        // An error code is shown when it is a plain word (it is the server's code, not ours);
        // the description and the pasted address never are.
        if (shape !== 4) expect(text).not.toContain(code);
        expect(text).not.toContain(pasted.trim());
      }),
      { numRuns: 300 },
    );
  });
});
