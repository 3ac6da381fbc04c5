// The OAuth fixture's token endpoint (`POST /token`: codes and rotating refresh tokens) and
// RFC 7009 revocation (`POST /revoke`) (not exported from the package).
import { createHash } from 'node:crypto';
import type { ClientLookup } from './oauth-fixture-clients.js';
import { oauthError, readForm, sendJson, type Handler } from './oauth-fixture-replies.js';
import { issueTokens, revokeGrant, type FixtureStore } from './oauth-fixture-store.js';

/** What `POST /token` reads; the flags are those of {@link OAuthFixtureOptions}. */
export interface TokenOptions {
  readonly store: FixtureStore;
  readonly clientFor: ClientLookup;
  readonly tokenTtlSeconds: number;
  readonly rejectEveryToken: boolean;
}

/**
 * `POST /token`, public clients only: `authorization_code` (PKCE, redirect URI, resource,
 * one-time code) and `refresh_token` (rotating); RFC 6749 JSON errors.
 */
export function tokenEndpoint(options: TokenOptions): Handler {
  const { store, clientFor, tokenTtlSeconds, rejectEveryToken } = options;
  const { codes, refreshTokens, counts, events } = store;
  return async (req, res) => {
    const fail = (status: number, error: string, description: string): void =>
      oauthError(events, res, 'token', status, error, description);
    const form = await readForm(req);
    if (form === 'too-large') return fail(413, 'invalid_request', 'body too large');
    store.heard.push(...form.values());
    if (req.headers.authorization) {
      return fail(401, 'invalid_client', 'public clients do not authenticate');
    }
    const client = clientFor(form.get('client_id') ?? '');
    if (!client) return fail(401, 'invalid_client', 'unknown client_id');
    const resource = form.get('resource');
    const grantType = form.get('grant_type');

    if (grantType === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code || code.revoked || code.grant.clientId !== client.clientId) {
        return fail(400, 'invalid_grant', 'unknown authorization code');
      }
      if (code.used) {
        // A code redeemed twice may have been stolen: the tokens it gave are withdrawn too.
        revokeGrant(store, code.grant);
        return fail(400, 'invalid_grant', 'authorization code already used');
      }
      code.used = true;
      if (Date.now() > code.expiresAtMs) {
        return fail(400, 'invalid_grant', 'authorization code expired');
      }
      if (form.get('redirect_uri') !== code.redirectUri) {
        return fail(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
      }
      const verifierValue = form.get('code_verifier') ?? '';
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifierValue)) {
        return fail(400, 'invalid_grant', 'code_verifier missing or malformed');
      }
      if (createHash('sha256').update(verifierValue).digest('base64url') !== code.codeChallenge) {
        return fail(400, 'invalid_grant', 'PKCE verification failed');
      }
      if (resource === null) return fail(400, 'invalid_target', 'resource is required');
      if (resource !== code.grant.resource) {
        return fail(400, 'invalid_target', 'resource differs from the authorization request');
      }
      events.push(`token authorization_code ${client.clientId}`);
      return sendJson(res, 200, issueTokens(store, code.grant, tokenTtlSeconds));
    }

    if (grantType === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const current = refreshTokens.get(presented);
      if (!current || current.revoked || current.grant.clientId !== client.clientId) {
        return fail(400, 'invalid_grant', 'refresh token unknown, rotated or revoked');
      }
      if (rejectEveryToken) return fail(400, 'invalid_grant', 'refresh refused (rejectEveryToken)');
      if (resource === null) return fail(400, 'invalid_target', 'resource is required');
      if (resource !== current.grant.resource) {
        return fail(400, 'invalid_target', 'resource differs from the original grant');
      }
      const scope = form.get('scope');
      const granted = current.grant.scope.split(' ');
      if (scope !== null && !scope.split(' ').every((s) => s === '' || granted.includes(s))) {
        return fail(400, 'invalid_scope', 'scope exceeds the original grant');
      }
      current.revoked = true; // rotation: each refresh token works once
      counts.refreshes++;
      events.push(`token refresh_token ${client.clientId}`);
      return sendJson(res, 200, issueTokens(store, current.grant, tokenTtlSeconds));
    }

    return fail(400, 'unsupported_grant_type', 'unsupported grant_type');
  };
}

/**
 * `POST /revoke` (RFC 7009): revokes a live token of the calling client (a refresh token with
 * the access tokens of its grant) and answers `200` whatever the token was.
 */
export function revokeEndpoint(options: Pick<TokenOptions, 'store' | 'clientFor'>): Handler {
  const { store, clientFor } = options;
  const { accessTokens, refreshTokens, counts, events } = store;
  return async (req, res) => {
    const fail = (status: number, error: string, description: string): void =>
      oauthError(events, res, 'revoke', status, error, description);
    const form = await readForm(req);
    if (form === 'too-large') return fail(413, 'invalid_request', 'body too large');
    store.heard.push(...form.values());
    const value = form.get('token');
    if (!value) return fail(400, 'invalid_request', 'token is required');
    const client = clientFor(form.get('client_id') ?? '');
    if (!client) return fail(401, 'invalid_client', 'unknown client_id');
    const asRefresh = refreshTokens.get(value);
    const asAccess = accessTokens.get(value);
    const found = asRefresh ?? asAccess;
    const kind = asRefresh ? 'refresh_token' : 'access_token';
    if (!found || found.revoked) {
      events.push('revoke: unknown or already revoked token');
    } else if (found.grant.clientId !== client.clientId) {
      events.push(`revoke: token not issued to ${client.clientId}, kept`);
    } else {
      // RFC 7009 §2.1: revoking a refresh token also ends the access tokens of its grant.
      if (asRefresh) revokeGrant(store, found.grant);
      else found.revoked = true;
      counts.revocations++;
      events.push(`revoke ${kind} ${client.clientId}`);
    }
    res.writeHead(200, { 'cache-control': 'no-store' }).end();
  };
}
