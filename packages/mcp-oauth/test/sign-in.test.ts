// Real sign-ins through the SDK: the OAuth fixture (authorization server + protected MCP
// endpoint), StreamableHTTPClientTransport with our provider, waitForCallback and a scripted
// browser, all on 127.0.0.1.
import { IssuerMismatchError, UnauthorizedError } from '@modelcontextprotocol/client';
import { OAUTH_DENY_DESCRIPTION, browserThatPastes } from '@garuda/test-utils';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AuthorizationDeniedError,
  CallbackPortChangedError,
  InsecureAuthorizationServerError,
} from '../src/errors.js';
import { parseRedirectUrl } from '../src/parse-redirect-url.js';
import { caught, filesUnder, SecretScan } from './helpers.js';
import { echo, SignInWorld } from './sign-in-world.js';

// Every token, code, verifier and state these sign-ins produced, against everything they said.
const scan = new SecretScan();
let w: SignInWorld;
SignInWorld.eachTest(scan, (world) => (w = world));
afterAll(() => {
  expect(scan.secrets.size).toBeGreaterThan(20);
});

describe('a full sign-in through the SDK', () => {
  it('registers, authorizes, comes back to the callback, finishes and calls a tool', async () => {
    const f = await w.fixture();
    const h = await w.harness(f);
    const port = h.provider.callbackPort;
    expect(port).toBeGreaterThan(0);

    const client = await w.signIn(f, h);
    expect(await echo(client, 'hello')).toBe('hello');

    expect(f.counts).toMatchObject({
      registrations: 1,
      authorizations: 1,
      codesIssued: 1,
      tokensIssued: 1,
    });
    const [registered] = f.clients.filter((c) => !c.preRegistered);
    expect(registered?.redirectUris).toEqual([`http://127.0.0.1:${port}/callback`]);
    expect(registered?.clientName).toBe('Garuda');
    expect(f.lastAuthorizationRequest).toMatchObject({
      code_challenge_method: 'S256',
      redirect_uri: `http://127.0.0.1:${port}/callback`,
      state: h.redirects[0]?.signIn.state,
      resource: f.url.href,
    });
    // The browser saw our static page.
    const visit = await h.visits[0];
    expect(visit?.callbackStatus).toBe(200);
    expect(visit?.callbackBody).toContain('You are signed in');

    // The store: client with its port and issuer stamp, tokens stamped, no sign-in left over.
    const entry = await w.store().get({ scope: 'user', name: 'demo', url: f.url });
    expect(entry?.port).toBe(port);
    expect(entry?.client?.issuer).toBe(f.issuer);
    expect(entry?.tokens?.issuer).toBe(f.issuer);
    expect(entry?.codeVerifier).toBeUndefined();
    expect(entry?.state).toBeUndefined();
    expect(entry?.discovery?.authorizationServerMetadata?.issuer).toBe(f.issuer);
    expect(w.rec.lines.info).toContain('signed in to "demo"');

    // File discipline, and the token lives in this one file only.
    expect((await fs.stat(w.file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(w.file))).mode & 0o777).toBe(0o700);
    const token = entry?.tokens?.access_token as string;
    const refresh = entry?.tokens?.refresh_token as string;
    const others = (await filesUnder(w.home.path)).filter((other) => other !== w.file);
    for (const other of others) {
      const text = await fs.readFile(other, 'utf8');
      expect(text, other).not.toContain(token);
      expect(text, other).not.toContain(refresh);
    }
  });

  it('lets a second provider on the same store reuse the tokens without signing in', async () => {
    const { f } = await w.signedIn();
    const before = f.counts;

    const second = await w.harness(f);
    const client = await w.connectedClient(f, second.provider);
    expect(await echo(client, 'again')).toBe('again');
    expect(second.redirects).toEqual([]);
    expect(f.counts.authorizations).toBe(before.authorizations);
    expect(f.counts.registrations).toBe(before.registrations);
  });

  it('refreshes an expired token without any callback', async () => {
    // The token expires when the test says so, not after a lifetime that a busy machine can
    // use up before the first call (which would refresh once more, or at the wrong moment).
    const { f, h, client } = await w.signedIn();
    expect(await echo(client, 'before expiry')).toBe('before expiry');
    expect(f.counts.refreshes).toBe(0);
    const oldToken = (await h.provider.tokens())?.access_token;
    scan.addSecret(oldToken);
    const refused = f.counts.rejectedTokens;
    f.expireAllTokens();

    expect(await echo(client, 'after expiry')).toBe('after expiry');
    expect(f.counts.rejectedTokens).toBeGreaterThan(refused);
    expect(f.counts.refreshes).toBe(1);
    expect(f.counts.authorizations).toBe(1);
    expect(h.redirects).toHaveLength(1);
    const newToken = (await h.provider.tokens())?.access_token;
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(oldToken);
  });

  it('finishes a sign-in from a pasted redirect address (browser on another machine)', async () => {
    const f = await w.fixture();
    const browser = browserThatPastes();
    const h = await w.harness(f, { onRedirect: (url) => void browser.open(url) });
    const { error, transport } = await w.firstConnect(f, h.provider);
    expect(UnauthorizedError.isInstance(error)).toBe(true);

    const pasted = `  ${await browser.nextRedirect()}\n`;
    const pending = await h.provider.pendingSignIn();
    expect(pending?.port).toBe(h.provider.callbackPort);
    const params = parseRedirectUrl(pasted, pending!.state, { redirectUri: pending!.redirectUri });
    scan.addParams(params);
    await transport.finishAuth(params);

    expect(await echo(await w.connectedClient(f, h.provider), 'pasted')).toBe('pasted');
    expect(await h.provider.pendingSignIn()).toBeUndefined();
  });
});

describe('the callback port', () => {
  it('registers again with a new port when the kept one is taken', async () => {
    const f = await w.fixture();
    const first = await w.harness(f);
    await w.signIn(f, first);
    const oldPort = first.provider.callbackPort as number;
    // The tokens are gone (signed out elsewhere); the client and its port stay.
    await first.provider.invalidateCredentials('tokens');
    await w.occupy(oldPort);

    const second = await w.harness(f);
    const newPort = second.provider.callbackPort as number;
    expect(newPort).not.toBe(oldPort);
    expect(w.rec.lines.info.join('\n')).toContain(
      `port ${oldPort} of "demo" is used by another program`,
    );

    await w.signIn(f, second);
    expect(f.counts.registrations).toBe(2);
    const latest = f.clients.filter((c) => !c.preRegistered).at(-1);
    expect(latest?.redirectUris).toEqual([`http://127.0.0.1:${newPort}/callback`]);
    expect((await w.store().get({ scope: 'user', name: 'demo', url: f.url }))?.port).toBe(newPort);
  });

  it('asks for another attempt when the port is taken at the redirect, then registers again', async () => {
    const f = await w.fixture();
    const h = await w.harness(f);
    const oldPort = h.provider.callbackPort as number;
    await w.signIn(f, h);
    // Later in the same session: the tokens are refused and another program took the port.
    await h.provider.invalidateCredentials('tokens');
    await w.occupy(oldPort);

    const { error } = await w.firstConnect(f, h.provider);
    expect(error).toBeInstanceOf(CallbackPortChangedError);
    expect((error as CallbackPortChangedError).oldPort).toBe(oldPort);
    const newPort = h.provider.callbackPort as number;
    expect(newPort).toBe((error as CallbackPortChangedError).newPort);
    expect(h.redirects).toHaveLength(1);

    await w.signIn(f, h);
    expect(f.counts.registrations).toBe(2);
    expect(h.redirects.at(-1)?.signIn.port).toBe(newPort);
  });
});

describe('a pre-registered client', () => {
  it('signs in with the configured client id and never registers', async () => {
    const f = await w.fixture({ registration: false });
    const h = await w.harness(f, { clientId: f.preRegisteredClientId, scopes: ['mcp:tools'] });
    const client = await w.signIn(f, h);
    expect(await echo(client, 'pre')).toBe('pre');
    expect(f.counts.registrations).toBe(0);
    expect(f.lastAuthorizationRequest?.client_id).toBe(f.preRegisteredClientId);
    const entry = await w.store().get({ scope: 'user', name: 'demo', url: f.url });
    expect(entry?.client).toEqual({ client_id: f.preRegisteredClientId, issuer: f.issuer });
  });
});

describe('authorization servers refused before any browser opens', () => {
  it('refuses a server that does not advertise PKCE S256', async () => {
    const f = await w.fixture({ advertisePkce: false });
    const h = await w.harness(f);
    const { error } = await w.firstConnect(f, h.provider);
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_PKCE_NOT_SUPPORTED' });
    expect((error as Error).message).toContain('S256');
    expect(h.redirects).toEqual([]);
    expect(f.counts).toMatchObject({ registrations: 0, authorizations: 0 });
  });

  it("refuses an http authorization endpoint, and a project server's loopback http server", async () => {
    const f = await w.fixture({ httpAuthorizationEndpoint: true });
    const user = await w.harness(f);
    const userError = (await w.firstConnect(f, user.provider)).error;
    expect(userError).toBeInstanceOf(InsecureAuthorizationServerError);
    expect((userError as InsecureAuthorizationServerError).field).toBe('authorization_endpoint');

    const plain = await w.fixture();
    const project = await w.harness(plain, {
      scope: path.join(w.home.path, 'project'),
      allowHttpLoopback: false,
    });
    const projectError = (await w.firstConnect(plain, project.provider)).error;
    expect(projectError).toBeInstanceOf(InsecureAuthorizationServerError);
    expect((projectError as Error).message).toMatch(/http on this computer/);

    expect(user.redirects).toEqual([]);
    expect(project.redirects).toEqual([]);
    expect(f.counts).toMatchObject({ registrations: 0, authorizations: 0 });
    expect(plain.counts).toMatchObject({ registrations: 0, authorizations: 0 });
  });
});

describe('failed sign-ins', () => {
  it('surfaces the SDK issuer error for a callback with a wrong iss, and stores no token', async () => {
    const f = await w.fixture({ wrongIssuer: true });
    const h = await w.harness(f);
    const { transport } = await w.firstConnect(f, h.provider);
    const params = await h.callback();
    const error = await caught(() => transport.finishAuth(params));
    scan.addError(error);
    expect(IssuerMismatchError.isInstance(error)).toBe(true);
    expect(await h.provider.tokens()).toBeUndefined();
    expect(f.counts.tokensIssued).toBe(0);
  });

  it('shows only the short code of access_denied, never the description', async () => {
    const f = await w.fixture({ deny: true });
    const h = await w.harness(f);
    await w.firstConnect(f, h.provider);
    const error = await caught(() => h.callback());
    scan.addError(error);
    expect(error).toBeInstanceOf(AuthorizationDeniedError);
    expect((error as AuthorizationDeniedError).error).toBe('access_denied');
    const visit = await h.visits[0];
    expect(visit?.callbackStatus).toBe(200);
    expect(visit?.callbackBody).toContain('did not complete');
    const visible = [(error as Error).message, visit?.callbackBody ?? '', ...w.rec.all()].join(
      '\n',
    );
    for (const piece of [
      'Access denied',
      'SYSTEM NOTE',
      'curl',
      '\u001b',
      OAUTH_DENY_DESCRIPTION,
    ]) {
      expect(visible).not.toContain(piece);
    }
  });
});
