// The OAuth fixture's authorization endpoint, `GET /authorize`: it checks the request and
// approves at once, as a user who always says yes (not exported from the package).
import type { ServerResponse } from 'node:http';
import { acceptsRedirect, type ClientLookup } from './oauth-fixture-clients.js';
import type { FixtureSite } from './oauth-fixture-metadata.js';
import { sendPlain } from './oauth-fixture-replies.js';
import { newSecret, type FixtureStore } from './oauth-fixture-store.js';
import { OAUTH_DENY_DESCRIPTION, WRONG_ISSUER } from './oauth-fixture-types.js';

/** A code lives this long before it can no longer be redeemed. */
const CODE_TTL_MS = 60_000;

/** What `GET /authorize` reads; the flags are those of {@link OAuthFixtureOptions}. */
export interface AuthorizeOptions {
  readonly store: FixtureStore;
  readonly clientFor: ClientLookup;
  readonly site: Readonly<FixtureSite>;
  readonly supportedScopes: readonly string[];
  readonly dropScopes: readonly string[];
  readonly deny: boolean;
  readonly wrongIssuer: boolean;
  readonly issuerInAuthorizationResponse: boolean;
}

/**
 * `GET /authorize`: checks client, exact redirect URI, `response_type=code`, PKCE S256 and
 * `resource`, then redirects with a one-time `code` (or an error), `state` and `iss`. Without a
 * known client and one of its redirect URIs it answers `400` and redirects nowhere.
 */
export function authorizeEndpoint(
  options: AuthorizeOptions,
): (url: URL, res: ServerResponse) => void {
  const {
    store,
    clientFor,
    site,
    supportedScopes,
    dropScopes,
    deny,
    wrongIssuer,
    issuerInAuthorizationResponse,
  } = options;
  const { counts, events } = store;
  return (url, res) => {
    counts.authorizations++;
    const query = url.searchParams;
    const parsed: Record<string, string> = {};
    const repeated: string[] = [];
    for (const [name, value] of query) {
      if (name in parsed) repeated.push(name);
      else parsed[name] = value;
    }
    store.lastAuthorizationRequest = parsed;

    // Without a known client and its exact redirect URI, nothing may be redirected (RFC 6749 §4.1.2.1).
    const client = clientFor(parsed.client_id ?? '');
    if (!client) {
      events.push('authorize refused: unknown client_id');
      return sendPlain(res, 400, 'Sign-in refused: unknown client.');
    }
    const redirectUri = parsed.redirect_uri ?? '';
    if (!acceptsRedirect(client, redirectUri)) {
      events.push(`authorize refused: redirect_uri not registered for ${client.clientId}`);
      return sendPlain(res, 400, 'Sign-in refused: redirect URI not registered.');
    }

    const redirect = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
      if (parsed.state !== undefined) target.searchParams.set('state', parsed.state);
      const iss = wrongIssuer
        ? WRONG_ISSUER
        : issuerInAuthorizationResponse
          ? site.issuer
          : undefined;
      if (iss !== undefined) target.searchParams.set('iss', iss);
      res.writeHead(302, { location: target.href, 'cache-control': 'no-store' }).end();
    };
    const fail = (error: string, description: string) => {
      events.push(`authorize ${client.clientId} -> error=${error}: ${description}`);
      redirect({ error, error_description: description });
    };

    if (repeated.length > 0) return fail('invalid_request', `repeated parameter ${repeated[0]}`);
    if (parsed.response_type !== 'code') {
      return fail('unsupported_response_type', 'response_type must be code');
    }
    const challenge = parsed.code_challenge ?? '';
    if (!/^[A-Za-z0-9_-]{43}$/.test(challenge) || parsed.code_challenge_method !== 'S256') {
      return fail('invalid_request', 'PKCE with code_challenge_method=S256 is required');
    }
    if (parsed.resource === undefined) return fail('invalid_target', 'resource is required');
    if (parsed.resource !== site.mcpUrl.href && !store.otherResources.has(parsed.resource)) {
      return fail('invalid_target', 'unknown resource');
    }
    const requested = (parsed.scope ?? '').split(' ').filter(Boolean);
    const unknownScope = requested.find((scope) => !supportedScopes.includes(scope));
    if (unknownScope !== undefined) return fail('invalid_scope', 'unknown scope');

    if (deny) {
      events.push(`authorize ${client.clientId} -> error=access_denied`);
      return redirect({ error: 'access_denied', error_description: OAUTH_DENY_DESCRIPTION });
    }
    const code = newSecret('code');
    store.codes.set(code, {
      grant: {
        clientId: client.clientId,
        scope: (requested.length > 0 ? requested : supportedScopes)
          .filter((scope) => !dropScopes.includes(scope))
          .join(' '),
        resource: parsed.resource,
      },
      redirectUri,
      codeChallenge: challenge,
      expiresAtMs: Date.now() + CODE_TTL_MS,
      used: false,
      revoked: false,
    });
    counts.codesIssued++;
    events.push(`authorize ${client.clientId} -> code`);
    redirect({ code });
  };
}
