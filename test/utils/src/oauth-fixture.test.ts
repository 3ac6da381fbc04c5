import {
  IssuerMismatchError,
  OAuthError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  INSECURE_AUTHORIZATION_HOST,
  OAUTH_DENY_DESCRIPTION,
  WRONG_ISSUER,
  startOAuthFixture,
  type OAuthFixture,
  type OAuthFixtureOptions,
} from './oauth-fixture.js';
import { makeCertificate } from './certificate.js';
import { browserThatPastes, scriptedBrowser, type ScriptedBrowser } from './scripted-browser.js';
import { newClient, textOf, type Negotiation } from './test-support.js';

// ---------------------------------------------------------------------------------------------
// A minimal in-memory OAuthClientProvider and a one-route callback server, as a client would
// have them (the product's live in @garuda/mcp-oauth).
// ---------------------------------------------------------------------------------------------

class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  discovery: OAuthDiscoveryState | undefined;
  verifier: string | undefined;
  lastState: string | undefined;
  readonly opened: URL[] = [];

  constructor(
    private readonly callbackUrl: string,
    private readonly openBrowser: (url: URL) => Promise<unknown>,
  ) {}

  get redirectUrl(): string {
    return this.callbackUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Garuda test',
      redirect_uris: [this.callbackUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.opened.push(url);
    await this.openBrowser(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

interface CallbackServer {
  url: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    received.push(url.searchParams);
    res
      .writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' })
      .end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------

interface World {
  negotiation: Negotiation;
  fixture: OAuthFixture;
  callback: CallbackServer;
  browser: ScriptedBrowser;
  provider: MemoryProvider;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

async function world(
  options: OAuthFixtureOptions = {},
  negotiation: Negotiation = 'auto',
): Promise<World> {
  const fixture = await startOAuthFixture(options);
  cleanups.push(() => fixture.close());
  const callback = await startCallbackServer();
  cleanups.push(() => callback.close());
  const browser = scriptedBrowser();
  const provider = new MemoryProvider(callback.url, (url) => browser.open(url));
  return { negotiation, fixture, callback, browser, provider };
}

function transportFor({ fixture, provider }: World) {
  return new StreamableHTTPClientTransport(fixture.url, { authProvider: provider });
}

/** Connects an SDK client; `connect` must stop with `UnauthorizedError` after the browser ran. */
async function connectExpectingSignIn(w: World) {
  const transport = transportFor(w);
  const client = newClient(w.negotiation);
  client.onerror = () => {};
  const failure = await client.connect(transport).then(
    () => undefined,
    (error: unknown) => error,
  );
  await client.close().catch(() => {});
  expect(UnauthorizedError.isInstance(failure)).toBe(true);
  return transport;
}

/** The whole sign-in: connect → 401 → browser → callback → finishAuth. Returns the callback query. */
async function signIn(w: World): Promise<URLSearchParams> {
  const transport = await connectExpectingSignIn(w);
  const params = w.callback.received.at(-1);
  if (!params) throw new Error('the callback was not called');
  await transport.finishAuth(params);
  return params;
}

async function connected(w: World) {
  const client = newClient(w.negotiation);
  client.onerror = () => {};
  await client.connect(transportFor(w));
  cleanups.push(() => client.close().catch(() => {}));
  return client;
}

async function echo(client: Awaited<ReturnType<typeof connected>>, text: string) {
  return textOf(await client.callTool({ name: 'echo', arguments: { text } }));
}

/** A raw MCP request with a given access token: only the status and challenge matter. */
async function rawMcp(fixture: OAuthFixture, token?: string) {
  const response = await fetch(fixture.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get('www-authenticate') };
}

async function form(url: string, fields: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

async function getJson(url: string) {
  const response = await fetch(url);
  return (await response.json()) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------

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

describe('OAuth fixture over https (tls) and rejectEveryToken', () => {
  const HOST = 'mcp.oauth-fixture.test';

  /** GET over https to the fixture's port with `HOST` as SNI, trusting `ca`. */
  function httpsGet(port: number, pathname: string, ca: string | undefined) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          path: pathname,
          servername: HOST,
          headers: { host: `${HOST}:${port}` },
          ...(ca !== undefined && { ca }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('serves every URL as https://<hostname>:<port>, with a certificate a client can pin as its CA', async () => {
    const certificate = await makeCertificate(HOST);
    expect(certificate.cert).toContain('BEGIN CERTIFICATE');
    expect(new X509Certificate(certificate.cert).subjectAltName).toBe(`DNS:${HOST}`);
    const fixture = await startOAuthFixture({ tls: { ...certificate, hostname: HOST } });
    cleanups.push(() => fixture.close());

    expect(fixture.url.href).toBe(`https://${HOST}:${fixture.port}/mcp`);
    expect(fixture.issuer).toBe(`https://${HOST}:${fixture.port}`);
    expect(fixture.metadata).toMatchObject({
      issuer: fixture.issuer,
      authorization_endpoint: `${fixture.issuer}/authorize`,
      token_endpoint: `${fixture.issuer}/token`,
    });
    const served = await httpsGet(
      fixture.port,
      '/.well-known/oauth-authorization-server',
      certificate.cert,
    );
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toMatchObject({ issuer: fixture.issuer });
    const resource = await httpsGet(
      fixture.port,
      '/.well-known/oauth-protected-resource/mcp',
      certificate.cert,
    );
    expect(JSON.parse(resource.body)).toMatchObject({ resource: fixture.url.href });

    // Without the certificate as CA the handshake fails: the fixture is really TLS.
    await expect(
      httpsGet(fixture.port, '/.well-known/oauth-authorization-server', undefined),
    ).rejects.toThrow(/self[- ]signed/i);
  });

  it('refuses a hostname that is not a plain DNS name', async () => {
    const certificate = await makeCertificate(HOST);
    await expect(
      startOAuthFixture({ tls: { ...certificate, hostname: 'evil host/x' } }),
    ).rejects.toThrow(/tls\.hostname/);
    await expect(makeCertificate('bad name; rm -rf /')).rejects.toThrow(/plain DNS name/);
  });

  it('rejectEveryToken: a fresh token is refused with invalid_token, and its refresh with invalid_grant', async () => {
    const w = await world({ rejectEveryToken: true });
    await signIn(w);
    const token = w.provider.stored?.access_token;
    expect(token).toMatch(/^at_/);
    const refused = await rawMcp(w.fixture, token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(w.fixture.counts.rejectedTokens).toBe(1);
    const refresh = await form(`${w.fixture.issuer}/token`, {
      grant_type: 'refresh_token',
      refresh_token: w.provider.stored?.refresh_token ?? '',
      client_id: w.fixture.lastAuthorizationRequest?.client_id ?? '',
      resource: w.fixture.url.href,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(w.fixture.counts.refreshes).toBe(0);
  });

  it('the scripted browser visits extraHosts (and only those) through the fetch it is given', async () => {
    const visited: string[] = [];
    const browser = scriptedBrowser({
      extraHosts: ['sign-in.oauth-fixture.test'],
      fetch: (input) => {
        visited.push(String(input));
        return Promise.resolve(new Response('no', { status: 403 }));
      },
    });
    const allowed = await browser.open('https://sign-in.oauth-fixture.test:1/authorize');
    expect(allowed.error).toBe('no redirect (HTTP 403)');
    const refused = await browser.open('https://other.oauth-fixture.test:1/authorize');
    expect(refused.error).toBe('refused to open: not a loopback host');
    expect(visited).toEqual(['https://sign-in.oauth-fixture.test:1/authorize']);
  });
});

describe('OAuth fixture metadata switches', () => {
  it('serves RFC 9728 and RFC 8414 documents; advertisePkce: false drops code_challenge_methods_supported', async () => {
    const fixture = await startOAuthFixture();
    cleanups.push(() => fixture.close());
    expect(await getJson(fixture.resourceMetadataUrl)).toEqual({
      resource: fixture.url.href,
      authorization_servers: [fixture.issuer],
      scopes_supported: ['mcp:tools'],
    });
    const metadata = await getJson(fixture.authorizationServerMetadataUrl);
    expect(metadata).toEqual(fixture.metadata);
    expect(metadata).toMatchObject({
      issuer: fixture.issuer,
      authorization_endpoint: `${fixture.issuer}/authorize`,
      token_endpoint: `${fixture.issuer}/token`,
      registration_endpoint: `${fixture.issuer}/register`,
      revocation_endpoint: `${fixture.issuer}/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none'],
    });

    const noPkce = await startOAuthFixture({ advertisePkce: false, scopes: ['a', 'b'] });
    cleanups.push(() => noPkce.close());
    const bare = await getJson(noPkce.authorizationServerMetadataUrl);
    expect(bare).not.toHaveProperty('code_challenge_methods_supported');
    expect(bare.scopes_supported).toEqual(['a', 'b']);
    expect((await getJson(noPkce.resourceMetadataUrl)).scopes_supported).toEqual(['a', 'b']);
  });

  it('advertisePkce: false: the SDK does not refuse the server (a client must)', async () => {
    const w = await world({ advertisePkce: false });
    await signIn(w);
    expect(w.fixture.lastAuthorizationRequest?.code_challenge_method).toBe('S256');
    expect(w.fixture.counts.tokensIssued).toBe(1);
  });

  it('revocation: false and issuerInAuthorizationResponse: false drop their fields (and iss)', async () => {
    const w = await world({ revocation: false, issuerInAuthorizationResponse: false });
    expect(w.fixture.metadata).not.toHaveProperty('revocation_endpoint');
    expect(w.fixture.metadata).not.toHaveProperty('authorization_response_iss_parameter_supported');
    expect((await fetch(`${w.fixture.issuer}/revoke`, { method: 'POST' })).status).toBe(404);
    const params = await signIn(w); // without iss advertised, the SDK accepts a missing iss
    expect(params.has('iss')).toBe(false);
    expect(w.fixture.counts.tokensIssued).toBe(1);
  });

  it('httpAuthorizationEndpoint: the SDK hands the http: URL over as is; the scripted browser refuses it', async () => {
    const w = await world({ httpAuthorizationEndpoint: true });
    expect(String(w.fixture.metadata.authorization_endpoint)).toMatch(
      new RegExp(`^http://${INSECURE_AUTHORIZATION_HOST.replaceAll('.', '\\.')}:\\d+/authorize$`),
    );
    await connectExpectingSignIn(w);
    expect(w.provider.opened[0]?.protocol).toBe('http:');
    expect(w.browser.visits[0]?.error).toBe('refused to open: not a loopback host');
    expect(w.fixture.counts.authorizations).toBe(0);
  });
});

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
