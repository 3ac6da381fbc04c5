// The OAuth fixture's discovery documents and the options that change them.
import { afterEach, describe, expect, it } from 'vitest';
import { INSECURE_AUTHORIZATION_HOST, startOAuthFixture } from './oauth-fixture.js';
import {
  MemoryProvider,
  cleanups,
  connected,
  connectExpectingSignIn,
  echo,
  getJson,
  rawMcp,
  runCleanups,
  signIn,
  world,
} from './oauth-fixture-test-support.js';

afterEach(runCleanups);

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

describe('OAuth fixture: a resource that moves to another authorization server', () => {
  it('names the other server in its resource metadata and honours only its tokens; back again on undefined', async () => {
    const w = await world();
    await signIn(w);
    const before = w.provider.stored?.access_token ?? '';
    expect((await rawMcp(w.fixture, before)).status).toBe(200);

    const second = await startOAuthFixture();
    cleanups.push(() => second.close());
    w.fixture.moveAuthorizationServer(second);
    expect(await getJson(w.fixture.resourceMetadataUrl)).toMatchObject({
      resource: w.fixture.url.href,
      authorization_servers: [second.issuer],
    });
    // Its own authorization server still answers as itself.
    expect(await getJson(w.fixture.authorizationServerMetadataUrl)).toEqual(w.fixture.metadata);
    const refused = await rawMcp(w.fixture, before);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('invalid_token');
    expect(refused.challenge).toContain(`resource_metadata="${w.fixture.resourceMetadataUrl}"`);

    // A client that forgets what it knew signs in at the second server, for the first's resource.
    const fresh = new MemoryProvider(w.callback.url, (url) => w.browser.open(url));
    const moved = { ...w, provider: fresh };
    await signIn(moved);
    expect(second.counts).toMatchObject({ registrations: 1, codesIssued: 1, tokensIssued: 1 });
    expect(second.lastAuthorizationRequest?.resource).toBe(w.fixture.url.href);
    expect(await echo(await connected(moved), 'moved')).toBe('moved');
    expect(second.heard(fresh.client?.client_id ?? '-')).toBe(true);
    expect(second.heard(w.provider.client?.client_id ?? '-')).toBe(false);
    expect(second.heard(before)).toBe(false);
    expect(second.heard('')).toBe(false);

    w.fixture.moveAuthorizationServer(undefined);
    expect(await getJson(w.fixture.resourceMetadataUrl)).toMatchObject({
      authorization_servers: [w.fixture.issuer],
    });
    expect((await rawMcp(w.fixture, fresh.stored?.access_token)).status).toBe(401);
    expect(() => w.fixture.moveAuthorizationServer(w.fixture)).toThrow(TypeError);
  });
});
