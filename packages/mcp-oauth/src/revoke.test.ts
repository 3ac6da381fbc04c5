import type { AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import type { OAuthFixture } from '@garuda/test-utils';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretScan } from '../test/helpers.js';
import { rawMcpStatus, SignInWorld } from '../test/sign-in-world.js';
import { revoke, type RevokeOptions } from './revoke.js';

const scan = new SecretScan();
let w: SignInWorld;
SignInWorld.eachTest(scan, (world) => (w = world));

/** Signs "demo" out of `serverUrl`, accepting the fixture's http endpoints on loopback. */
function revokeDemo(
  serverUrl: URL,
  options: Partial<RevokeOptions> = {},
): ReturnType<typeof revoke> {
  return revoke({ serverUrl, store: w.store(), name: 'demo', allowHttpLoopback: true, ...options });
}

/** The fixture's authorization server metadata with another revocation endpoint. */
function withRevocationEndpoint(f: OAuthFixture, url: string): AuthorizationServerMetadata {
  return { ...(f.metadata as AuthorizationServerMetadata), revocation_endpoint: url };
}

/** A revocation endpoint that always fails, with a description full of things not to show. */
async function failingEndpoint(status = 500) {
  const bodies: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: 'server_error',
          error_description: `\u001b[31mbroken\u001b[0m ${body}`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  w.onDispose(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/revoke`, bodies };
}

describe('revoke', () => {
  it("never sends one authorization server's tokens to another after the resource moved (SEP-2352)", async () => {
    const f = await w.fixture();
    const other = await w.fixture();
    const h = await w.harness(f);
    await w.signIn(f, h);
    const tokens = await h.provider.tokens();
    const refresh = tokens?.refresh_token as string;
    const access = tokens?.access_token as string;
    // The entry no longer says where its server was (a host dropped the discovery): revoke
    // looks the resource up, and it now names the other server.
    await w.store().update({ scope: 'user', name: 'demo', url: f.url }, (entry) => {
      const next = { ...entry };
      delete next.discovery;
      return next;
    });
    f.moveAuthorizationServer(other);

    const result = await revokeDemo(f.url);
    expect(result.removed).toBe(1);
    expect(result.ok).toBe(false);
    expect(result.revocations.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(result.revocations[0]?.reason).toContain(`issued by "${f.issuer}"`);
    expect(other.heard(refresh)).toBe(false);
    expect(other.heard(access)).toBe(false);
    expect(other.counts.revocations).toBe(0);
  });

  it('revokes refresh and access tokens at the revocation endpoint; the token stops working', async () => {
    const { f, h } = await w.signedIn();
    const tokens = await h.provider.tokens();
    const access = tokens?.access_token as string;
    expect(await rawMcpStatus(f, access)).toBe(200);
    // The same name in a project: signed out too.
    const projectId = { scope: path.join(w.home.path, 'project'), name: 'demo', url: f.url };
    await w.store().update(projectId, () => ({ port: 4242 }));

    const result = await revokeDemo(f.url, { logger: w.rec.logger });

    expect(result.ok).toBe(true);
    expect(result.removed).toBe(2);
    expect(result.revocations.map((r) => [r.token, r.status])).toEqual([
      ['refresh_token', 'revoked'],
      ['access_token', 'revoked'],
    ]);
    expect(f.counts.revocations).toBeGreaterThanOrEqual(1);
    expect(await rawMcpStatus(f, access)).toBe(401);
    expect(await w.store().list()).toEqual([]);
    scan.addOutput(JSON.stringify(result));
  });

  it('removes the local entry even when the revocation endpoint fails, and reports it', async () => {
    const { f } = await w.signedIn();
    const failing = await failingEndpoint();

    const result = await revokeDemo(f.url, {
      metadata: withRevocationEndpoint(f, failing.url),
      logger: w.rec.logger,
    });

    expect(result.ok).toBe(false);
    expect(result.removed).toBe(1);
    expect(result.revocations).toEqual([
      expect.objectContaining({
        token: 'refresh_token',
        status: 'failed',
        reason: 'HTTP 500 (server_error)',
      }),
      expect.objectContaining({
        token: 'access_token',
        status: 'failed',
        reason: 'HTTP 500 (server_error)',
      }),
    ]);
    expect(await w.store().list()).toEqual([]);
    // The endpoint got the tokens it was asked to revoke, with the client id.
    expect(failing.bodies[0]).toMatch(/token_type_hint=refresh_token/);
    expect(failing.bodies[0]).toMatch(/client_id=fixture-client/);
    expect(w.rec.lines.warn.join('\n')).toContain('could not be revoked at the server: HTTP 500');
    expect(w.rec.all().join('\n')).not.toContain('broken');
    scan.addOutput(JSON.stringify(result));
  });

  it('reports an unreachable endpoint and an insecure one, and removes the entry anyway', async () => {
    const { f } = await w.signedIn();
    const failing = await failingEndpoint();
    const closedPort = new URL(failing.url);
    closedPort.port = String(
      await (async () => {
        const probe = createServer();
        await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
        const { port } = probe.address() as AddressInfo;
        await new Promise((resolve) => probe.close(resolve));
        return port;
      })(),
    );

    const unreachable = await revokeDemo(f.url, {
      metadata: withRevocationEndpoint(f, closedPort.href),
    });
    expect(unreachable.revocations[0]).toMatchObject({
      status: 'failed',
      reason: 'the revocation endpoint could not be reached',
    });
    expect(unreachable.removed).toBe(1);

    await w.signIn(f, await w.harness(f));
    const insecure = await revoke({ serverUrl: f.url, store: w.store(), name: 'demo' });
    expect(insecure.ok).toBe(false);
    expect(insecure.removed).toBe(1);
    expect(insecure.revocations[0]?.reason).toMatch(
      /revocation_endpoint .* is http on this computer/,
    );
    expect(f.counts.revocations).toBe(0);
  });

  it('says when the server offers no revocation, and finds the server when nothing is stored', async () => {
    const none = await w.fixture({ revocation: false });
    await w.signIn(none, await w.harness(none));
    const unsupported = await revokeDemo(none.url);
    expect(unsupported.revocations.map((r) => r.status)).toEqual(['unsupported', 'unsupported']);
    expect(unsupported.ok).toBe(false);
    expect(unsupported.removed).toBe(1);

    // An entry without discovery state: the SDK discovers the authorization server again.
    const { f } = await w.signedIn();
    await w
      .store()
      .update({ scope: 'user', name: 'demo', url: f.url }, (e) => ({ ...e, discovery: undefined }));
    const discovered = await revokeDemo(f.url);
    expect(discovered.ok).toBe(true);
    expect(f.counts.revocations).toBeGreaterThanOrEqual(1);

    // Nothing stored: nothing to do.
    expect(await revoke({ serverUrl: f.url, store: w.store(), name: 'demo' })).toEqual({
      removed: 0,
      revocations: [],
      ok: true,
    });
  });

  it('refuses unusable options before touching the store', async () => {
    const f = await w.fixture();
    await expect(
      revoke({ serverUrl: f.url, store: w.store(), name: 'Bad Name' }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' });
    await expect(
      revoke({ serverUrl: 'ftp://x', store: w.store(), name: 'demo' }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' });
    await expect(
      revoke({ serverUrl: f.url, store: w.store(), name: 'demo', timeoutMs: 0 }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' });
  });
});
