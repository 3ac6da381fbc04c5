// Who may sign in to the OAuth fixture: dynamic client registration (RFC 7591), Client ID
// Metadata Documents, and which redirect URIs a client may use (not exported from the package).
import { randomBytes } from 'node:crypto';
import { readBody } from './node-bridge.js';
import { MAX_FORM_BYTES, oauthError, sendJson, type Handler } from './oauth-fixture-replies.js';
import type { FixtureStore } from './oauth-fixture-store.js';
import type { OAuthFixtureClient, OAuthFixtureOptions } from './oauth-fixture-types.js';

/** The client a `client_id` names, or `undefined` for one the server does not know. */
export type ClientLookup = (clientId: string) => OAuthFixtureClient | undefined;

/**
 * Looks clients up in the store; a `client_id` that is the URL of one of `documents` becomes a
 * client on first use (its `redirect_uris` are the document's), counted as `metadataDocuments`.
 */
export function clientLookup(
  store: FixtureStore,
  documents: OAuthFixtureOptions['clientMetadataDocuments'],
): ClientLookup {
  return (clientId) => {
    const known = store.clients.get(clientId);
    if (known !== undefined) return known;
    const document = documents?.[clientId];
    if (document === undefined) return undefined;
    const redirectUris = document.redirect_uris;
    if (
      document.client_id !== clientId ||
      !Array.isArray(redirectUris) ||
      !redirectUris.every((uri): uri is string => typeof uri === 'string')
    ) {
      store.events.push('client metadata document refused: client_id or redirect_uris wrong');
      return undefined;
    }
    const client: OAuthFixtureClient = {
      clientId,
      redirectUris: [...redirectUris],
      preRegistered: false,
      metadataDocument: true,
      ...(typeof document.client_name === 'string' && { clientName: document.client_name }),
    };
    store.clients.set(clientId, client);
    store.counts.metadataDocuments++;
    store.events.push(`client metadata document ${clientId}`);
    return client;
  };
}

/**
 * `POST /register`: public clients only (`token_endpoint_auth_method: none`), with loopback
 * `http://127.0.0.1:<port>/callback` redirect URIs.
 */
export function registerEndpoint(store: FixtureStore): Handler {
  return async (req, res) => {
    const fail = (status: number, error: string, description: string): void =>
      oauthError(store.events, res, 'register', status, error, description);
    const body = await readBody(req, MAX_FORM_BYTES);
    if (!body) return fail(413, 'invalid_client_metadata', 'body too large');
    store.heard.push(body.toString('utf8'));
    let submitted: unknown;
    try {
      submitted = JSON.parse(body.toString('utf8'));
    } catch {
      return fail(400, 'invalid_client_metadata', 'body is not JSON');
    }
    if (typeof submitted !== 'object' || submitted === null || Array.isArray(submitted)) {
      return fail(400, 'invalid_client_metadata', 'body is not a JSON object');
    }
    const meta = submitted as Record<string, unknown>;
    const redirectUris = meta.redirect_uris;
    if (
      !Array.isArray(redirectUris) ||
      redirectUris.length === 0 ||
      !redirectUris.every(
        (uri): uri is string => typeof uri === 'string' && isLoopbackCallback(uri),
      )
    ) {
      return fail(
        400,
        'invalid_redirect_uri',
        'redirect_uris must be http://127.0.0.1:<port>/callback loopback URIs',
      );
    }
    const method = meta.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') {
      return fail(400, 'invalid_client_metadata', 'only public clients (none) are accepted');
    }
    const grantTypes = meta.grant_types ?? ['authorization_code', 'refresh_token'];
    if (!isSubsetOf(grantTypes, ['authorization_code', 'refresh_token'])) {
      return fail(400, 'invalid_client_metadata', 'unsupported grant_types');
    }
    const responseTypes = meta.response_types ?? ['code'];
    if (!isSubsetOf(responseTypes, ['code'])) {
      return fail(400, 'invalid_client_metadata', 'unsupported response_types');
    }
    const clientId = `fixture-client-${store.clients.size}-${randomBytes(3).toString('hex')}`;
    const client: OAuthFixtureClient = {
      clientId,
      redirectUris: [...redirectUris],
      preRegistered: false,
      ...(typeof meta.client_name === 'string' && { clientName: meta.client_name }),
      ...(typeof meta.scope === 'string' && { scope: meta.scope }),
    };
    store.clients.set(clientId, client);
    store.counts.registrations++;
    store.events.push(`register ${clientId} ${redirectUris.join(' ')}`);
    sendJson(res, 201, {
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: grantTypes,
      response_types: responseTypes,
      ...(client.clientName !== undefined && { client_name: client.clientName }),
      ...(client.scope !== undefined && { scope: client.scope }),
    });
  };
}

/**
 * Whether `client` may be sent back to `redirectUri`: the pre-registered client to any loopback
 * callback, a registered one to an exact URI it registered, and a metadata document's client to
 * one of the document's, on any port (RFC 8252 §7.3).
 */
export function acceptsRedirect(client: OAuthFixtureClient, redirectUri: string): boolean {
  return client.preRegistered
    ? isLoopbackCallback(redirectUri)
    : client.metadataDocument === true
      ? isLoopbackCallback(redirectUri) &&
        client.redirectUris.some((uri) => withoutPort(uri) === withoutPort(redirectUri))
      : client.redirectUris.includes(redirectUri);
}

/** `http://127.0.0.1:<port>/callback` (or `[::1]`), written canonically, nothing else. */
function isLoopbackCallback(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return (
    url.href === uri &&
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === '[::1]') &&
    url.port !== '' &&
    url.pathname === '/callback' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === ''
  );
}

/** A URL without its port, to compare loopback redirect URIs whose port may vary. */
function withoutPort(uri: string): string {
  try {
    const url = new URL(uri);
    url.port = '';
    return url.href;
  } catch {
    return uri;
  }
}

function isSubsetOf(value: unknown, allowed: readonly string[]): boolean {
  return (
    Array.isArray(value) &&
    value.every((item) => typeof item === 'string' && allowed.includes(item))
  );
}
