// What the OAuth fixture remembers: clients, codes, tokens and its counters (not exported from
// the package). The endpoints change it; the running fixture reads it.
import { randomBytes } from 'node:crypto';
import type { OAuthFixtureClient, OAuthFixtureCounts } from './oauth-fixture-types.js';

/** The public client that always exists; it accepts any loopback `…/callback` port. */
export const PRE_REGISTERED_CLIENT_ID = 'garuda-preregistered';

/** One approval: the codes, access and refresh tokens that stem from it share it. */
export interface Grant {
  readonly clientId: string;
  readonly scope: string;
  readonly resource: string;
}

/** An authorization code: redeemable once, until it expires or is revoked. */
export interface Code {
  readonly grant: Grant;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly expiresAtMs: number;
  used: boolean;
  revoked: boolean;
}

/** An access or refresh token, by value in {@link FixtureStore}. */
export interface IssuedToken {
  readonly grant: Grant;
  expiresAtMs: number;
  revoked: boolean;
}

/** The whole state of one fixture. */
export interface FixtureStore {
  readonly counts: OAuthFixtureCounts;
  /** Short lines such as `token refresh_token fixture-client-1`; never a token value. */
  readonly events: string[];
  readonly clients: Map<string, OAuthFixtureClient>;
  readonly codes: Map<string, Code>;
  readonly accessTokens: Map<string, IssuedToken>;
  readonly refreshTokens: Map<string, IssuedToken>;
  /** The query of the latest `GET /authorize`, first value of each parameter. */
  lastAuthorizationRequest: Record<string, string> | undefined;
  /**
   * What requests carried, for {@link OAuthFixture.heard}: every query and form value, every
   * registration body and `Authorization` header. Kept in memory only, never in `events`.
   */
  readonly heard: string[];
  /** Resources of other fixtures this authorization server also issues tokens for. */
  readonly otherResources: Set<string>;
}

/** An empty store: nothing counted, only the pre-registered client known. */
export function createFixtureStore(): FixtureStore {
  return {
    counts: {
      registrations: 0,
      authorizations: 0,
      codesIssued: 0,
      tokensIssued: 0,
      refreshes: 0,
      revocations: 0,
      mcpRequests: 0,
      rejectedTokens: 0,
      insufficientScope: 0,
      metadataDocuments: 0,
    },
    events: [],
    clients: new Map<string, OAuthFixtureClient>([
      [
        PRE_REGISTERED_CLIENT_ID,
        { clientId: PRE_REGISTERED_CLIENT_ID, redirectUris: [], preRegistered: true },
      ],
    ]),
    codes: new Map(),
    accessTokens: new Map(),
    refreshTokens: new Map(),
    lastAuthorizationRequest: undefined,
    heard: [],
    otherResources: new Set(),
  };
}

/** A fresh random secret, `<prefix>_<base64url>`: a code or a token value. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/**
 * Stores an access token (and a fresh refresh token) for a grant.
 *
 * @returns the RFC 6749 §5.1 token response that carries both
 */
export function issueTokens(
  store: FixtureStore,
  grant: Grant,
  tokenTtlSeconds: number,
): Record<string, unknown> {
  const accessToken = newSecret('at');
  const refreshToken = newSecret('rt');
  store.accessTokens.set(accessToken, {
    grant,
    expiresAtMs: Date.now() + tokenTtlSeconds * 1000,
    revoked: false,
  });
  store.refreshTokens.set(refreshToken, { grant, expiresAtMs: Infinity, revoked: false });
  store.counts.tokensIssued++;
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: tokenTtlSeconds,
    refresh_token: refreshToken,
    scope: grant.scope,
  };
}

/** Revokes every access and refresh token of a grant. */
export function revokeGrant(store: FixtureStore, grant: Grant): void {
  for (const map of [store.accessTokens, store.refreshTokens]) {
    for (const token of map.values()) if (token.grant === grant) token.revoked = true;
  }
}

/** Every access token issued so far expires now; refresh tokens stay valid. */
export function expireAllTokens(store: FixtureStore): void {
  const past = Date.now() - 1000;
  for (const issued of store.accessTokens.values()) issued.expiresAtMs = past;
  store.events.push('test: all access tokens expired');
}

/** Every access token, refresh token and unused code issued so far is revoked. */
export function revokeAll(store: FixtureStore): void {
  for (const map of [store.accessTokens, store.refreshTokens]) {
    for (const issued of map.values()) issued.revoked = true;
  }
  for (const code of store.codes.values()) code.revoked = true;
  store.events.push('test: everything revoked');
}
