// The OAuth fixture over https (tls), rejectEveryToken, and the scripted browser's extraHosts.
import { X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { startOAuthFixture } from './oauth-fixture.js';
import { makeCertificate } from './certificate.js';
import {
  cleanups,
  form,
  rawMcp,
  runCleanups,
  signIn,
  world,
} from './oauth-fixture-test-support.js';
import { scriptedBrowser } from './scripted-browser.js';

afterEach(runCleanups);

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
