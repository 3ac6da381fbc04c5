import { log, quote } from '@garuda/internal';
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { withoutFields, type AuthEntry } from './auth-entry.js';
import type { AuthEntryId } from './auth-key.js';
import type { AuthStore } from './auth-store.js';
import { checkDiscoveryState } from './check-authorization-server.js';
import { checkSignInPage } from './check-sign-in-page.js';
import {
  CallbackPortChangedError,
  ClientIssuerMismatchError,
  invalidOption,
  NoClientRegistrationError,
  noSignInInProgress,
  providerNotReady,
  quoteUntrusted,
} from './errors.js';
import { freePort, isPortFree } from './free-port.js';
import { credentialFor, discoveryIssuer, issuerOf, sameIssuer } from './issuer-binding.js';
import type { OAuthLogger } from './logger.js';
import {
  checkProviderOptions,
  type GarudaOAuthProviderOptions,
  type PendingSignIn,
} from './provider-options.js';
import { scopeTokens, signInScopes } from './sign-in-scopes.js';

/**
 * The SDK's `OAuthClientProvider` for one MCP server, backed by an {@link AuthStore}. The SDK
 * runs the protocol (discovery, registration, PKCE, token exchange, refresh, issuer checks);
 * this provider keeps its state durable and adds what the SDK leaves to the host:
 *
 * - a public client (`token_endpoint_auth_method: "none"`) named `clientName`, with the
 *   redirect URI `http://127.0.0.1:<port>/callback`. The port is chosen at registration
 *   (`freePort()`) and kept with the client. When it is taken later, the client is dropped so
 *   the SDK registers again with a new port (at `prepare()` when possible, else at the
 *   redirect, with {@link CallbackPortChangedError} asking for one more attempt).
 * - a random `state` per sign-in, kept in the store, for the callback check the SDK does not do.
 * - a stricter check of the authorization server than the SDK's
 *   ({@link checkAuthorizationServerMetadata}: every endpoint https, PKCE S256 advertised), run
 *   when discovery is saved — before any registration or browser — and again at the redirect.
 * - code verifier, discovery state, client information and tokens persisted verbatim (issuer
 *   stamps included), and `invalidateCredentials` for every scope.
 * - credentials bound to their authorization server (SEP-2352): the server's resource metadata is
 *   read again at every authorization the SDK starts (a 401, a step-up, a new sign-in), and a
 *   client or tokens of another authorization server than the one it names are never handed to
 *   the SDK: it registers (or uses the Client ID Metadata Document) and signs in there anew.
 *
 * Call {@link GarudaOAuthProvider.prepare} (or use {@link createOAuthProvider}) before handing
 * it to a transport; the transport's first request also prepares it.
 *
 * @example
 * ```ts
 * const provider = await createOAuthProvider({
 *   store, scope: 'user', name: 'linear', serverUrl,
 *   onRedirect: (url, signIn) => { pending = { url, signIn }; },
 * });
 * const transport = new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider });
 * ```
 */
export class GarudaOAuthProvider implements OAuthClientProvider {
  /** The server name. */
  readonly name: string;
  /** `'user'` or the project root. */
  readonly scope: string;
  /** The server URL, canonical. */
  readonly serverUrl: string;
  /** The CIMD URL from the options, read by the SDK. */
  readonly clientMetadataUrl: string | undefined;

  readonly #store: AuthStore;
  readonly #id: AuthEntryId;
  readonly #onRedirect: GarudaOAuthProviderOptions['onRedirect'];
  readonly #clientName: string;
  readonly #clientId: string | undefined;
  readonly #scopes: readonly string[];
  /** Scopes asked for since this provider was made: challenges and explicit requests. */
  readonly #requested = new Set<string>();
  /** The scopes of the latest sign-in page handed to `onRedirect`. */
  #pendingScopes: readonly string[] = [];
  readonly #allowHttpLoopback: boolean;
  readonly #logger: OAuthLogger | undefined;
  #port: number | undefined;
  #preparing: Promise<void> | undefined;

  /**
   * @param options - see {@link GarudaOAuthProviderOptions}
   * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable option
   */
  constructor(options: GarudaOAuthProviderOptions) {
    const checked = checkProviderOptions(options);
    this.#store = checked.store;
    this.#id = checked.id;
    this.name = checked.id.name;
    this.scope = checked.id.scope;
    this.serverUrl = checked.id.url;
    this.#onRedirect = checked.onRedirect;
    this.#clientName = checked.clientName;
    this.#clientId = checked.clientId;
    this.clientMetadataUrl = checked.clientMetadataUrl;
    this.#scopes = checked.scopes;
    this.#allowHttpLoopback = checked.allowHttpLoopback;
    this.#logger = checked.logger;
  }

  /** The callback port, once {@link GarudaOAuthProvider.prepare} chose it. */
  get callbackPort(): number | undefined {
    return this.#port;
  }

  /**
   * Adds scopes that the next sign-ins ask for, on top of the configured ones: the `scope` of a
   * server's `WWW-Authenticate` challenge (a 401, or a 403 `insufficient_scope`), or scopes the
   * person asked for. Names that are not OAuth scope tokens are ignored.
   *
   * @param scopes - scope names, or one space-separated string as a challenge carries it
   * @example
   * ```ts
   * const { scope } = extractWWWAuthenticateParams(response); // from the SDK
   * if (scope) provider.requestScopes(scope);
   * ```
   */
  requestScopes(scopes: string | readonly string[]): void {
    for (const scope of scopeTokens(scopes)) this.#requested.add(scope);
  }

  /**
   * The redirect URI, `http://127.0.0.1:<port>/callback`.
   * @throws {@link OAuthFlowError} `OAUTH_PROVIDER_NOT_READY` before {@link GarudaOAuthProvider.prepare}
   */
  get redirectUrl(): string {
    return `http://127.0.0.1:${this.#requirePort()}/callback`;
  }

  /**
   * The metadata sent at dynamic registration: a public client with our redirect URI.
   * @throws {@link OAuthFlowError} `OAUTH_PROVIDER_NOT_READY` before {@link GarudaOAuthProvider.prepare}
   */
  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata = {
      client_name: this.#clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    if (this.#scopes.length > 0) metadata.scope = this.#scopes.join(' ');
    return metadata;
  }

  /**
   * Chooses the callback port: the one kept with the registered client when it is still free;
   * otherwise a new free one, dropping a registered client that is bound to the taken port so
   * the SDK registers again. A sign-in in progress keeps its port. Runs once per provider;
   * later calls return the same promise.
   * @returns when the port is chosen
   * @throws the store's errors (`LockedFileError` of `@garuda/mcp-trust`, passed through)
   */
  prepare(): Promise<void> {
    this.#preparing ??= this.#prepare().catch((error: unknown) => {
      this.#preparing = undefined;
      throw error;
    });
    return this.#preparing;
  }

  async #prepare(): Promise<void> {
    const entry = await this.#store.get(this.#id);
    const kept = entry?.port;
    if (kept !== undefined && entry?.codeVerifier !== undefined) {
      this.#port = kept;
      return;
    }
    if (kept !== undefined && (await isPortFree(kept))) {
      this.#port = kept;
      return;
    }
    const client = entry?.client;
    if (client && this.#portBound(client)) {
      if (kept !== undefined && typeof entry?.tokens?.refresh_token === 'string') {
        // The client is still needed to refresh; only a new sign-in needs the port, and the
        // redirect checks it again.
        this.#port = kept;
        return;
      }
      const port = await freePort();
      await this.#store.update(this.#id, (current) =>
        current?.client?.client_id === client.client_id
          ? withoutFields(current, ['client', 'port'])
          : current,
      );
      log(
        this.#logger,
        'info',
        `the sign-in callback port ${kept ?? '(none)'} of ${quote(this.name)} is used by another ` +
          `program: Garuda registers again with port ${port} at the next sign-in`,
      );
      this.#port = port;
      return;
    }
    this.#port = await freePort();
  }

  /**
   * A new random `state` for a sign-in, kept in the store until tokens arrive.
   * @returns 256 random bits, base64url
   */
  async state(): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    await this.#store.update(this.#id, (entry) => ({ ...entry, state }));
    return state;
  }

  /**
   * The client to use with the authorization server `ctx.issuer`: the stored one when it belongs
   * to that server (its `issuer` stamp, or for an entry stored before stamps, the server its
   * discovery names), or for a pre-registered `clientId` that id, bound to the first server it is
   * used with.
   * @param ctx - the authorization server's issuer, from the SDK
   * @returns the client with its issuer stamp, or `undefined` (the SDK then uses the Client ID
   *   Metadata Document or registers one)
   * @throws {@link NoClientRegistrationError} when there is no client and the authorization
   *   server takes neither (checked against the discovery the SDK saved just before)
   * @throws {@link ClientIssuerMismatchError} when the configured client id was used with
   *   another authorization server
   */
  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const entry = await this.#store.get(this.#id);
    const stored = entry?.client;
    const issuer = ctx?.issuer;
    const client =
      issuer === undefined || entry === undefined ? stored : credentialFor(stored, entry, issuer);
    if (this.#clientId !== undefined) {
      if (client?.client_id === this.#clientId) return client;
      // A pre-registered id is issued by one authorization server: bound to the first one it is
      // used with, it is never sent to another.
      const bound =
        stored?.client_id === this.#clientId && entry ? issuerOf(stored, entry) : undefined;
      if (issuer !== undefined && bound !== undefined && !sameIssuer(bound, issuer)) {
        throw new ClientIssuerMismatchError(this.name, bound, issuer);
      }
      // Never undefined here: that would make the SDK register a client dynamically.
      if (issuer === undefined) return { client_id: this.#clientId };
      const bind = { client_id: this.#clientId, issuer };
      await this.prepare();
      await this.saveClientInformation(bind);
      return bind;
    }
    if (client === undefined) {
      // The SDK would now use a metadata document or register; when the server takes neither,
      // say what to configure rather than letting a registration fail.
      const metadata = entry?.discovery?.authorizationServerMetadata as
        Record<string, unknown> | undefined;
      if (metadata !== undefined) {
        const documents = metadata.client_id_metadata_document_supported === true;
        const canRegister = typeof metadata.registration_endpoint === 'string';
        if (!canRegister && !(documents && this.clientMetadataUrl !== undefined)) {
          throw new NoClientRegistrationError(this.name, documents);
        }
      }
    }
    return client;
  }

  /**
   * Keeps the client the SDK registered (or stamped), verbatim, with the current callback port.
   * @param clientInformation - from the SDK, with its `issuer` stamp
   * @param ctx - the issuer context: the stamp when the value has none
   */
  async saveClientInformation(
    clientInformation: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    clientInformation = stamped(clientInformation, ctx);
    const port = this.#requirePort();
    let registered = false;
    await this.#store.update(this.#id, (entry) => {
      registered = entry?.client?.client_id !== clientInformation.client_id;
      return { ...entry, client: clientInformation, port };
    });
    if (registered && this.#portBound(clientInformation)) {
      log(
        this.#logger,
        'debug',
        `registered Garuda with the authorization server of ${quote(this.name)} (callback port ${port})`,
      );
    }
  }

  /**
   * The stored tokens. Without `ctx` (the SDK's read before every request to the MCP server,
   * which the tokens were issued for) the latest ones; with `ctx` (before a refresh at the
   * authorization server `ctx.issuer`) only tokens that server issued, so a refresh token never
   * goes to another one. Prepares the provider on first use.
   * @param ctx - the authorization server about to be used, from the SDK
   * @returns the tokens with their issuer stamp, or `undefined`
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    await this.prepare();
    const entry = await this.#store.get(this.#id);
    if (ctx?.issuer === undefined || entry === undefined) return entry?.tokens;
    return credentialFor(entry.tokens, entry, ctx.issuer);
  }

  /**
   * Keeps new tokens verbatim. New tokens end a sign-in in progress: its verifier and `state`
   * are dropped.
   * @param tokens - from the SDK, with its `issuer` stamp
   * @param ctx - the issuer context: the stamp when the value has none
   */
  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    tokens = stamped(tokens, ctx);
    let signedIn = false;
    const savedAt = this.#store.now().toISOString();
    await this.#store.update(this.#id, (entry) => {
      const next: AuthEntry = { ...entry, tokens, tokensSavedAt: savedAt };
      // Re-saving the same tokens (the SDK adding an issuer stamp) is not the end of a sign-in.
      if (entry?.tokens?.access_token !== tokens.access_token) {
        signedIn = entry?.codeVerifier !== undefined;
        delete next.codeVerifier;
        delete next.state;
      }
      return next;
    });
    log(
      this.#logger,
      signedIn ? 'info' : 'debug',
      signedIn ? `signed in to ${quote(this.name)}` : `saved new tokens for ${quote(this.name)}`,
    );
  }

  /**
   * Checks the sign-in page and hands it to `onRedirect`. Refused, before anything is opened:
   * an authorization server that fails {@link checkAuthorizationServerMetadata}; an address that
   * is not https (loopback http only when allowed), not the published authorization endpoint,
   * or without our `state`, redirect URI or PKCE S256. When the callback port is now taken, the
   * sign-in is dropped and {@link CallbackPortChangedError} asks for another attempt (with a new
   * port, and a new registration for a dynamically registered client).
   * @param authorizationUrl - the address the SDK built
   * @throws {@link InsecureAuthorizationServerError}, {@link OAuthFlowError} `OAUTH_PKCE_NOT_SUPPORTED`,
   *   {@link OAuthFlowError} `OAUTH_UNSAFE_AUTHORIZATION_URL`, {@link CallbackPortChangedError}, and whatever
   *   `onRedirect` throws
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const port = this.#requirePort();
    const entry = await this.#store.get(this.#id);
    const { url, state } = checkSignInPage(authorizationUrl, {
      metadata: entry?.discovery?.authorizationServerMetadata,
      state: entry?.state,
      redirectUri: this.redirectUrl,
      allowHttpLoopback: this.#allowHttpLoopback,
    });
    const scopes = signInScopes(url.searchParams.get('scope'), this.#scopes, this.#requested);
    if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
    this.#pendingScopes = scopes;
    if (!(await isPortFree(port))) {
      const newPort = await freePort();
      const bound = entry?.client !== undefined && this.#portBound(entry.client);
      const drop: (keyof AuthEntry)[] = ['codeVerifier', 'state'];
      if (bound) drop.push('client', 'port');
      await this.#store.update(this.#id, (current) => current && withoutFields(current, drop));
      this.#port = newPort;
      throw new CallbackPortChangedError(this.name, port, newPort, bound);
    }
    await this.#onRedirect(new URL(url.href), {
      state,
      port,
      redirectUri: this.redirectUrl,
      scopes,
    });
  }

  /**
   * Keeps the PKCE code verifier of the sign-in that is starting.
   * @param codeVerifier - from the SDK
   */
  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#store.update(this.#id, (entry) => ({ ...entry, codeVerifier }));
  }

  /**
   * The PKCE code verifier of the sign-in in progress.
   * @returns the verifier
   * @throws {@link OAuthFlowError} `OAUTH_NO_SIGN_IN_IN_PROGRESS` when none is stored
   */
  async codeVerifier(): Promise<string> {
    const verifier = (await this.#store.get(this.#id))?.codeVerifier;
    if (verifier === undefined) throw noSignInInProgress(this.name);
    return verifier;
  }

  /**
   * Forgets what the SDK says is no longer valid.
   * @param scope - `all` (the whole entry), `client` (with its port), `tokens`, `verifier` (with
   *   the `state`), or `discovery`
   */
  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    const fields: Record<typeof scope, (keyof AuthEntry)[]> = {
      all: [],
      client: ['client', 'port'],
      tokens: ['tokens', 'tokensSavedAt'],
      verifier: ['codeVerifier', 'state'],
      discovery: ['discovery'],
    };
    const drop = fields[scope];
    if (drop === undefined)
      throw invalidOption(`unknown credential scope ${quote(String(scope), { max: 20 })}`);
    await this.#store.update(this.#id, (entry) =>
      scope === 'all' || entry === undefined ? undefined : withoutFields(entry, drop),
    );
    log(
      this.#logger,
      'debug',
      `forgot the stored ${scope === 'all' ? 'sign-in' : scope} of ${quote(this.name)}`,
    );
  }

  /**
   * Keeps which authorization server the SDK found, after checking it: refused here, before any
   * registration is sent or any browser opens, when it fails
   * {@link checkAuthorizationServerMetadata}. A client or tokens of another authorization server
   * (the resource moved, SEP-2352) are forgotten here, so the SDK registers and signs in at the
   * new one; a configured client id keeps its binding, for {@link clientInformation} to refuse.
   * @param state - from the SDK
   * @throws {@link InsecureAuthorizationServerError}, {@link OAuthFlowError} `OAUTH_PKCE_NOT_SUPPORTED`
   */
  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    checkDiscoveryState(state, this.#allowHttpLoopback);
    const issuer = discoveryIssuer(state);
    let from: string | undefined;
    await this.#store.update(this.#id, (entry) => {
      if (entry === undefined || issuer === undefined) return { ...entry, discovery: state };
      const next: AuthEntry = { ...entry, discovery: state };
      // Issuers are looked up before the discovery they come from is replaced: an entry stored
      // before stamps belongs to the server of its old discovery.
      const client = entry.client && credentialFor(entry.client, entry, issuer);
      const tokens = entry.tokens && credentialFor(entry.tokens, entry, issuer);
      if (entry.client !== undefined && client === undefined) {
        from ??= issuerOf(entry.client, entry) ?? UNKNOWN_ISSUER;
        if (entry.client.client_id === this.#clientId && issuerOf(entry.client, entry)) {
          next.client = { ...entry.client, issuer: issuerOf(entry.client, entry) };
        } else {
          delete next.client;
          delete next.port;
        }
      } else if (client !== undefined) {
        next.client = client;
      }
      if (entry.tokens !== undefined && tokens === undefined) {
        from ??= issuerOf(entry.tokens, entry) ?? UNKNOWN_ISSUER;
        delete next.tokens;
        delete next.tokensSavedAt;
      } else if (tokens !== undefined) {
        next.tokens = tokens;
      }
      return next;
    });
    if (from !== undefined && issuer !== undefined) {
      log(
        this.#logger,
        'warn',
        (from === UNKNOWN_ISSUER
          ? `the stored sign-in of ${quote(this.name)} does not say which authorization server ` +
            `issued it, so it is not used at ${quoteUntrusted(issuer)}`
          : `the authorization server of ${quote(this.name)} changed from ${quoteUntrusted(from)} ` +
            `to ${quoteUntrusted(issuer)}: its client and tokens from before are forgotten, never ` +
            `sent to the new one`) + '; Garuda registers there and asks for a new sign-in',
      );
    }
  }

  /**
   * The kept discovery state, for the code exchange of a sign-in in progress only: the code and
   * verifier belong to the authorization server the sign-in started at, and the SDK checks the
   * callback against it. Otherwise `undefined`, so the SDK reads the server's resource metadata
   * again (RFC 9728) and follows an authorization server that moved (SEP-2352); the SDK never
   * looks again by itself, and a few requests at a 401 cost less than signing in at a server the
   * resource no longer trusts. A kept state that no longer passes the checks (stored by an older
   * version, or under other options) is forgotten, so
   * {@link GarudaOAuthProvider.saveDiscoveryState} refuses the server with a clear error if it is
   * still unsafe.
   * @returns the state, or `undefined` (the SDK then discovers)
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const entry = await this.#store.get(this.#id);
    const discovery = entry?.discovery;
    if (discovery === undefined || entry?.codeVerifier === undefined) return undefined;
    try {
      checkDiscoveryState(discovery, this.#allowHttpLoopback);
      return discovery;
    } catch {
      await this.#store.update(this.#id, (current) =>
        current?.discovery === undefined ? current : withoutFields(current, ['discovery']),
      );
      log(
        this.#logger,
        'warn',
        `forgot the stored authorization server of ${quote(this.name)}: it no longer passes the ` +
          `security checks; it is looked up again`,
      );
      return undefined;
    }
  }

  /**
   * The sign-in in progress, for the paste flow or a callback started later.
   * @returns its state, port and redirect URI, or `undefined` when none is in progress
   */
  async pendingSignIn(): Promise<PendingSignIn | undefined> {
    const entry = await this.#store.get(this.#id);
    if (entry?.state === undefined || entry.codeVerifier === undefined) return undefined;
    const port = this.#port ?? entry.port;
    if (port === undefined) return undefined;
    return {
      state: entry.state,
      port,
      redirectUri: `http://127.0.0.1:${port}/callback`,
      scopes: this.#pendingScopes,
    };
  }

  // A dynamically registered client's redirect URI names the port; a pre-registered or CIMD
  // client's does not (loopback redirects may use any port, RFC 8252 §7.3).
  #portBound(client: StoredOAuthClientInformation): boolean {
    return client.client_id !== this.#clientId && client.client_id !== this.clientMetadataUrl;
  }

  #requirePort(): number {
    if (this.#port === undefined) throw providerNotReady(this.name);
    return this.#port;
  }
}

/** Where a client or tokens stored without a stamp or a discovery came from: not known. */
const UNKNOWN_ISSUER = '';

// A value the SDK saves always carries its stamp; one without gets the issuer of the call, so
// nothing is stored unbound.
function stamped<T extends StoredOAuthClientInformation | StoredOAuthTokens>(
  value: T,
  ctx: OAuthClientInformationContext | undefined,
): T {
  return typeof value.issuer === 'string' || ctx?.issuer === undefined
    ? value
    : { ...value, issuer: ctx.issuer };
}

/**
 * Creates a {@link GarudaOAuthProvider} and prepares it (chooses its callback port).
 * @param options - see {@link GarudaOAuthProviderOptions}
 * @returns the ready provider
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable option, and store errors
 * @example
 * ```ts
 * const provider = await createOAuthProvider({ store, scope: 'user', name: 'linear', serverUrl, onRedirect });
 * ```
 */
export async function createOAuthProvider(
  options: GarudaOAuthProviderOptions,
): Promise<GarudaOAuthProvider> {
  const provider = new GarudaOAuthProvider(options);
  await provider.prepare();
  return provider;
}
