// Shared setup of the OAuth fixture's tests (not exported from the package): a minimal in-memory
// OAuthClientProvider, a one-route callback server, the per-test "world", and raw HTTP helpers.
import {
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, vi } from 'vitest';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from './oauth-fixture.js';
import { scriptedBrowser, type ScriptedBrowser } from './scripted-browser.js';
import { newClient, textOf, type Negotiation } from './test-support.js';

/** Undone after each test, last first: each test file runs `afterEach(runCleanups)`. */
export const cleanups: (() => Promise<void>)[] = [];

/** Runs and forgets {@link cleanups}, then restores every `vi.spyOn`. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
}

// ---------------------------------------------------------------------------------------------
// A minimal in-memory OAuthClientProvider and a one-route callback server, as a client would
// have them (the product's live in @garuda/mcp-oauth).
// ---------------------------------------------------------------------------------------------

export class MemoryProvider implements OAuthClientProvider {
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

export interface CallbackServer {
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

export interface World {
  negotiation: Negotiation;
  fixture: OAuthFixture;
  callback: CallbackServer;
  browser: ScriptedBrowser;
  provider: MemoryProvider;
}

export async function world(
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
export async function connectExpectingSignIn(w: World) {
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
export async function signIn(w: World): Promise<URLSearchParams> {
  const transport = await connectExpectingSignIn(w);
  const params = w.callback.received.at(-1);
  if (!params) throw new Error('the callback was not called');
  await transport.finishAuth(params);
  return params;
}

export async function connected(w: World) {
  const client = newClient(w.negotiation);
  client.onerror = () => {};
  await client.connect(transportFor(w));
  cleanups.push(() => client.close().catch(() => {}));
  return client;
}

export async function echo(client: Awaited<ReturnType<typeof connected>>, text: string) {
  return textOf(await client.callTool({ name: 'echo', arguments: { text } }));
}

/** A raw MCP request with a given access token: only the status and challenge matter. */
export async function rawMcp(fixture: OAuthFixture, token?: string) {
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

export async function form(url: string, fields: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

export async function getJson(url: string) {
  const response = await fetch(url);
  return (await response.json()) as Record<string, unknown>;
}
