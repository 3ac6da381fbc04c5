import { brand, CodedError, errnoCode, quote } from '@garuda/internal';
import { cleanLine } from '@garuda/mcp-sanitize';

/**
 * Stable codes of the errors this package throws. The auth file's lock and file failures are
 * `@garuda/mcp-trust`'s `LockedFileError`, passed through with its own codes.
 */
export const OAuthFlowErrorCode = {
  /** An argument or option is not usable (a bad path, name, URL, port, time limit…). */
  INVALID_OPTION: 'OAUTH_INVALID_OPTION',
  /** A value given to `AuthStore.update` cannot be stored (not plain JSON, or a bad field). */
  INVALID_ENTRY: 'OAUTH_INVALID_ENTRY',
  /** The provider was used before `prepare()` chose its callback port. */
  PROVIDER_NOT_READY: 'OAUTH_PROVIDER_NOT_READY',
  /** The authorization server has an endpoint that is not https (or no metadata at all). */
  INSECURE_AUTHORIZATION_SERVER: 'OAUTH_INSECURE_AUTHORIZATION_SERVER',
  /** The authorization server does not advertise PKCE with S256. */
  PKCE_NOT_SUPPORTED: 'OAUTH_PKCE_NOT_SUPPORTED',
  /**
   * No OAuth client can be had: no client id is configured, and the authorization server takes
   * neither a Client ID Metadata Document (or none is set) nor a dynamic registration.
   */
  NO_CLIENT_REGISTRATION: 'OAUTH_NO_CLIENT_REGISTRATION',
  /**
   * The configured client id was used with another authorization server than the one the server
   * now sends sign-ins to (SEP-2352): it is not sent to the new one.
   */
  CLIENT_ISSUER_MISMATCH: 'OAUTH_CLIENT_ISSUER_MISMATCH',
  /** The sign-in page address built for the browser is not one this package may open. */
  UNSAFE_AUTHORIZATION_URL: 'OAUTH_UNSAFE_AUTHORIZATION_URL',
  /** A code arrived but no sign-in is in progress (no code verifier is stored). */
  NO_SIGN_IN_IN_PROGRESS: 'OAUTH_NO_SIGN_IN_IN_PROGRESS',
  /** The registered callback port is now used by another program; the next attempt uses a new one. */
  CALLBACK_PORT_CHANGED: 'OAUTH_CALLBACK_PORT_CHANGED',
  /** The callback server could not listen: the port is in use. */
  CALLBACK_PORT_IN_USE: 'OAUTH_CALLBACK_PORT_IN_USE',
  /** The callback server failed for another reason. */
  CALLBACK_SERVER_FAILED: 'OAUTH_CALLBACK_SERVER_FAILED',
  /** No valid callback arrived within the time limit. */
  CALLBACK_TIMEOUT: 'OAUTH_CALLBACK_TIMEOUT',
  /** The sign-in was stopped through its `AbortSignal` (Ctrl-C). */
  SIGN_IN_ABORTED: 'OAUTH_SIGN_IN_ABORTED',
  /** The authorization server answered with an `error` (for example `access_denied`). */
  AUTHORIZATION_DENIED: 'OAUTH_AUTHORIZATION_DENIED',
  /** A pasted redirect address carries another `state` than the sign-in in progress. */
  STATE_MISMATCH: 'OAUTH_STATE_MISMATCH',
  /** A pasted redirect address is not usable (not a URL, not our callback, no code…). */
  INVALID_REDIRECT_URL: 'OAUTH_INVALID_REDIRECT_URL',
  /** `openBrowser` was asked to open an address it must not open. */
  UNSAFE_BROWSER_URL: 'OAUTH_UNSAFE_BROWSER_URL',
  /**
   * The OS keychain did not answer (no Secret Service, locked, timed out) where the auth store
   * needs it: a sign-in stored with `tokenStorage: 'keyring'`, or one whose secret it holds.
   */
  KEYRING_UNAVAILABLE: 'OAUTH_KEYRING_UNAVAILABLE',
} as const;

/** One of the {@link OAuthFlowErrorCode} values. */
export type OAuthFlowErrorCode = (typeof OAuthFlowErrorCode)[keyof typeof OAuthFlowErrorCode];

const SCOPE = 'garuda.mcp-oauth';

/**
 * Base class of every error thrown by `@garuda/mcp-oauth`, and the class of those that carry no
 * more than their `code`. Messages say what happened and what to do; they never contain a token,
 * a code, a code verifier, a `state` or a client secret, and text that came from a server is
 * cleaned and quoted.
 *
 * @example
 * ```ts
 * try {
 *   await waitForCallback({ port, state, signal });
 * } catch (error) {
 *   if (OAuthFlowError.isInstance(error) && error.code === 'OAUTH_SIGN_IN_ABORTED') return;
 *   throw error;
 * }
 * ```
 */
export class OAuthFlowError extends CodedError<OAuthFlowErrorCode> {
  /**
   * Whether `value` is an error of this package (any of its classes), also from another copy of
   * it. Every subclass has its own `isInstance`, true for that class only. Each is a plain
   * function that keeps no `this`: `errors.filter(CallbackPortInUseError.isInstance)` works.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   */
  static readonly isInstance = brand(this, SCOPE, 'OAuthFlowError');
}

/**
 * Quotes text that came from a server (an endpoint address, an error code) for a message:
 * cleaned to one line of visible text, shortened, JSON-quoted.
 * @internal
 */
export function quoteUntrusted(text: string): string {
  return quote(text, { max: 120, clean: cleanLine });
}

/** The authorization server is refused: an endpoint is not https (code `OAUTH_INSECURE_AUTHORIZATION_SERVER`). */
export class InsecureAuthorizationServerError extends OAuthFlowError {
  /** Whether `value` is an {@link InsecureAuthorizationServerError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'InsecureAuthorizationServerError');

  /** The metadata field that was refused, e.g. `authorization_endpoint`; `metadata` when there is none. */
  readonly field: string;

  /**
   * @param field - the refused metadata field
   * @param reason - what is wrong with it (server text quoted by the caller)
   */
  constructor(field: string, reason: string) {
    super(
      OAuthFlowErrorCode.INSECURE_AUTHORIZATION_SERVER,
      `refused the authorization server: ${reason}. No browser was opened and no code was ` +
        `requested; ${
          field === 'metadata'
            ? "ask the server's operator to publish its authorization server metadata " +
              '(/.well-known/oauth-authorization-server)'
            : "ask the server's operator to publish https endpoints"
        }`,
    );
    this.field = field;
  }
}

/**
 * No OAuth client can be had for this server (code `OAUTH_NO_CLIENT_REGISTRATION`): no client id is
 * configured, and its authorization server offers no dynamic registration and takes no Client
 * ID Metadata Document (or none is set). Raised before any registration is sent or any browser
 * opens; the fix is a client id from the server's operator.
 */
export class NoClientRegistrationError extends OAuthFlowError {
  /** Whether `value` is a {@link NoClientRegistrationError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'NoClientRegistrationError');

  /** The server name. */
  readonly server: string;
  /** Whether the authorization server takes Client ID Metadata Documents (none was set then). */
  readonly metadataDocumentsSupported: boolean;

  /**
   * @param server - the server name
   * @param metadataDocumentsSupported - whether the authorization server advertises
   *   `client_id_metadata_document_supported`
   */
  constructor(server: string, metadataDocumentsSupported: boolean) {
    super(
      OAuthFlowErrorCode.NO_CLIENT_REGISTRATION,
      `the authorization server of ${quote(server)} offers no dynamic client registration` +
        (metadataDocumentsSupported
          ? ' and no Client ID Metadata Document is set'
          : ' and takes no Client ID Metadata Document') +
        `, so Garuda cannot get an OAuth client there: ask the server's operator for a client id ` +
        `and set it for this server, "oauth": { "clientId": "<id>" }` +
        (metadataDocumentsSupported ? ' (or "clientMetadataUrl": "<https URL>")' : ''),
    );
    this.server = server;
    this.metadataDocumentsSupported = metadataDocumentsSupported;
  }
}

/**
 * The configured client id belongs to another authorization server (code
 * `OAUTH_CLIENT_ISSUER_MISMATCH`). A pre-registered client id is issued by one authorization server
 * (RFC 6749 §2.2); it was first used with `clientIssuer`, and the server's resource metadata now
 * names `issuer`. Nothing was sent to `issuer`; the fix is a client id from the new server, or a
 * sign-out, which forgets the old binding.
 */
export class ClientIssuerMismatchError extends OAuthFlowError {
  /** Whether `value` is a {@link ClientIssuerMismatchError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'ClientIssuerMismatchError');

  /** The server name. */
  readonly server: string;
  /** The authorization server the configured client id was used with. */
  readonly clientIssuer: string;
  /** The authorization server the server names now. */
  readonly issuer: string;

  /**
   * @param server - the server name
   * @param clientIssuer - where the configured client id was used
   * @param issuer - where the server sends sign-ins now
   */
  constructor(server: string, clientIssuer: string, issuer: string) {
    super(
      OAuthFlowErrorCode.CLIENT_ISSUER_MISMATCH,
      `${quote(server)} now sends sign-ins to the authorization server ${quoteUntrusted(issuer)}, ` +
        `but its configured client id was issued for ${quoteUntrusted(clientIssuer)}; Garuda does ` +
        `not send it to another server. Set the client id the new server gave you in "oauth": ` +
        `{ "clientId": "<id>" } (or remove it to register there), or sign out of ` +
        `${quote(server)} if the same id is meant for the new server`,
    );
    this.server = server;
    this.clientIssuer = clientIssuer;
    this.issuer = issuer;
  }
}

/** The registered callback port is taken; the next attempt uses a new one (code `OAUTH_CALLBACK_PORT_CHANGED`). */
export class CallbackPortChangedError extends OAuthFlowError {
  /** Whether `value` is a {@link CallbackPortChangedError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'CallbackPortChangedError');

  /** The port that is taken. */
  readonly oldPort: number;
  /** The port the next attempt will use. */
  readonly newPort: number;

  /**
   * @param name - the server name
   * @param oldPort - the port that is taken
   * @param newPort - the port the next attempt will use
   * @param reRegister - whether the client must be registered again for the new port
   */
  constructor(name: string, oldPort: number, newPort: number, reRegister: boolean) {
    super(
      OAuthFlowErrorCode.CALLBACK_PORT_CHANGED,
      `the sign-in callback port ${oldPort} of ${quote(name)} is used by another program; the ` +
        `next attempt listens on port ${newPort}${reRegister ? ' and registers again with the authorization server' : ''}: start the sign-in again`,
    );
    this.oldPort = oldPort;
    this.newPort = newPort;
  }
}

/** The callback server could not listen because its port is taken (code `OAUTH_CALLBACK_PORT_IN_USE`). */
export class CallbackPortInUseError extends OAuthFlowError {
  /** Whether `value` is a {@link CallbackPortInUseError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'CallbackPortInUseError');

  /** The port. */
  readonly port: number;

  /**
   * @param host - the loopback address
   * @param port - the port
   * @param cause - the listen error
   */
  constructor(host: string, port: number, cause: unknown) {
    super(
      OAuthFlowErrorCode.CALLBACK_PORT_IN_USE,
      `cannot wait for the sign-in callback: port ${port} on ${host} is used by another ` +
        `program. Close it, or start the sign-in again (Garuda then picks another port)`,
      { cause },
    );
    this.port = port;
  }
}

/** The authorization server answered with an error (code `OAUTH_AUTHORIZATION_DENIED`). */
export class AuthorizationDeniedError extends OAuthFlowError {
  /** Whether `value` is an {@link AuthorizationDeniedError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'AuthorizationDeniedError');

  /**
   * The short OAuth error code (`access_denied`, `invalid_scope`…), or `unrecognized_error` when
   * the server sent something that is not a plain code. The server's `error_description` is
   * attacker-controlled text and is never kept.
   */
  readonly error: string;

  /** @param error - the short error code, already checked with `safeErrorCode` */
  constructor(error: string) {
    const advice =
      error === 'access_denied'
        ? 'the sign-in was declined in the browser'
        : 'the authorization server refused the sign-in';
    super(
      OAuthFlowErrorCode.AUTHORIZATION_DENIED,
      `${advice} (error ${JSON.stringify(error)}); start the sign-in again if that was a mistake`,
    );
    this.error = error;
  }
}

// The failures below carry no more than their code and message: they are OAuthFlowErrors,
// made here so that each message is written once.

/** An argument or option is unusable (code `OAUTH_INVALID_OPTION`). @internal */
export function invalidOption(reason: string): OAuthFlowError {
  return new OAuthFlowError(OAuthFlowErrorCode.INVALID_OPTION, reason);
}

/** A value given to the auth store cannot be stored (code `OAUTH_INVALID_ENTRY`); never the value itself. @internal */
export function invalidEntry(reason: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.INVALID_ENTRY,
    `the auth entry cannot be stored: ${reason}; use plain objects, arrays, strings, finite ` +
      `numbers, booleans and null`,
  );
}

/** The provider of server `name` was used before its callback port was chosen (code `OAUTH_PROVIDER_NOT_READY`). @internal */
export function providerNotReady(name: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.PROVIDER_NOT_READY,
    `the OAuth provider of ${quote(name)} has no callback port yet: call await ` +
      `provider.prepare() (or create it with createOAuthProvider) before using it`,
  );
}

/** The authorization server `issuer` does not advertise PKCE S256 (code `OAUTH_PKCE_NOT_SUPPORTED`). @internal */
export function pkceNotSupported(issuer: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.PKCE_NOT_SUPPORTED,
    `refused the authorization server ${quoteUntrusted(issuer)}: it does not advertise PKCE ` +
      `with S256 (code_challenge_methods_supported), which MCP requires to protect the sign-in ` +
      `code. No browser was opened; ask the server's operator to enable it`,
  );
}

/** The sign-in address is not one we may send a browser to (code `OAUTH_UNSAFE_AUTHORIZATION_URL`). @internal */
export function unsafeAuthorizationUrl(reason: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.UNSAFE_AUTHORIZATION_URL,
    `refused to open the sign-in page: ${reason}. No browser was opened`,
  );
}

/** A code must be exchanged but no sign-in to `name` is in progress (code `OAUTH_NO_SIGN_IN_IN_PROGRESS`). @internal */
export function noSignInInProgress(name: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.NO_SIGN_IN_IN_PROGRESS,
    `no sign-in to ${quote(name)} is in progress (its code verifier is gone: the sign-in ` +
      `finished, was cancelled or signed out meanwhile): start the sign-in again`,
  );
}

/** The callback server on `host:port` failed for another reason (code `OAUTH_CALLBACK_SERVER_FAILED`). @internal */
export function callbackServerFailed(host: string, port: number, cause: unknown): OAuthFlowError {
  const code = errnoCode(cause);
  return new OAuthFlowError(
    OAuthFlowErrorCode.CALLBACK_SERVER_FAILED,
    `the sign-in callback server on ${host}:${port} failed${code ? ` (${code})` : ''}: ` +
      `start the sign-in again`,
    { cause },
  );
}

/** No valid callback arrived within `timeoutMs` (code `OAUTH_CALLBACK_TIMEOUT`). @internal */
export function callbackTimeout(timeoutMs: number): OAuthFlowError {
  const minutes = timeoutMs >= 60_000 ? `${Math.round(timeoutMs / 60_000)} min` : `${timeoutMs} ms`;
  return new OAuthFlowError(
    OAuthFlowErrorCode.CALLBACK_TIMEOUT,
    `the sign-in did not come back within ${minutes}: the callback server was stopped. Start ` +
      `the sign-in again, or paste the address your browser ended on`,
  );
}

/** The sign-in was stopped through its signal; `cause` is the signal's reason (code `OAUTH_SIGN_IN_ABORTED`). @internal */
export function signInAborted(cause?: unknown): OAuthFlowError {
  return new OAuthFlowError(OAuthFlowErrorCode.SIGN_IN_ABORTED, 'the sign-in was cancelled', {
    cause,
  });
}

/** A pasted redirect carries another `state`, or none (code `OAUTH_STATE_MISMATCH`). @internal */
export function stateMismatch(missing: boolean): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.STATE_MISMATCH,
    `the pasted address ${missing ? 'has no state' : 'belongs to another sign-in (its state differs)'}: ` +
      `paste the address from the sign-in you started last, or start the sign-in again`,
  );
}

/** A pasted redirect address is not usable; `reason` never holds the pasted text (code `OAUTH_INVALID_REDIRECT_URL`). @internal */
export function invalidRedirectUrl(reason: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.INVALID_REDIRECT_URL,
    `the pasted address cannot finish the sign-in: ${reason}`,
  );
}

/** `openBrowser` refused an address (code `OAUTH_UNSAFE_BROWSER_URL`). @internal */
export function unsafeBrowserUrl(reason: string): OAuthFlowError {
  return new OAuthFlowError(
    OAuthFlowErrorCode.UNSAFE_BROWSER_URL,
    `refused to open the browser: ${reason}`,
  );
}

/**
 * The OS keychain cannot be used where the auth store needs it (code `OAUTH_KEYRING_UNAVAILABLE`): no
 * Secret Service on the session bus, a locked keychain, no answer within the time limit, or no
 * keychain binding for this platform. Nothing was stored or read there; with
 * `tokenStorage: 'auto'` the store uses the file instead and never throws this.
 */
export class KeyringUnavailableError extends OAuthFlowError {
  /** Whether `value` is a {@link KeyringUnavailableError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'KeyringUnavailableError');

  /** Why, in one line (ours, or the keychain's own error, cleaned); never a secret. */
  readonly reason: string;

  /**
   * @param reason - why the keychain cannot be used, one cleaned line
   * @param cause - the underlying error, if any
   */
  constructor(reason: string, cause?: unknown) {
    super(
      OAuthFlowErrorCode.KEYRING_UNAVAILABLE,
      `the OS keychain cannot be used: ${reason}. Unlock or start the keychain and try again, ` +
        `or keep the tokens elsewhere (token storage file or session)`,
      { cause },
    );
    this.reason = reason;
  }
}
