// Property: whatever secrets the store holds and whatever goes wrong, no error message and no
// logger line ever contains a token, a code, a code verifier or a state.
import fc from 'fast-check';
import * as fs from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthStore } from '../src/auth-store.js';
import { freePort } from '../src/free-port.js';
import { createOAuthProvider } from '../src/oauth-provider.js';
import { parseRedirectUrl } from '../src/parse-redirect-url.js';
import { revoke } from '../src/revoke.js';
import { waitForCallback } from '../src/wait-for-callback.js';
import { recordingLogger, SecretScan, tempDir, type TempDir } from './helpers.js';

const secret = fc.stringMatching(/^[A-Za-z0-9._~-]{20,64}$/);
const secrets = fc.record({
  access: secret,
  refresh: secret,
  verifier: secret,
  code: secret,
  wrongState: secret,
});

let home: TempDir;
let echoServer: ReturnType<typeof createHttpServer>;
let echoUrl: string;

beforeAll(async () => {
  home = await tempDir('garuda-no-secrets-');
  // A revocation endpoint that fails and puts the request body (the token) in its description.
  echoServer = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'invalid_request', error_description: body }));
    });
  });
  await new Promise<void>((resolve) => echoServer.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echoServer.address() as AddressInfo).port}/revoke`;
});
afterAll(async () => {
  await new Promise((r) => echoServer.close(r));
  await home.cleanup();
});

async function outcome(fn: () => unknown, scan: SecretScan): Promise<void> {
  try {
    await fn();
  } catch (error) {
    scan.addError(error);
  }
}

describe('no secret in any error or log line', () => {
  it('holds for store, provider, callback, paste and revocation failures', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(secrets, async (s) => {
        run++;
        const scan = new SecretScan();
        const { logger, all } = recordingLogger();
        const file = path.join(home.path, `run-${run}`, 'mcp-auth.json');
        const store = new AuthStore(file, { logger, lockTimeoutMs: 2_000 });
        const id = { scope: 'user', name: 'demo', url: 'https://mcp.example/mcp' };
        const tokens = { access_token: s.access, token_type: 'Bearer', refresh_token: s.refresh };

        // The store, with everything secret in it.
        await store.update(id, () => ({ tokens, codeVerifier: s.verifier, state: s.wrongState }));
        const provider = await createOAuthProvider({
          store,
          scope: 'user',
          name: 'demo',
          serverUrl: id.url,
          logger,
          onRedirect: () => undefined,
        });
        const state = await provider.state();
        scan.addSecret(state);
        await outcome(
          () => store.update(id, (e) => ({ ...e, tokens: { access_token: s.access } as never })),
          scan,
        );
        await outcome(
          () => store.update(id, (e) => ({ ...e, [s.code]: s.refresh }) as never),
          scan,
        );
        // A sign-in page carrying the secrets, refused for several reasons.
        const page = new URL(
          `https://evil.example/authorize?state=${s.wrongState}&code=${s.code}&redirect_uri=${provider.redirectUrl}`,
        );
        await outcome(() => provider.redirectToAuthorization(page), scan);
        await outcome(
          () =>
            provider.saveDiscoveryState({ authorizationServerUrl: `https://${s.code}.example` }),
          scan,
        );
        await provider.invalidateCredentials('verifier');
        await outcome(() => provider.codeVerifier(), scan);
        await provider.saveTokens({ ...tokens, access_token: `${s.access}2` });
        scan.addSecret(`${s.access}2`);

        // The paste flow, with the code in every position.
        for (const pasted of [
          `http://127.0.0.1:1/callback?code=${s.code}&state=${state}`,
          `${provider.redirectUrl}?code=${s.code}&state=${s.wrongState}`,
          `${provider.redirectUrl}?code=${s.code}&code=${s.refresh}&state=${state}`,
          `${provider.redirectUrl}?error=access_denied&error_description=${s.code}&state=${state}`,
          `${s.code}`,
        ]) {
          await outcome(
            () => parseRedirectUrl(pasted, state, { redirectUri: provider.redirectUrl }),
            scan,
          );
        }

        // The callback server, sent the secrets with a wrong state, then an error.
        const port = await freePort();
        let ready!: () => void;
        const listening = new Promise<void>((r) => (ready = r));
        const waiting = waitForCallback({
          port,
          state,
          // A safety net: the error callback below ends it (a busy machine must not come first).
          timeoutMs: 60_000,
          logger,
          onListening: ready,
        });
        waiting.catch(() => undefined);
        await listening;
        const base = `http://127.0.0.1:${port}/callback`;
        const pages = [
          await fetch(`${base}?code=${s.code}&state=${s.wrongState}`),
          await fetch(`${base}?code=${s.code}`),
          await fetch(
            `${base}?error=invalid_scope&error_description=${s.refresh}${s.code}&state=${state}`,
          ),
        ];
        for (const p of pages) scan.addOutput(await p.text());
        await outcome(() => waiting, scan);

        // Revocation failing with the token echoed back by the server.
        await store.update(id, (e) => ({ ...e, client: { client_id: 'c' } }));
        const result = await revoke({
          serverUrl: id.url,
          store,
          name: 'demo',
          allowHttpLoopback: true,
          metadata: {
            issuer: 'x',
            authorization_endpoint: 'x',
            token_endpoint: 'x',
            response_types_supported: ['code'],
            revocation_endpoint: echoUrl,
          },
          logger,
        });
        scan.addOutput(JSON.stringify(result));

        // A corrupt file full of secrets, moved aside.
        await fs.writeFile(file, `{"tokens": "${s.access}"`);
        await outcome(() => store.list(), scan);

        for (const value of Object.values(s)) scan.addSecret(value);
        scan.addOutput(...all());
        expect(scan.outputs.length).toBeGreaterThan(10);
        expect(scan.leaks()).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});
