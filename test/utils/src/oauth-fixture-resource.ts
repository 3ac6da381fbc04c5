// The OAuth fixture's protected resource: the fixture MCP tools behind `Authorization: Bearer`,
// with RFC 6750 challenges and per-tool scopes (not exported from the package).
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { McpEndpoint } from './mcp-endpoint.js';
import type { FixtureSite } from './oauth-fixture-metadata.js';
import { sendWebResponse, toWebRequest } from './node-bridge.js';
import type { Handler } from './oauth-fixture-replies.js';
import type { FixtureStore } from './oauth-fixture-store.js';

/** What `/mcp` reads; the flags are those of {@link OAuthFixtureOptions}. */
export interface ProtectedMcpOptions {
  readonly store: FixtureStore;
  readonly site: Readonly<FixtureSite>;
  readonly mcp: McpEndpoint;
  readonly rejectEveryToken: boolean;
  readonly challengeScope: string | undefined;
  readonly toolScopes: Readonly<Record<string, string>>;
}

/**
 * `/mcp`: `401` with `WWW-Authenticate: Bearer resource_metadata="…"` (and `scope`, given
 * `challengeScope`) without a token, `401 invalid_token` for a token the fixture did not issue
 * or no longer honours, `403 insufficient_scope` for a tool call the token's scopes do not
 * cover; otherwise the fixture tools answer.
 */
export function protectedMcpEndpoint(options: ProtectedMcpOptions): Handler {
  const { store, site, mcp, rejectEveryToken, challengeScope, toolScopes } = options;
  const { accessTokens, counts, events } = store;

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (rejectEveryToken) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token refused');
      // After a move, only the new authorization server's tokens count: the old ones are refused.
      const issued = (site.movedTo?.store.accessTokens ?? accessTokens).get(token);
      if (!issued) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token');
      if (issued.revoked) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was revoked');
      return {
        token,
        clientId: issued.grant.clientId,
        scopes: issued.grant.scope.split(' ').filter(Boolean),
        expiresAt: issued.expiresAtMs / 1000,
        resource: new URL(issued.grant.resource),
      };
    },
  };

  /** The scope a `tools/call` request needs beyond a plain sign-in, from `toolScopes`. */
  async function scopeNeeded(request: Request): Promise<string | undefined> {
    if (request.method !== 'POST') return undefined;
    let message: unknown;
    try {
      message = JSON.parse(await request.clone().text());
    } catch {
      return undefined;
    }
    if (typeof message !== 'object' || message === null) return undefined;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
    return Object.hasOwn(toolScopes, params.name) ? toolScopes[params.name] : undefined;
  }

  return async (req, res) => {
    counts.mcpRequests++;
    const { resourceMetadataUrl } = site;
    const header = req.headers.authorization;
    if (header) store.heard.push(header);
    if (!header) {
      events.push(`mcp ${req.method ?? 'GET'} 401 no token`);
      // RFC 6750 §3.1: no error code when the request carried no credentials.
      const scopePart = challengeScope === undefined ? '' : `, scope="${challengeScope}"`;
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"${scopePart}`,
          'content-type': 'text/plain',
        })
        .end('Sign-in required.');
      req.resume();
      return;
    }
    let info: AuthInfo;
    try {
      info = await verifyBearerToken(header, {
        verifier,
        expectedResource: site.mcpUrl,
        resourceMetadataUrl,
      });
    } catch (error) {
      counts.rejectedTokens++;
      const reason = error instanceof OAuthError ? error.message : 'verification failed';
      events.push(`mcp ${req.method ?? 'GET'} 401 invalid_token: ${reason}`);
      req.resume();
      return sendWebResponse(bearerAuthChallengeResponse(error, { resourceMetadataUrl }), res);
    }
    const request = await toWebRequest(req, res);
    if (!request) return;
    const needed = await scopeNeeded(request);
    if (needed !== undefined && !info.scopes.includes(needed)) {
      counts.insufficientScope++;
      events.push(`mcp ${request.method} 403 insufficient_scope: ${needed}`);
      const wanted = [...info.scopes, needed].join(' ');
      res
        .writeHead(403, {
          'www-authenticate':
            `Bearer error="insufficient_scope", scope="${wanted}", ` +
            `resource_metadata="${resourceMetadataUrl}"`,
          'content-type': 'text/plain',
        })
        .end('More access is needed.');
      return;
    }
    events.push(`mcp ${req.method ?? 'GET'} ok`);
    return mcp.handleRequest(request, res);
  };
}
