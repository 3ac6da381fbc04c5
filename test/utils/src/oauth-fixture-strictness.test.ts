// The OAuth fixture's own checks, over raw HTTP: registration, authorize, token, scopes, Client
// ID Metadata Documents and close().
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from './oauth-fixture.js';
import { cleanups, form, getJson, rawMcp, runCleanups } from './oauth-fixture-test-support.js';

afterEach(runCleanups);

describe('OAuth fixture strictness (raw HTTP)', () => {
  /** A PKCE pair and the authorization URL for a freshly registered client. */
  async function registered(fixture: OAuthFixture, redirectUri = 'http://127.0.0.1:9/callback') {
    const response = await fetch(`${fixture.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'raw' }),
    });
    expect(response.status).toBe(201);
    const { client_id: clientId } = (await response.json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(`${fixture.issuer}/authorize`);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: fixture.url.href,
      state: 'st',
    })) {
      authorize.searchParams.set(name, value);
    }
    return { clientId, verifier, authorize, redirectUri };
  }

  /** The tokens of a sign-in through `registered`'s authorization URL. */
  async function redeem(
    fixture: OAuthFixture,
    client: Awaited<ReturnType<typeof registered>>,
  ): Promise<{ access_token: string; scope: string }> {
    const code = (await location(client.authorize)).target?.searchParams.get('code') ?? '';
    const answer = await fetch(`${fixture.issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: client.verifier,
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
        resource: fixture.url.href,
      }),
    });
    return (await answer.json()) as { access_token: string; scope: string };
  }

  async function location(url: URL) {
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    const target = response.headers.get('location');
    return { status: response.status, target: target ? new URL(target) : undefined };
  }

  it('refuses non-loopback or odd redirect URIs at registration with invalid_redirect_uri', async () => {
    const fixture = await startOAuthFixture();
    cleanups.push(() => fixture.close());
    for (const uri of [
      'http://localhost:8080/callback',
      'https://127.0.0.1:8080/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:8080/other',
      'http://127.0.0.1:8080/callback?x=1',
      'http://evil.example:8080/callback',
    ]) {
      const response = await fetch(`${fixture.issuer}/register`, {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
      expect([uri, response.status]).toEqual([uri, 400]);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_redirect_uri');
    }
    const secret = await fetch(`${fixture.issuer}/register`, {
      method: 'POST',
      body: JSON.stringify({
        redirect_uris: ['http://127.0.0.1:8080/callback'],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    });
    expect(secret.status).toBe(400);
    expect(fixture.counts.registrations).toBe(0);
  });

  it('authorize: unknown redirect URI gets no redirect; missing PKCE and wrong resource are redirected errors', async () => {
    const fixture = await startOAuthFixture();
    cleanups.push(() => fixture.close());
    const { authorize } = await registered(fixture);

    const otherPort = new URL(authorize);
    otherPort.searchParams.set('redirect_uri', 'http://127.0.0.1:10/callback');
    expect(await location(otherPort)).toEqual({ status: 400, target: undefined });

    const plain = new URL(authorize);
    plain.searchParams.set('code_challenge_method', 'plain');
    const noPkce = await location(plain);
    expect(noPkce.status).toBe(302);
    expect(noPkce.target?.searchParams.get('error')).toBe('invalid_request');
    expect(noPkce.target?.searchParams.get('state')).toBe('st');

    const elsewhere = new URL(authorize);
    elsewhere.searchParams.set('resource', `${fixture.issuer}/other`);
    expect((await location(elsewhere)).target?.searchParams.get('error')).toBe('invalid_target');
    expect(fixture.counts).toMatchObject({ authorizations: 3, codesIssued: 0 });
  });

  it('token: PKCE, redirect_uri and resource are checked; a code works once', async () => {
    const fixture = await startOAuthFixture();
    cleanups.push(() => fixture.close());
    const { authorize, clientId, verifier, redirectUri } = await registered(fixture);
    const issued = await location(authorize);
    const code = issued.target?.searchParams.get('code') ?? '';
    expect(issued.target?.searchParams.get('iss')).toBe(fixture.issuer);
    const token = (fields: Record<string, string>) =>
      form(`${fixture.issuer}/token`, {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        resource: fixture.url.href,
        ...fields,
      });

    const wrongVerifier = await token({ code_verifier: randomBytes(32).toString('base64url') });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A failed redemption still used the code up.
    expect((await token({})).body.error).toBe('invalid_grant');

    const fresh = await location(authorize);
    const freshCode = fresh.target?.searchParams.get('code') ?? '';
    expect(
      (await token({ code: freshCode, redirect_uri: 'http://127.0.0.1:10/callback' })).body.error,
    ).toBe('invalid_grant');
    const third = (await location(authorize)).target?.searchParams.get('code') ?? '';
    expect((await token({ code: third, resource: `${fixture.issuer}/other` })).body.error).toBe(
      'invalid_target',
    );
    const fourth = (await location(authorize)).target?.searchParams.get('code') ?? '';
    const ok = await token({ code: fourth });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp:tools' });
    expect((await rawMcp(fixture, String(ok.body.access_token))).status).toBe(200);

    // Redeeming the same code again fails and withdraws the tokens it gave.
    expect((await token({ code: fourth })).body.error).toBe('invalid_grant');
    expect((await rawMcp(fixture, String(ok.body.access_token))).status).toBe(401);
    expect(fixture.counts).toMatchObject({ codesIssued: 4, tokensIssued: 1 });
  });

  it('challengeScope names a scope in the 401; a scoped tool answers 403 insufficient_scope without it', async () => {
    const fixture = await startOAuthFixture({
      mode: 'scoped',
      scopes: ['mcp:tools', 'mcp:write'],
      challengeScope: 'mcp:tools',
    });
    cleanups.push(() => fixture.close());
    const registeredScope = async (scope: string) => {
      const client = await registered(fixture);
      client.authorize.searchParams.set('scope', scope);
      return client;
    };
    const unauthenticated = await fetch(fixture.url, { method: 'POST', body: '{}' });
    await unauthenticated.body?.cancel();
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/, scope="mcp:tools"$/);

    // A token for mcp:tools only, through the raw flow.
    const tokens = await redeem(fixture, await registeredScope('mcp:tools'));
    expect(tokens.scope).toBe('mcp:tools');
    const call = (name: string) =>
      fetch(fixture.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: { text: 'x' } },
        }),
      });
    const refused = await call('write_note');
    await refused.body?.cancel();
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope", scope="mcp:tools mcp:write", resource_metadata="/,
    );
    expect(fixture.counts.insufficientScope).toBe(1);
    // Other tools pass the scope check (the SDK's handler then answers as it does).
    const other = await call('echo');
    await other.body?.cancel();
    expect(other.status).not.toBe(403);
  });

  it('dropScopes are accepted in a request but never granted', async () => {
    const fixture = await startOAuthFixture({
      scopes: ['mcp:tools', 'mcp:write'],
      dropScopes: ['mcp:write'],
    });
    cleanups.push(() => fixture.close());
    const client = await registered(fixture);
    client.authorize.searchParams.set('scope', 'mcp:tools mcp:write');
    expect((await redeem(fixture, client)).scope).toBe('mcp:tools');
  });

  it('clientMetadataDocuments: a document URL is a client id (any loopback port), advertised in the metadata', async () => {
    const url = 'https://client.example/oauth/client.json';
    const fixture = await startOAuthFixture({
      registration: false,
      clientMetadataDocuments: {
        [url]: { client_id: url, redirect_uris: ['http://127.0.0.1/callback'] },
        'https://client.example/wrong.json': {
          client_id: 'https://other.example/x.json',
          redirect_uris: ['http://127.0.0.1/callback'],
        },
      },
    });
    cleanups.push(() => fixture.close());
    expect(fixture.metadata.client_id_metadata_document_supported).toBe(true);
    const authorize = (clientId: string, redirectUri: string) => {
      const target = new URL(`${fixture.issuer}/authorize`);
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: 'c'.repeat(43),
        code_challenge_method: 'S256',
        resource: fixture.url.href,
      })) {
        target.searchParams.set(name, value);
      }
      return location(target);
    };
    const ok = await authorize(url, 'http://127.0.0.1:4567/callback');
    expect(ok.status).toBe(302);
    expect(ok.target?.searchParams.get('code')).toBeTruthy();
    expect((await authorize(url, 'http://127.0.0.1:4567/other')).status).toBe(400);
    expect(
      (await authorize('https://client.example/wrong.json', 'http://127.0.0.1:1/callback')).status,
    ).toBe(400);
    expect(
      (await authorize('https://client.example/unknown.json', 'http://127.0.0.1:1/callback'))
        .status,
    ).toBe(400);
    expect(fixture.counts).toMatchObject({ metadataDocuments: 1, registrations: 0 });
    expect(fixture.clients.find((c) => c.clientId === url)?.metadataDocument).toBe(true);
  });

  it('close() ends connections and stops listening; twice is fine', async () => {
    const fixture = await startOAuthFixture();
    const { issuer } = fixture;
    await getJson(fixture.authorizationServerMetadataUrl); // a keep-alive connection
    await fixture.close();
    await fixture.close();
    await expect(fetch(`${issuer}/.well-known/oauth-authorization-server`)).rejects.toThrow();
  });
});
