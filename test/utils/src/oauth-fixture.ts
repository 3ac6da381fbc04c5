// The small OAuth server of the tests: startOAuthFixture puts the endpoints of the
// oauth-fixture-*.ts modules on one loopback server. Its public types live in oauth-fixture-types.ts.
import {
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
} from '@modelcontextprotocol/server';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerFailure, assertHttpMode, createMcpEndpoint } from './mcp-endpoint.js';
import { authorizeEndpoint } from './oauth-fixture-authorize.js';
import { clientLookup, registerEndpoint } from './oauth-fixture-clients.js';
import {
  authorizationServerMetadata,
  metadataEndpoint,
  type FixtureSite,
} from './oauth-fixture-metadata.js';
import { sendPlain } from './oauth-fixture-replies.js';
import { protectedMcpEndpoint } from './oauth-fixture-resource.js';
import {
  PRE_REGISTERED_CLIENT_ID,
  createFixtureStore,
  expireAllTokens,
  revokeAll,
  type FixtureStore,
} from './oauth-fixture-store.js';
import { revokeEndpoint, tokenEndpoint } from './oauth-fixture-token.js';
import type { OAuthFixture, OAuthFixtureOptions } from './oauth-fixture-types.js';

export {
  INSECURE_AUTHORIZATION_HOST,
  OAUTH_DENY_DESCRIPTION,
  WRONG_ISSUER,
  type OAuthFixture,
  type OAuthFixtureClient,
  type OAuthFixtureCounts,
  type OAuthFixtureOptions,
} from './oauth-fixture-types.js';

/**
 * Starts a small OAuth 2.1 authorization server and a Streamable HTTP MCP endpoint that accepts
 * only its access tokens, both on one `node:http` server on 127.0.0.1 (port 0).
 *
 * - `GET /.well-known/oauth-protected-resource/mcp` (RFC 9728) names the issuer.
 * - `GET /.well-known/oauth-authorization-server` (RFC 8414): issuer = base URL.
 * - `POST /register` (RFC 7591): public clients only, loopback `…/callback` redirect URIs.
 * - `GET /authorize`: checks client, exact redirect URI, `response_type=code`, PKCE S256 and
 *   `resource`, then approves at once with a 302 (`code`, `state`, `iss`).
 * - `POST /token`: `authorization_code` (PKCE, redirect URI, resource, one-time code) and
 *   `refresh_token` (rotating); RFC 6749 JSON errors.
 * - `POST /revoke` (RFC 7009).
 * - `/mcp`: the fixture tools behind `Authorization: Bearer`; otherwise `401` with
 *   `WWW-Authenticate: Bearer resource_metadata="…"`.
 *
 * Nothing is logged; everything is counted ({@link OAuthFixture.counts}, `events`).
 *
 * @param options - see {@link OAuthFixtureOptions}
 * @returns the running fixture
 * @throws TypeError for an unknown mode, a non-positive `tokenTtlSeconds` or a bad scope
 * @example
 * const oauth = await startOAuthFixture({ tokenTtlSeconds: 1 });
 * try {
 *   const transport = new StreamableHTTPClientTransport(oauth.url, { authProvider });
 *   ...
 * } finally {
 *   await oauth.close();
 * }
 */
export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const {
    mode = 'normal',
    jsonResponse = false,
    tokenTtlSeconds = 3600,
    advertisePkce = true,
    registration = true,
    revocation = true,
    issuerInAuthorizationResponse = true,
    wrongIssuer = false,
    deny = false,
    httpAuthorizationEndpoint = false,
    scopes = ['mcp:tools'],
    tls,
    rejectEveryToken = false,
    challengeScope,
    toolScopes = { write_note: 'mcp:write' },
    dropScopes = [],
    clientMetadataDocuments,
  } = options;
  assertHttpMode(mode);
  if (!(Number.isFinite(tokenTtlSeconds) && tokenTtlSeconds > 0)) {
    throw new TypeError(
      `tokenTtlSeconds must be a positive number, got ${String(tokenTtlSeconds)}`,
    );
  }
  for (const scope of [...scopes, ...(challengeScope ?? '').split(' ').filter(Boolean)]) {
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) {
      throw new TypeError(`not an OAuth scope token: ${JSON.stringify(scope)}`);
    }
  }
  const supportedScopes = [...scopes];
  if (tls && !/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(tls.hostname)) {
    throw new TypeError(
      `tls.hostname must be a lower-case DNS name, got ${JSON.stringify(tls.hostname)}`,
    );
  }

  const store = createFixtureStore();
  const clientFor = clientLookup(store, clientMetadataDocuments);
  const mcp = createMcpEndpoint(mode, jsonResponse);
  // Filled in once the port is known.
  const site: FixtureSite = {
    issuer: '',
    mcpUrl: new URL('http://127.0.0.1/mcp'),
    resourceMetadataUrl: '',
    metadata: {} as OAuthMetadata,
  };

  const serveMetadata = metadataEndpoint(site, supportedScopes);
  const serveMcp = protectedMcpEndpoint({
    store,
    site,
    mcp,
    rejectEveryToken,
    challengeScope,
    toolScopes,
  });
  const authorize = authorizeEndpoint({
    store,
    clientFor,
    site,
    supportedScopes,
    dropScopes,
    deny,
    wrongIssuer,
    issuerInAuthorizationResponse,
  });
  const token = tokenEndpoint({ store, clientFor, tokenTtlSeconds, rejectEveryToken });
  const register = registerEndpoint(store);
  const revoke = revokeEndpoint({ store, clientFor });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/.well-known/')) return serveMetadata(url, req, res);
    if (url.pathname === '/mcp') return serveMcp(req, res);
    store.heard.push(...url.searchParams.values());
    if (req.headers.authorization) store.heard.push(req.headers.authorization);

    const routes: Record<string, [string, (req: IncomingMessage, res: ServerResponse) => unknown]> =
      {
        '/authorize': ['GET', () => authorize(url, res)],
        '/token': ['POST', token],
        ...(registration && { '/register': ['POST', register] as const }),
        ...(revocation && { '/revoke': ['POST', revoke] as const }),
      };
    const route = routes[url.pathname];
    if (!route) {
      req.resume();
      return sendPlain(res, 404, 'not found');
    }
    if (method !== route[0]) {
      req.resume();
      res
        .writeHead(405, { allow: route[0], 'content-type': 'text/plain' })
        .end('method not allowed');
      return;
    }
    await route[1](req, res);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => answerFailure(res, error));
  };
  const server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, listener)
    : createServer(listener);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await mcp.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const issuer = tls ? `https://${tls.hostname}:${port}` : `http://127.0.0.1:${port}`;
  site.issuer = issuer;
  site.mcpUrl = new URL(`${issuer}/mcp`);
  site.resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(site.mcpUrl);
  site.metadata = authorizationServerMetadata(issuer, port, supportedScopes, {
    advertisePkce,
    registration,
    revocation,
    issuerInAuthorizationResponse,
    httpAuthorizationEndpoint,
    clientMetadataDocuments: clientMetadataDocuments !== undefined,
  });
  const served = structuredClone(site.metadata);

  let closed: Promise<void> | undefined;
  const fixture: OAuthFixture = {
    get url() {
      return new URL(site.mcpUrl);
    },
    port,
    issuer,
    resourceMetadataUrl: site.resourceMetadataUrl,
    authorizationServerMetadataUrl: `${issuer}/.well-known/oauth-authorization-server`,
    metadata: served,
    preRegisteredClientId: PRE_REGISTERED_CLIENT_ID,
    get counts() {
      return { ...store.counts };
    },
    events: store.events,
    get clients() {
      return [...store.clients.values()];
    },
    get lastAuthorizationRequest() {
      const last = store.lastAuthorizationRequest;
      return last && { ...last };
    },
    logs: mcp.logs,
    expireAllTokens() {
      expireAllTokens(store);
    },
    revokeAll() {
      revokeAll(store);
    },
    moveAuthorizationServer(to) {
      const target = to === undefined ? undefined : internals.get(to);
      if (to !== undefined && (target === undefined || to === fixture)) {
        throw new TypeError('moveAuthorizationServer needs another running OAuth fixture');
      }
      site.movedTo = target;
      target?.store.otherResources.add(site.mcpUrl.href);
      store.events.push(
        `test: the resource now signs in at ${to === undefined ? 'its own server' : to.issuer}`,
      );
    },
    heard(value) {
      return value !== '' && store.heard.some((text) => text.includes(value));
    },
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await mcp.close();
        await stopped;
      })();
      return closed;
    },
  };
  internals.set(fixture, { site, store });
  return fixture;
}

/** What one fixture reads of another when a resource moves between them. */
const internals = new WeakMap<OAuthFixture, { site: FixtureSite; store: FixtureStore }>();
