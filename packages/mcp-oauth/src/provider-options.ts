import { kindOf } from '@garuda/internal';
import { normalizeId } from './auth-key.js';
import type { AuthStore } from './auth-store.js';
import { hasControlCharacter } from './control-characters.js';
import { invalidOption } from './errors.js';
import type { OAuthLogger } from './logger.js';
import { SCOPE_TOKEN } from './sign-in-scopes.js';

/** The sign-in in progress, as {@link GarudaOAuthProviderOptions.onRedirect} gets it. */
export interface PendingSignIn {
  /** The `state` to expect at the callback (for `waitForCallback` or `parseRedirectUrl`). */
  state: string;
  /** The callback port (for `waitForCallback`). */
  port: number;
  /** The redirect URI, `http://127.0.0.1:<port>/callback` (for `parseRedirectUrl`). */
  redirectUri: string;
  /**
   * The scopes this sign-in asks for (the `scope` of the sign-in page), in order; empty when the
   * page names none (or, from `pendingSignIn()`, when this provider did not make the page).
   */
  scopes: readonly string[];
}

/** Options of {@link GarudaOAuthProvider}. */
export interface GarudaOAuthProviderOptions {
  /** Where clients, tokens, ports and the sign-in in progress are kept. */
  store: AuthStore;
  /** `'user'` for the person's own server, or the absolute project root for a project's server. */
  scope: string;
  /** The server name. */
  name: string;
  /** The server's MCP endpoint. */
  serverUrl: string | URL;
  /**
   * Called with the checked sign-in page once the SDK wants the person to sign in: the host
   * decides what to do (ask, open a browser, print the address, start `waitForCallback`). The
   * address has passed every check: https (or loopback http when allowed), the published
   * authorization endpoint, our state, our redirect URI, PKCE S256. A throw stops the sign-in.
   */
  onRedirect: (authorizationUrl: URL, signIn: PendingSignIn) => void | Promise<void>;
  /** `client_name` sent at registration. Default `"Garuda"`. */
  clientName?: string;
  /**
   * A client id registered beforehand with the authorization server (public client, no
   * secret). No dynamic registration is ever attempted then.
   */
  clientId?: string;
  /**
   * A Client ID Metadata Document URL (https, not the root path), used as the client id by an
   * authorization server that supports them; others get a dynamic registration.
   */
  clientMetadataUrl?: string;
  /**
   * Scopes to ask for at every sign-in, together with the scopes the server's challenges name
   * (see {@link GarudaOAuthProvider.requestScopes}). When set, they replace the SDK's fallback
   * of asking for every scope the server's resource metadata lists.
   */
  scopes?: readonly string[];
  /**
   * Accept `http:` authorization server endpoints and sign-in pages on `localhost`,
   * `127.0.0.1` or `[::1]`: only for a server the person configured themselves.
   */
  allowHttpLoopback?: boolean;
  /** Receives short notes (registered again, signed in); never a secret. */
  logger?: OAuthLogger;
}

/** The options of {@link GarudaOAuthProvider}, checked, with the server's id normalised. @internal */
export interface CheckedProviderOptions {
  readonly store: AuthStore;
  readonly id: { readonly scope: string; readonly name: string; readonly url: string };
  readonly onRedirect: GarudaOAuthProviderOptions['onRedirect'];
  readonly clientName: string;
  readonly clientId: string | undefined;
  readonly clientMetadataUrl: string | undefined;
  readonly scopes: readonly string[];
  readonly allowHttpLoopback: boolean;
  readonly logger: OAuthLogger | undefined;
}

/**
 * Checks the options of a {@link GarudaOAuthProvider}, before it keeps any of them.
 * @param options - as the caller gave them
 * @returns them checked, the id normalised (scope, name, canonical URL)
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable option
 * @internal
 */
export function checkProviderOptions(options: GarudaOAuthProviderOptions): CheckedProviderOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`the OAuth provider needs an options object, got ${kindOf(options)}`);
  }
  const {
    store,
    onRedirect,
    clientName = 'Garuda',
    clientId,
    clientMetadataUrl,
    scopes = [],
  } = options;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.get !== 'function' ||
    typeof store.update !== 'function'
  ) {
    throw invalidOption(`options.store must be an AuthStore, got ${kindOf(store)}`);
  }
  const nid = normalizeId({ scope: options.scope, name: options.name, url: options.serverUrl });
  if (typeof onRedirect !== 'function') {
    throw invalidOption(`options.onRedirect must be a function, got ${kindOf(onRedirect)}`);
  }
  if (
    typeof clientName !== 'string' ||
    clientName.trim() === '' ||
    clientName.length > 100 ||
    hasControlCharacter(clientName)
  ) {
    throw invalidOption('options.clientName must be a short line of text');
  }
  if (
    clientId !== undefined &&
    (typeof clientId !== 'string' ||
      clientId === '' ||
      clientId.length > 2048 ||
      hasControlCharacter(clientId))
  ) {
    throw invalidOption('options.clientId must be a non-empty string without control characters');
  }
  if (clientMetadataUrl !== undefined) {
    let ok: boolean;
    try {
      const url = new URL(String(clientMetadataUrl));
      ok =
        typeof clientMetadataUrl === 'string' && url.protocol === 'https:' && url.pathname !== '/';
    } catch {
      ok = false;
    }
    if (!ok) {
      throw invalidOption(
        'options.clientMetadataUrl must be an https URL with a path (a Client ID Metadata Document)',
      );
    }
    if (clientId !== undefined) {
      throw invalidOption('give options.clientId or options.clientMetadataUrl, not both');
    }
  }
  if (
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === 'string' && SCOPE_TOKEN.test(s))
  ) {
    throw invalidOption(
      'options.scopes must be an array of OAuth scope names (no spaces or quotes)',
    );
  }
  if (options.allowHttpLoopback !== undefined && typeof options.allowHttpLoopback !== 'boolean') {
    throw invalidOption('options.allowHttpLoopback must be a boolean');
  }
  return {
    store,
    id: { scope: nid.scope, name: nid.name, url: nid.url },
    onRedirect,
    clientName,
    clientId,
    clientMetadataUrl,
    scopes: [...scopes],
    allowHttpLoopback: options.allowHttpLoopback === true,
    logger: options.logger,
  };
}
