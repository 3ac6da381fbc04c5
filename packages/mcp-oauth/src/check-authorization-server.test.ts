import { describe, expect, it } from 'vitest';
import { checkAuthorizationServerMetadata } from './check-authorization-server.js';
import { InsecureAuthorizationServerError } from './errors.js';

const good = {
  issuer: 'https://auth.example',
  authorization_endpoint: 'https://auth.example/authorize',
  token_endpoint: 'https://auth.example/token',
  registration_endpoint: 'https://auth.example/register',
  revocation_endpoint: 'https://auth.example/revoke',
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['plain', 'S256'],
};

function refusal(metadata: unknown, allowHttpLoopback = false): unknown {
  try {
    checkAuthorizationServerMetadata(metadata, { allowHttpLoopback });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('checkAuthorizationServerMetadata', () => {
  it('accepts https endpoints with S256', () => {
    expect(refusal(good)).toBeUndefined();
  });

  it('accepts loopback http only when allowed', () => {
    const local = {
      ...good,
      issuer: 'http://127.0.0.1:8080',
      authorization_endpoint: 'http://localhost:8080/authorize',
      token_endpoint: 'http://[::1]:8080/token',
    };
    expect(refusal(local, true)).toBeUndefined();
    const error = refusal(local);
    expect(error).toBeInstanceOf(InsecureAuthorizationServerError);
    expect((error as Error).message).toMatch(
      /http on this computer, which is allowed only for a server you configured yourself/,
    );
  });

  it.each([
    ['issuer', 'http://auth.example'],
    ['authorization_endpoint', 'http://auth.example/authorize'],
    ['authorization_endpoint', 'file:///tmp/sign-in.html'],
    ['authorization_endpoint', 'myapp://authorize'],
    ['authorization_endpoint', 'https://user:pw@auth.example/authorize'],
    ['authorization_endpoint', 'https://auth.example/authorize#frag'],
    ['authorization_endpoint', 'not a url'],
    ['token_endpoint', 'http://10.0.0.1/token'],
    ['registration_endpoint', 'http://auth.example/register'],
    ['revocation_endpoint', 'http://auth.example/revoke'],
    ['pushed_authorization_request_endpoint', 'http://auth.example/par'],
  ])('refuses %s = %s, even with loopback allowed', (field, value) => {
    const error = refusal({ ...good, [field]: value }, true);
    expect(error).toBeInstanceOf(InsecureAuthorizationServerError);
    expect((error as InsecureAuthorizationServerError).field).toBe(field);
    expect((error as Error).message).toContain(field);
    expect((error as Error).message).not.toContain('pw@');
  });

  it.each([['issuer'], ['authorization_endpoint'], ['token_endpoint']])(
    'refuses a missing %s',
    (field) => {
      const metadata: Record<string, unknown> = { ...good };
      delete metadata[field];
      expect((refusal(metadata) as InsecureAuthorizationServerError).field).toBe(field);
    },
  );

  it.each([
    ['absent', undefined],
    ['plain only', ['plain']],
    ['not a list', 'S256'],
    ['empty', []],
  ])('refuses PKCE %s', (_, methods) => {
    const error = refusal({ ...good, code_challenge_methods_supported: methods });
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_PKCE_NOT_SUPPORTED' });
    expect((error as Error).message).toContain('"https://auth.example"');
  });

  it('refuses no metadata at all', () => {
    for (const nothing of [undefined, null, 'x', []]) {
      expect((refusal(nothing) as InsecureAuthorizationServerError).field).toBe('metadata');
    }
  });

  it('cleans server text before quoting it', () => {
    const error = refusal(
      { ...good, authorization_endpoint: 'http://evil.example\u001b[2J\u202e/x' },
      true,
    );
    expect((error as Error).message).not.toMatch(/[\u001b\u202e]/);
  });
});
