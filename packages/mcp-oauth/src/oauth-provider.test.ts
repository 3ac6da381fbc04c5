import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caught, recordingLogger, tempDir, type TempDir } from '../test/helpers.js';
import { AuthStore } from './auth-store.js';
import {
  ClientIssuerMismatchError,
  InsecureAuthorizationServerError,
  NoClientRegistrationError,
} from './errors.js';
import { freePort } from './free-port.js';
import { createOAuthProvider, GarudaOAuthProvider } from './oauth-provider.js';
import type { GarudaOAuthProviderOptions, PendingSignIn } from './provider-options.js';

let home: TempDir;
let store: AuthStore;
const servers: Server[] = [];
const SERVER = 'https://mcp.example/mcp';
const ID = { scope: 'user', name: 'demo', url: SERVER };
const METADATA = {
  issuer: 'https://auth.example',
  authorization_endpoint: 'https://auth.example/authorize',
  token_endpoint: 'https://auth.example/token',
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
};
const TOKENS = {
  access_token: 'at-legacy-0123456789',
  token_type: 'Bearer',
  refresh_token: 'rt-legacy-0123456789',
};
const DISCOVERY: OAuthDiscoveryState = {
  authorizationServerUrl: 'https://auth.example',
  authorizationServerMetadata: METADATA,
};
/** {@link DISCOVERY} of a server that takes dynamic registrations. */
const REGISTERING: OAuthDiscoveryState = {
  authorizationServerUrl: 'https://auth.example',
  authorizationServerMetadata: { ...METADATA, registration_endpoint: 'https://auth.example/reg' },
};

beforeEach(async () => {
  home = await tempDir('garuda-provider-');
  store = new AuthStore(path.join(home.path, 'mcp-auth.json'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  await home.cleanup();
});

const redirects: { url: URL; signIn: PendingSignIn }[] = [];
function options(extra: Partial<GarudaOAuthProviderOptions> = {}): GarudaOAuthProviderOptions {
  redirects.length = 0;
  return {
    store,
    scope: 'user',
    name: 'demo',
    serverUrl: SERVER,
    onRedirect: (url, signIn) => void redirects.push({ url, signIn }),
    ...extra,
  };
}

async function occupy(port: number): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  servers.push(server);
}

/** What the SDK's startAuthorization would build for this provider. */
async function authorizationUrl(
  provider: GarudaOAuthProvider,
  overrides: Record<string, string | null> = {},
) {
  const state = await provider.state();
  await provider.saveCodeVerifier('v'.repeat(43));
  const url = new URL(METADATA.authorization_endpoint);
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: 'client-1',
    code_challenge: 'c'.repeat(43),
    code_challenge_method: 'S256',
    redirect_uri: provider.redirectUrl,
    state,
    ...overrides,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url;
}

describe('GarudaOAuthProvider', () => {
  it('describes a public loopback client once prepared', async () => {
    const provider = new GarudaOAuthProvider(options({ scopes: ['read', 'write'] }));
    expect(() => provider.redirectUrl).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_PROVIDER_NOT_READY' }),
    );
    expect(() => provider.clientMetadata).toThrow(/call await provider.prepare\(\)/);
    await provider.prepare();
    const port = provider.callbackPort as number;
    expect(provider.redirectUrl).toBe(`http://127.0.0.1:${port}/callback`);
    expect(provider.clientMetadata).toEqual({
      client_name: 'Garuda',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'read write',
    });
    expect(
      new GarudaOAuthProvider(options({ clientName: 'Garuda CLI' })).clientMetadataUrl,
    ).toBeUndefined();
    const named = await createOAuthProvider(options({ clientName: 'Garuda CLI' }));
    expect(named.clientMetadata.client_name).toBe('Garuda CLI');
    expect(named.clientMetadata.scope).toBeUndefined();
  });

  it('refuses unusable options', () => {
    const bad: Partial<GarudaOAuthProviderOptions>[] = [
      { store: {} as never },
      { name: 'Bad Name' },
      { scope: 'relative' },
      { serverUrl: 'ftp://x' },
      { onRedirect: undefined as never },
      { clientName: '' },
      { clientName: 'a\u001b[2Jb' },
      { clientId: '' },
      { clientMetadataUrl: 'http://client.example/meta.json' },
      { clientMetadataUrl: 'https://client.example/' },
      { clientId: 'x', clientMetadataUrl: 'https://client.example/meta.json' },
      { scopes: ['has space'] },
      { allowHttpLoopback: 'yes' as never },
    ];
    for (const extra of bad)
      expect(() => new GarudaOAuthProvider(options(extra)), JSON.stringify(extra)).toThrow(
        expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
      );
  });

  it('keeps the stored port while it is free, and a pending sign-in keeps it even when taken', async () => {
    const port = await freePort();
    await store.update(ID, () => ({ client: { client_id: 'dcr-1' }, port }));
    expect((await createOAuthProvider(options())).callbackPort).toBe(port);

    await store.update(ID, (e) => ({ ...e, codeVerifier: 'v'.repeat(43), state: 's'.repeat(20) }));
    await occupy(port);
    expect((await createOAuthProvider(options())).callbackPort).toBe(port);
    expect((await store.get(ID))?.client?.client_id).toBe('dcr-1');
  });

  it('drops a registered client whose port is taken, unless a refresh token still needs it', async () => {
    const { logger, lines } = recordingLogger();
    const port = await freePort();
    await occupy(port);
    await store.update(ID, () => ({
      client: { client_id: 'dcr-1' },
      port,
      tokens: { access_token: 'a'.repeat(20), token_type: 'Bearer', refresh_token: 'r'.repeat(20) },
    }));
    expect((await createOAuthProvider(options({ logger }))).callbackPort).toBe(port);
    expect((await store.get(ID))?.client).toBeDefined();

    await store.update(ID, (e) => ({ ...e, tokens: undefined }));
    const provider = await createOAuthProvider(options({ logger }));
    expect(provider.callbackPort).not.toBe(port);
    const entry = await store.get(ID);
    expect(entry?.client).toBeUndefined();
    expect(entry?.port).toBeUndefined();
    expect(lines.info.join('\n')).toContain(`port ${port} of "demo" is used by another program`);
    expect(await provider.clientInformation()).toBeUndefined();
  });

  it('keeps a pre-registered client when its port is taken, and just picks another port', async () => {
    const port = await freePort();
    await occupy(port);
    await store.update(ID, () => ({
      client: { client_id: 'pre-1', issuer: 'https://auth.example' },
      port,
    }));
    const provider = await createOAuthProvider(options({ clientId: 'pre-1' }));
    expect(provider.callbackPort).not.toBe(port);
    expect(await provider.clientInformation({ issuer: 'https://auth.example' })).toEqual({
      client_id: 'pre-1',
      issuer: 'https://auth.example',
    });
    // Used with another server before: refused, never sent there (and never a registration).
    const error = await caught(provider.clientInformation({ issuer: 'https://other.example' }));
    expect(error).toBeInstanceOf(ClientIssuerMismatchError);
    expect(error).toMatchObject({
      code: 'OAUTH_CLIENT_ISSUER_MISMATCH',
      clientIssuer: 'https://auth.example',
      issuer: 'https://other.example',
    });
    expect(String(error)).toContain('"oauth": { "clientId"');
  });

  it('round-trips client information, tokens and discovery verbatim, issuer stamps included', async () => {
    const provider = await createOAuthProvider(options());
    const client = {
      client_id: 'dcr-9',
      issuer: 'https://auth.example',
      client_id_issued_at: 5,
      redirect_uris: [provider.redirectUrl],
    };
    await provider.saveClientInformation(client, { issuer: 'https://auth.example' });
    expect(await provider.clientInformation({ issuer: 'https://auth.example' })).toEqual(client);
    expect((await store.get(ID))?.port).toBe(provider.callbackPort);

    const tokens = {
      access_token: 'at-1234567890abcdef',
      token_type: 'Bearer',
      expires_in: 60,
      refresh_token: 'rt-1234567890abcdef',
      scope: 'x',
      issuer: 'https://auth.example',
    };
    await provider.saveTokens(tokens);
    expect(await provider.tokens()).toEqual(tokens);
    expect((await store.get(ID))?.tokensSavedAt).toMatch(/^\d{4}-/);

    await provider.saveDiscoveryState(DISCOVERY);
    expect((await store.get(ID))?.discovery).toEqual(DISCOVERY);
    // Handed back for the code exchange of a sign-in in progress only: otherwise the SDK reads
    // the resource metadata again, and follows an authorization server that moved.
    expect(await provider.discoveryState()).toBeUndefined();
    await provider.saveCodeVerifier('v'.repeat(43));
    expect(await provider.discoveryState()).toEqual(DISCOVERY);
  });

  it('makes a fresh random state per sign-in and keeps verifier and state until tokens arrive', async () => {
    const provider = await createOAuthProvider(options());
    await expect(provider.codeVerifier()).rejects.toMatchObject({
      name: 'OAuthFlowError',
      code: 'OAUTH_NO_SIGN_IN_IN_PROGRESS',
    });
    const a = await provider.state();
    const b = await provider.state();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    await provider.saveCodeVerifier('verifier-'.padEnd(43, 'x'));
    expect(await provider.codeVerifier()).toBe('verifier-'.padEnd(43, 'x'));
    expect(await provider.pendingSignIn()).toEqual({
      state: b,
      port: provider.callbackPort,
      redirectUri: provider.redirectUrl,
      scopes: [],
    });

    const tokens = { access_token: 'at-aaaaaaaaaaaaaaaaaaaa', token_type: 'Bearer' };
    await provider.saveTokens(tokens);
    expect(await provider.pendingSignIn()).toBeUndefined();
    // Re-saving the same tokens with a stamp does not end a new sign-in.
    await provider.state();
    await provider.saveCodeVerifier('v'.repeat(43));
    await provider.saveTokens({ ...tokens, issuer: 'https://auth.example' });
    expect(await provider.codeVerifier()).toBe('v'.repeat(43));
  });

  it('invalidates each credential scope', async () => {
    const provider = await createOAuthProvider(options());
    const fill = async () => {
      await provider.saveDiscoveryState(DISCOVERY);
      await provider.saveClientInformation({ client_id: 'c' });
      await provider.saveTokens({ access_token: 'at-bbbbbbbbbbbbbbbbbbbb', token_type: 'Bearer' });
      await provider.state();
      await provider.saveCodeVerifier('v'.repeat(43));
    };
    const fields = async () =>
      Object.keys((await store.get(ID)) ?? {})
        .filter((k) => k !== 'updatedAt')
        .sort();
    await fill();
    expect(await fields()).toEqual([
      'client',
      'codeVerifier',
      'discovery',
      'port',
      'state',
      'tokens',
      'tokensSavedAt',
    ]);
    await provider.invalidateCredentials('tokens');
    expect(await fields()).toEqual(['client', 'codeVerifier', 'discovery', 'port', 'state']);
    await provider.invalidateCredentials('verifier');
    expect(await fields()).toEqual(['client', 'discovery', 'port']);
    await provider.invalidateCredentials('discovery');
    expect(await fields()).toEqual(['client', 'port']);
    await provider.invalidateCredentials('client');
    expect(await fields()).toEqual([]);
    await fill();
    await provider.invalidateCredentials('all');
    expect(await store.get(ID)).toBeUndefined();
  });

  it('refuses an insecure discovery before storing it, and re-checks what is stored', async () => {
    const provider = await createOAuthProvider(options());
    const noPkce = {
      ...DISCOVERY,
      authorizationServerMetadata: { ...METADATA, code_challenge_methods_supported: undefined },
    };
    await expect(provider.saveDiscoveryState(noPkce)).rejects.toMatchObject({
      name: 'OAuthFlowError',
      code: 'OAUTH_PKCE_NOT_SUPPORTED',
    });
    const http = { ...DISCOVERY, authorizationServerUrl: 'http://auth.example' };
    await expect(provider.saveDiscoveryState(http)).rejects.toBeInstanceOf(
      InsecureAuthorizationServerError,
    );
    const none = { authorizationServerUrl: 'https://auth.example' };
    await expect(provider.saveDiscoveryState(none)).rejects.toThrow(
      /publishes no authorization server metadata/,
    );
    expect(await store.get(ID)).toBeUndefined();

    // One stored under other rules is forgotten, so the SDK looks the server up again.
    const { logger, lines } = recordingLogger();
    const strict = await createOAuthProvider(options({ logger }));
    await store.update(ID, () => ({
      discovery: noPkce as OAuthDiscoveryState,
      port: 1,
      codeVerifier: 'v'.repeat(43),
    }));
    expect(await strict.discoveryState()).toBeUndefined();
    expect(await store.get(ID)).toEqual({
      port: 1,
      codeVerifier: 'v'.repeat(43),
      updatedAt: expect.any(String),
    });
    expect(lines.warn.join('\n')).toContain('no longer passes the security checks');
  });

  it('forgets the client and tokens of an authorization server the resource no longer names (SEP-2352)', async () => {
    const { logger, lines } = recordingLogger();
    const provider = await createOAuthProvider(options({ logger }));
    const moved: OAuthDiscoveryState = {
      authorizationServerUrl: 'https://login.example',
      authorizationServerMetadata: {
        ...METADATA,
        registration_endpoint: 'https://login.example/reg',
        issuer: 'https://login.example',
      },
    };
    const old = { issuer: 'https://auth.example' };
    await provider.saveDiscoveryState(REGISTERING);
    await provider.saveClientInformation({ client_id: 'dcr-old', issuer: old.issuer }, old);
    await provider.saveTokens({ ...TOKENS, issuer: old.issuer }, old);

    // Before a refresh or a sign-in at the new server, nothing of the old one is handed out.
    expect(await provider.clientInformation({ issuer: 'https://login.example' })).toBeUndefined();
    expect(await provider.tokens({ issuer: 'https://login.example' })).toBeUndefined();
    expect(await provider.tokens(old)).toMatchObject({ refresh_token: TOKENS.refresh_token });

    await provider.saveDiscoveryState(moved);
    const entry = await store.get(ID);
    expect(Object.keys(entry ?? {}).sort()).toEqual(['discovery', 'updatedAt']);
    expect(lines.warn.join('\n')).toContain(
      'changed from "https://auth.example" to "https://login.example"',
    );
    expect(lines.warn.join('\n')).not.toContain(TOKENS.refresh_token);
  });

  it('an entry stored before issuer stamps belongs to the server of its discovery, or to none', async () => {
    const { logger, lines } = recordingLogger();
    const provider = await createOAuthProvider(options({ logger }));
    await store.update(ID, () => ({
      client: { client_id: 'dcr-legacy' },
      tokens: { ...TOKENS },
      discovery: REGISTERING,
    }));
    expect(await provider.tokens({ issuer: 'https://auth.example/' })).toEqual({
      ...TOKENS,
      issuer: 'https://auth.example',
    });
    expect(await provider.clientInformation({ issuer: 'https://other.example' })).toBeUndefined();
    expect(await provider.tokens({ issuer: 'https://other.example' })).toBeUndefined();
    // Its server named again: the stamps are written back.
    await provider.saveDiscoveryState(REGISTERING);
    expect((await store.get(ID))?.client).toEqual({
      client_id: 'dcr-legacy',
      issuer: 'https://auth.example',
    });
    expect((await store.get(ID))?.tokens?.issuer).toBe('https://auth.example');

    // Without stamps and without a discovery, it is not known where they belong: never used.
    await store.update(ID, () => ({ client: { client_id: 'dcr-lost' }, tokens: { ...TOKENS } }));
    expect(await provider.clientInformation({ issuer: 'https://auth.example' })).toBeUndefined();
    expect(await provider.tokens({ issuer: 'https://auth.example' })).toBeUndefined();
    await provider.saveDiscoveryState(REGISTERING);
    expect(Object.keys((await store.get(ID)) ?? {}).sort()).toEqual(['discovery', 'updatedAt']);
    expect(lines.warn.join('\n')).toContain('does not say which authorization server issued it');
  });

  it('keeps a CIMD client when its port is taken: its redirect may use any loopback port', async () => {
    const cimd = 'https://garuda.example/oauth/client.json';
    const port = await freePort();
    await occupy(port);
    await store.update(ID, () => ({
      client: { client_id: cimd, issuer: 'https://auth.example' },
      port,
    }));
    const provider = await createOAuthProvider(options({ clientMetadataUrl: cimd }));
    expect(provider.clientMetadataUrl).toBe(cimd);
    expect(provider.callbackPort).not.toBe(port);
    expect((await provider.clientInformation())?.client_id).toBe(cimd);
  });

  it('hands a checked sign-in page to onRedirect', async () => {
    const provider = await createOAuthProvider(options());
    await provider.saveDiscoveryState(DISCOVERY);
    const url = await authorizationUrl(provider);
    await provider.redirectToAuthorization(url);
    expect(redirects).toHaveLength(1);
    expect(redirects[0]?.url.href).toBe(url.href);
    expect(redirects[0]?.signIn).toEqual({
      state: url.searchParams.get('state'),
      port: provider.callbackPort,
      redirectUri: provider.redirectUrl,
      scopes: [],
    });
  });

  it.each([
    ['nothing configured or requested: the SDK choice', [], [], 'a b', ['a', 'b']],
    ['configured scopes replace the fallback to every listed scope', ['read'], [], 'a b', ['read']],
    [
      'offline_access, which the SDK adds for refresh, is kept',
      ['read'],
      [],
      'a b offline_access',
      ['read', 'offline_access'],
    ],
    ['a challenge joins the configured scopes', ['read'], ['a'], 'a', ['read', 'a']],
    ['a step-up union stays whole', [], ['write'], 'read write', ['write', 'read']],
    ['a space-separated challenge', [], ['x y'], '', ['x', 'y']],
    ['names that are not scope tokens are ignored', [], [['ok', 'bad"quote', 'a\\b']], '', ['ok']],
  ] as const)('the sign-in page scope: %s', async (_, configured, requested, sdk, expected) => {
    const provider = await createOAuthProvider(options({ scopes: [...configured] }));
    for (const scopes of requested) provider.requestScopes(scopes as string | readonly string[]);
    await provider.saveDiscoveryState(DISCOVERY);
    const url = await authorizationUrl(provider, sdk === '' ? {} : { scope: sdk });
    await provider.redirectToAuthorization(url);
    const page = redirects[0]?.url;
    expect(page?.searchParams.get('scope')?.split(' ') ?? []).toEqual(expected);
    expect(redirects[0]?.signIn.scopes).toEqual(expected);
    expect((await provider.pendingSignIn())?.scopes).toEqual(expected);
  });

  it('says what to configure when the server takes neither a registration nor a metadata document', async () => {
    const { registration_endpoint: _, ...closed } = METADATA as Record<string, unknown>;
    const provider = await createOAuthProvider(options());
    await provider.saveDiscoveryState({
      ...DISCOVERY,
      authorizationServerMetadata: closed as never,
    });
    const error = await caught(() =>
      provider.clientInformation({ issuer: 'https://auth.example' }),
    );
    expect(NoClientRegistrationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/"oauth": \{ "clientId": "<id>" \}/);
    // A metadata document where the server takes them, or a client id, is fine.
    const cimd = await createOAuthProvider(
      options({ clientMetadataUrl: 'https://client.example/meta.json' }),
    );
    await cimd.saveDiscoveryState({
      ...DISCOVERY,
      authorizationServerMetadata: {
        ...closed,
        client_id_metadata_document_supported: true,
      } as never,
    });
    expect(await cimd.clientInformation({ issuer: 'https://auth.example' })).toBeUndefined();
    const fixed = await createOAuthProvider(options({ clientId: 'pre-1' }));
    await fixed.saveDiscoveryState({ ...DISCOVERY, authorizationServerMetadata: closed as never });
    expect(await fixed.clientInformation()).toEqual({ client_id: 'pre-1' });
  });

  it.each([
    ['another host', { host: 'evil.example' }, /not the authorization endpoint/],
    ['http', { protocol: 'http:' }, /not https/],
    ['another path', { pathname: '/other' }, /not the authorization endpoint/],
    ['another state', { state: 'x'.repeat(43) }, /state/],
    ['no state', { state: null }, /state/],
    ['another redirect_uri', { redirect_uri: 'http://127.0.0.1:1/callback' }, /redirect_uri/],
    ['no PKCE', { code_challenge_method: 'plain' }, /PKCE/],
  ])('refuses a sign-in page with %s before anything opens', async (_, change, message) => {
    const provider = await createOAuthProvider(options());
    await provider.saveDiscoveryState(DISCOVERY);
    const { host, protocol, pathname, ...params } = change as Record<string, string | null>;
    const url = await authorizationUrl(provider, params);
    if (host) url.host = host;
    if (protocol) url.protocol = protocol;
    if (pathname) url.pathname = pathname;
    const error = await caught(() => provider.redirectToAuthorization(url));
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_UNSAFE_AUTHORIZATION_URL' });
    expect((error as Error).message).toMatch(message);
    expect(redirects).toEqual([]);
  });

  it('refuses to redirect without checked discovery', async () => {
    const provider = await createOAuthProvider(options());
    const url = await authorizationUrl(provider);
    await expect(provider.redirectToAuthorization(url)).rejects.toBeInstanceOf(
      InsecureAuthorizationServerError,
    );
    expect(redirects).toEqual([]);
  });
});
