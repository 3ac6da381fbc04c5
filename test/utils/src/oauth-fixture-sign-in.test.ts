// The OAuth fixture driven by the SDK client: sign-in on both eras, refresh, revocation, deny,
// wrongIssuer, a pre-registered client and the paste flow.
import {
  IssuerMismatchError,
  OAuthError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OAUTH_DENY_DESCRIPTION, WRONG_ISSUER } from './oauth-fixture.js';
import {
  MemoryProvider,
  cleanups,
  connectExpectingSignIn,
  connected,
  echo,
  form,
  getJson,
  rawMcp,
  runCleanups,
  signIn,
  world,
} from './oauth-fixture-test-support.js';
import { browserThatPastes } from './scripted-browser.js';
import { newClient, textOf } from './test-support.js';

afterEach(runCleanups);

describe('OAuth fixture with the SDK client', () => {
  it.each(['auto', 'legacy'] as const)(
    'signs in end to end (%s): 401, discovery, DCR, PKCE, browser, callback, finishAuth, echo',
    async (negotiation) => {
      const w = await world({}, negotiation);
      const { fixture, browser, provider, callback } = w;
      expect(fixture.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(fixture.issuer).toBe(fixture.url.origin);

      const params = await signIn(w);

      // The browser followed the AS redirect to our callback, and the callback answered.
      expect(browser.visits).toHaveLength(1);
      const [visit] = browser.visits;
      expect(visit?.authorizationUrl).toBe(provider.opened[0]?.href);
      expect(visit?.authorizationStatus).toBe(302);
      expect(visit?.redirectedTo?.startsWith(`${callback.url}?`)).toBe(true);
      expect(visit?.callbackStatus).toBe(200);
      expect(visit?.callbackBody).toBe('You can close this window.');
      expect(visit?.error).toBeUndefined();

      // What the SDK asked for, and what came back.
      const asked = fixture.lastAuthorizationRequest;
      expect(asked).toMatchObject({
        response_type: 'code',
        code_challenge_method: 'S256',
        redirect_uri: callback.url,
        resource: fixture.url.href,
        scope: 'mcp:tools',
        state: provider.lastState,
      });
      expect(fixture.clients.find((c) => c.clientId === asked?.client_id)).toMatchObject({
        redirectUris: [callback.url],
        clientName: 'Garuda test',
        preRegistered: false,
      });
      expect(params.get('code')).toMatch(/^code_/);
      expect(params.get('state')).toBe(provider.lastState);
      expect(params.get('iss')).toBe(fixture.issuer);
      expect(provider.stored).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });

      // A new transport (a started one cannot be reused) connects with the token.
      const client = await connected(w);
      expect(await echo(client, 'hello')).toBe('hello');

      const counts = fixture.counts;
      expect(counts).toMatchObject({
        registrations: 1,
        authorizations: 1,
        codesIssued: 1,
        tokensIssued: 1,
        refreshes: 0,
        revocations: 0,
        rejectedTokens: 0,
      });
      // 'auto': one refused POST, then server/discover and tools/call. The 2025 handshake takes
      // more requests (initialize, initialized, the standby GET).
      if (negotiation === 'auto') expect(counts.mcpRequests).toBe(3);
      else expect(counts.mcpRequests).toBeGreaterThan(3);
      expect(fixture.events[0]).toBe('mcp POST 401 no token');
      expect(fixture.events).toContain(`token authorization_code ${asked?.client_id}`);
      expect(fixture.events.join('\n')).not.toMatch(/at_|rt_|code_/);
    },
  );

  it('refreshes on 401 after the access token expired (tokenTtlSeconds: 1, then expireAllTokens)', async () => {
    // The fixture runs in this process and reads its clock from Date: stopped, the clock moves
    // only when the test moves it, so a busy machine cannot use up a token's 1 s (before its
    // first use, or a refreshed one before the call is retried with it). Timers stay real.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    cleanups.push(async () => void vi.useRealTimers());
    const w = await world({ tokenTtlSeconds: 1 });
    await signIn(w);
    const client = await connected(w);
    vi.setSystemTime(Date.now() + 900); // still inside the token's second
    expect(await echo(client, 'one')).toBe('one');
    expect(w.fixture.counts).toMatchObject({ refreshes: 0, rejectedTokens: 0 });
    const firstRefreshToken = w.provider.stored?.refresh_token;

    vi.setSystemTime(Date.now() + 200); // 1.1 s after it was issued
    expect(await echo(client, 'two')).toBe('two');
    expect(w.fixture.counts).toMatchObject({ refreshes: 1, tokensIssued: 2, rejectedTokens: 1 });
    expect(w.provider.stored?.refresh_token).not.toBe(firstRefreshToken); // rotated

    // The rotated-out refresh token is dead.
    const clientId = w.fixture.lastAuthorizationRequest?.client_id ?? '';
    const reuse = await form(`${w.fixture.issuer}/token`, {
      grant_type: 'refresh_token',
      refresh_token: firstRefreshToken ?? '',
      client_id: clientId,
      resource: w.fixture.url.href,
    });
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    w.fixture.expireAllTokens();
    expect(await echo(client, 'three')).toBe('three');
    expect(w.fixture.counts).toMatchObject({
      authorizations: 1,
      refreshes: 2,
      tokensIssued: 3,
      rejectedTokens: 2,
    });
    expect(w.browser.visits).toHaveLength(1); // no second sign-in
  });

  it('revokeAll makes the MCP endpoint answer 401 invalid_token; the SDK then starts a new sign-in', async () => {
    const w = await world();
    await signIn(w);
    const token = w.provider.stored?.access_token;
    expect((await rawMcp(w.fixture, token)).status).toBe(200);

    w.fixture.revokeAll();
    const refused = await rawMcp(w.fixture, token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(refused.challenge).toContain(`resource_metadata="${w.fixture.resourceMetadataUrl}"`);

    const noToken = await rawMcp(w.fixture);
    expect(noToken).toEqual({
      status: 401,
      challenge: `Bearer resource_metadata="${w.fixture.resourceMetadataUrl}"`,
    });

    // The refresh fails with invalid_grant: the SDK warns on the console, drops the tokens and
    // redirects again, so connect ends in UnauthorizedError once more.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await connectExpectingSignIn(w);
    expect(warn.mock.calls.flat().join(' ')).toContain('invalid_grant');
    expect(w.fixture.counts).toMatchObject({ authorizations: 2, refreshes: 0, rejectedTokens: 2 });
    expect(w.browser.visits).toHaveLength(2);
  });

  it('RFC 7009 revocation of the refresh token ends its access tokens; unknown tokens still get 200', async () => {
    const w = await world();
    await signIn(w);
    const { access_token: access, refresh_token: refresh } = w.provider.stored ?? {};
    const clientId = w.fixture.lastAuthorizationRequest?.client_id ?? '';
    const revokeUrl = String(w.fixture.metadata.revocation_endpoint);
    expect(revokeUrl).toBe(`${w.fixture.issuer}/revoke`);

    expect(await form(revokeUrl, { token: 'nonsense', client_id: clientId })).toEqual({
      status: 200,
      body: {},
    });
    expect(w.fixture.counts.revocations).toBe(0);

    const revoked = await form(revokeUrl, {
      token: refresh ?? '',
      token_type_hint: 'refresh_token',
      client_id: clientId,
    });
    expect(revoked.status).toBe(200);
    expect(w.fixture.counts.revocations).toBe(1);
    expect((await rawMcp(w.fixture, access)).status).toBe(401);
    expect(w.fixture.events).toContain(`revoke refresh_token ${clientId}`);
  });

  it('deny: the callback gets error=access_denied with the hostile description, state and iss', async () => {
    const w = await world({ deny: true });
    const transport = await connectExpectingSignIn(w);
    const params = w.callback.received[0];
    expect(params?.get('error')).toBe('access_denied');
    expect(params?.get('error_description')).toBe(OAUTH_DENY_DESCRIPTION);
    expect(OAUTH_DENY_DESCRIPTION).toMatch(/\u001b\[31m/);
    expect(params?.get('state')).toBe(w.provider.lastState);
    expect(params?.get('iss')).toBe(w.fixture.issuer);
    expect(params?.has('code')).toBe(false);

    // The SDK checks iss first, then surfaces the callback error as an OAuthError.
    const failure = await transport.finishAuth(params!).catch((error: unknown) => error);
    expect(OAuthError.isInstance(failure)).toBe(true);
    expect((failure as OAuthError).code).toBe('access_denied');
    expect((failure as OAuthError).message).toBe(OAUTH_DENY_DESCRIPTION); // never show it
    expect(w.fixture.counts).toMatchObject({ authorizations: 1, codesIssued: 0, tokensIssued: 0 });
  });

  it('wrongIssuer: finishAuth throws the SDK issuer error before redeeming the code', async () => {
    const w = await world({ wrongIssuer: true });
    const transport = await connectExpectingSignIn(w);
    const params = w.callback.received[0]!;
    expect(params.get('iss')).toBe(WRONG_ISSUER);
    const failure = await transport.finishAuth(params).catch((error: unknown) => error);
    expect(IssuerMismatchError.isInstance(failure)).toBe(true);
    expect((failure as IssuerMismatchError).kind).toBe('authorization_response');
    expect(w.fixture.counts).toMatchObject({ codesIssued: 1, tokensIssued: 0 });
  });

  it('registration: false has no registration_endpoint; the pre-registered client signs in', async () => {
    const w = await world({ registration: false });
    // A client id from config, stamped with the issuer it belongs to: without the stamp the SDK
    // warns on the console (and stamps it itself through saveClientInformation).
    w.provider.client = { client_id: w.fixture.preRegisteredClientId, issuer: w.fixture.issuer };
    const warn = vi.spyOn(console, 'warn');
    expect(w.fixture.metadata).not.toHaveProperty('registration_endpoint');
    expect(await getJson(w.fixture.authorizationServerMetadataUrl)).not.toHaveProperty(
      'registration_endpoint',
    );
    const register = await fetch(`${w.fixture.issuer}/register`, {
      method: 'POST',
      body: JSON.stringify({ redirect_uris: [w.callback.url] }),
    });
    expect(register.status).toBe(404);

    await signIn(w);
    const client = await connected(w);
    expect(await echo(client, 'pre')).toBe('pre');
    expect(w.fixture.lastAuthorizationRequest?.client_id).toBe(w.fixture.preRegisteredClientId);
    expect(w.fixture.counts).toMatchObject({ registrations: 0, tokensIssued: 1 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('the paste flow: browserThatPastes stops at the redirect; its URL finishes the sign-in', async () => {
    const w = await world();
    const paster = browserThatPastes();
    const provider = new MemoryProvider(w.callback.url, (url) => paster.open(url));
    const transport = new StreamableHTTPClientTransport(w.fixture.url, { authProvider: provider });
    const client = newClient('auto');
    client.onerror = () => {};
    const failure = await client.connect(transport).catch((error: unknown) => error);
    expect(UnauthorizedError.isInstance(failure)).toBe(true);

    const pasted = new URL(await paster.nextRedirect());
    expect(w.callback.received).toHaveLength(0);
    expect(paster.visits[0]).toMatchObject({ authorizationStatus: 302, redirectedTo: pasted.href });
    expect(paster.visits[0]?.callbackStatus).toBeUndefined();
    expect(pasted.searchParams.get('state')).toBe(provider.lastState);

    await transport.finishAuth(pasted.searchParams);
    const second = newClient('auto');
    await second.connect(
      new StreamableHTTPClientTransport(w.fixture.url, { authProvider: provider }),
    );
    cleanups.push(() => second.close());
    expect(textOf(await second.callTool({ name: 'echo', arguments: { text: 'p' } }))).toBe('p');
  });
});
