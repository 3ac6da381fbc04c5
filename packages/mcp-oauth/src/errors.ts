import { cleanLine } from '@garuda/mcp-sanitize';

/** Stable codes of the errors this package throws. */
export const OAuthFlowErrorCode = {
  /** An argument or option is not usable (a bad path, name, URL, port, time limit…). */
  INVALID_OPTION: 'INVALID_OPTION',
  /** A value given to `AuthStore.update` cannot be stored (not plain JSON, or a bad field). */
  INVALID_ENTRY: 'INVALID_ENTRY',
  /** The provider was used before `prepare()` chose its callback port. */
  PROVIDER_NOT_READY: 'PROVIDER_NOT_READY',
  /** The authorization server has an endpoint that is not https (or no metadata at all). */
  INSECURE_AUTHORIZATION_SERVER: 'INSECURE_AUTHORIZATION_SERVER',
  /** The authorization server does not advertise PKCE with S256. */
  PKCE_NOT_SUPPORTED: 'PKCE_NOT_SUPPORTED',
  /**
   * No OAuth client can be had: no client id is configured, and the authorization server takes
   * neither a Client ID Metadata Document (or none is set) nor a dynamic registration.
   */
  NO_CLIENT_REGISTRATION: 'NO_CLIENT_REGISTRATION',
  /** The sign-in page address built for the browser is not one this package may open. */
  UNSAFE_AUTHORIZATION_URL: 'UNSAFE_AUTHORIZATION_URL',
  /** A code arrived but no sign-in is in progress (no code verifier is stored). */
  NO_SIGN_IN_IN_PROGRESS: 'NO_SIGN_IN_IN_PROGRESS',
  /** The registered callback port is now used by another program; the next attempt uses a new one. */
  CALLBACK_PORT_CHANGED: 'CALLBACK_PORT_CHANGED',
  /** The callback server could not listen: the port is in use. */
  CALLBACK_PORT_IN_USE: 'CALLBACK_PORT_IN_USE',
  /** The callback server failed for another reason. */
  CALLBACK_SERVER_FAILED: 'CALLBACK_SERVER_FAILED',
  /** No valid callback arrived within the time limit. */
  CALLBACK_TIMEOUT: 'CALLBACK_TIMEOUT',
  /** The sign-in was stopped through its `AbortSignal` (Ctrl-C). */
  SIGN_IN_ABORTED: 'SIGN_IN_ABORTED',
  /** The authorization server answered with an `error` (for example `access_denied`). */
  AUTHORIZATION_DENIED: 'AUTHORIZATION_DENIED',
  /** A pasted redirect address carries another `state` than the sign-in in progress. */
  STATE_MISMATCH: 'STATE_MISMATCH',
  /** A pasted redirect address is not usable (not a URL, not our callback, no code…). */
  INVALID_REDIRECT_URL: 'INVALID_REDIRECT_URL',
  /** `openBrowser` was asked to open an address it must not open. */
  UNSAFE_BROWSER_URL: 'UNSAFE_BROWSER_URL',
} as const;

/** One of the {@link OAuthFlowErrorCode} values. */
export type OAuthFlowErrorCode = (typeof OAuthFlowErrorCode)[keyof typeof OAuthFlowErrorCode];

// Markers instead of `instanceof`, so an error made by another copy of this package (two
// versions in one node_modules tree) is still recognised. Each class puts its own marker on its
// prototype, so an instance carries the markers of its class and of every class above it: that
// is what makes `X.isInstance` accept X and its subclasses, and never a sibling. The class name
// is written out, not read from `cls.name`, which bundlers and minifiers rename.
function brand<T extends object>(
  cls: abstract new (...args: never[]) => T,
  name: string,
): (value: unknown) => value is T {
  const marker = Symbol.for(`garuda.mcp-oauth.${name}`);
  Object.defineProperty(cls.prototype, marker, { value: true });
  return (value): value is T =>
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true;
}

/**
 * Base class of every error thrown by `@garuda/mcp-oauth`. Messages say what happened and what
 * to do; they never contain a token, a code, a code verifier, a `state` or a client secret, and
 * text that came from a server is cleaned and quoted.
 *
 * @example
 * ```ts
 * try {
 *   await waitForCallback({ port, state, signal });
 * } catch (error) {
 *   if (OAuthFlowError.isInstance(error) && error.code === 'SIGN_IN_ABORTED') return;
 *   throw error;
 * }
 * ```
 */
export class OAuthFlowError extends Error {
  /**
   * Whether `value` is an error of this package (any of its classes), also from another copy of
   * it. Every subclass has its own `isInstance`, true for that class and its subclasses only.
   * Each is a plain function that keeps its class, so it can be passed on as it is:
   * `errors.filter(StateMismatchError.isInstance)`.
   *
   * @param value - anything, typically a caught error
   * @returns true when `value` carries this class's marker
   * @example
   * ```ts
   * if (OAuthFlowError.isInstance(e)) ui.error(e.code, e.message);
   * ```
   */
  static readonly isInstance = brand(this, 'OAuthFlowError');

  /** A stable string from {@link OAuthFlowErrorCode}. */
  readonly code: OAuthFlowErrorCode;

  /**
   * @param code - one of {@link OAuthFlowErrorCode}
   * @param message - what happened and what to do, free of secrets
   * @param options - `cause`, passed through
   */
  constructor(code: OAuthFlowErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OAuthFlowError';
    this.code = code;
  }
}

// Controls, bidi and zero-width characters from a path must not reach a terminal through a
// message: JSON quoting escapes C0 controls, this escapes the rest.
const UNSAFE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * Quotes our own text (a path, a server name) for a message: JSON-quoted, invisible and control
 * characters escaped, long text shortened.
 * @internal
 */
export function quote(text: string, max = 200): string {
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(short).replace(
    UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Quotes text that came from a server (an endpoint address, an error code) for a message:
 * cleaned to one line of visible text, shortened, JSON-quoted.
 * @internal
 */
export function quoteUntrusted(text: string, max = 120): string {
  const line = cleanLine(text);
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line);
}

/** Describes a non-string for a message without printing it. @internal */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The `code` of a Node.js system error, if any. @internal */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** An argument or option is unusable (code `INVALID_OPTION`). */
export class InvalidOptionError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link InvalidOptionError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidOptionError');

  /** @param reason - which option, what was wrong, what is expected */
  constructor(reason: string) {
    super(OAuthFlowErrorCode.INVALID_OPTION, reason);
    this.name = 'InvalidOptionError';
  }
}

/** A value given to the auth store cannot be stored (code `INVALID_ENTRY`). */
export class InvalidEntryError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link InvalidEntryError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidEntryError');

  /** @param reason - where in the value the problem is; never the value itself */
  constructor(reason: string) {
    super(
      OAuthFlowErrorCode.INVALID_ENTRY,
      `the auth entry cannot be stored: ${reason}; use plain objects, arrays, strings, finite ` +
        `numbers, booleans and null`,
    );
    this.name = 'InvalidEntryError';
  }
}

/** The provider was used before its callback port was chosen (code `PROVIDER_NOT_READY`). */
export class ProviderNotReadyError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link ProviderNotReadyError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'ProviderNotReadyError');

  /** @param name - the server name */
  constructor(name: string) {
    super(
      OAuthFlowErrorCode.PROVIDER_NOT_READY,
      `the OAuth provider of ${quote(name)} has no callback port yet: call await ` +
        `provider.prepare() (or create it with createOAuthProvider) before using it`,
    );
    this.name = 'ProviderNotReadyError';
  }
}

/** The authorization server is refused: an endpoint is not https (code `INSECURE_AUTHORIZATION_SERVER`). */
export class InsecureAuthorizationServerError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link InsecureAuthorizationServerError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InsecureAuthorizationServerError');

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
    this.name = 'InsecureAuthorizationServerError';
    this.field = field;
  }
}

/**
 * No OAuth client can be had for this server (code `NO_CLIENT_REGISTRATION`): no client id is
 * configured, and its authorization server offers no dynamic registration and takes no Client
 * ID Metadata Document (or none is set). Raised before any registration is sent or any browser
 * opens; the fix is a client id from the server's operator.
 */
export class NoClientRegistrationError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link NoClientRegistrationError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'NoClientRegistrationError');

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
    this.name = 'NoClientRegistrationError';
    this.server = server;
    this.metadataDocumentsSupported = metadataDocumentsSupported;
  }
}

/** The authorization server does not advertise PKCE S256 (code `PKCE_NOT_SUPPORTED`). */
export class PkceNotSupportedError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link PkceNotSupportedError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'PkceNotSupportedError');

  /** @param issuer - the server's issuer, as it published it */
  constructor(issuer: string) {
    super(
      OAuthFlowErrorCode.PKCE_NOT_SUPPORTED,
      `refused the authorization server ${quoteUntrusted(issuer)}: it does not advertise PKCE ` +
        `with S256 (code_challenge_methods_supported), which MCP requires to protect the sign-in ` +
        `code. No browser was opened; ask the server's operator to enable it`,
    );
    this.name = 'PkceNotSupportedError';
  }
}

/** The sign-in address is not one we may send a browser to (code `UNSAFE_AUTHORIZATION_URL`). */
export class UnsafeAuthorizationUrlError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link UnsafeAuthorizationUrlError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'UnsafeAuthorizationUrlError');

  /** @param reason - what is wrong, server text already quoted */
  constructor(reason: string) {
    super(
      OAuthFlowErrorCode.UNSAFE_AUTHORIZATION_URL,
      `refused to open the sign-in page: ${reason}. No browser was opened`,
    );
    this.name = 'UnsafeAuthorizationUrlError';
  }
}

/** A code must be exchanged but no sign-in is in progress (code `NO_SIGN_IN_IN_PROGRESS`). */
export class NoSignInInProgressError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link NoSignInInProgressError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'NoSignInInProgressError');

  /** @param name - the server name */
  constructor(name: string) {
    super(
      OAuthFlowErrorCode.NO_SIGN_IN_IN_PROGRESS,
      `no sign-in to ${quote(name)} is in progress (its code verifier is gone: the sign-in ` +
        `finished, was cancelled or signed out meanwhile): start the sign-in again`,
    );
    this.name = 'NoSignInInProgressError';
  }
}

/** The registered callback port is taken; the next attempt uses a new one (code `CALLBACK_PORT_CHANGED`). */
export class CallbackPortChangedError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link CallbackPortChangedError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'CallbackPortChangedError');

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
    this.name = 'CallbackPortChangedError';
    this.oldPort = oldPort;
    this.newPort = newPort;
  }
}

/** The callback server could not listen because its port is taken (code `CALLBACK_PORT_IN_USE`). */
export class CallbackPortInUseError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link CallbackPortInUseError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'CallbackPortInUseError');

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
    this.name = 'CallbackPortInUseError';
    this.port = port;
  }
}

/** The callback server failed for another reason (code `CALLBACK_SERVER_FAILED`). */
export class CallbackServerError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link CallbackServerError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'CallbackServerError');

  /**
   * @param host - the loopback address
   * @param port - the port
   * @param cause - the server error
   */
  constructor(host: string, port: number, cause: unknown) {
    const code = errnoCode(cause);
    super(
      OAuthFlowErrorCode.CALLBACK_SERVER_FAILED,
      `the sign-in callback server on ${host}:${port} failed${code ? ` (${code})` : ''}: ` +
        `start the sign-in again`,
      { cause },
    );
    this.name = 'CallbackServerError';
  }
}

/** No valid callback arrived in time (code `CALLBACK_TIMEOUT`). */
export class CallbackTimeoutError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link CallbackTimeoutError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'CallbackTimeoutError');

  /** @param timeoutMs - the time limit */
  constructor(timeoutMs: number) {
    const minutes =
      timeoutMs >= 60_000 ? `${Math.round(timeoutMs / 60_000)} min` : `${timeoutMs} ms`;
    super(
      OAuthFlowErrorCode.CALLBACK_TIMEOUT,
      `the sign-in did not come back within ${minutes}: the callback server was stopped. Start ` +
        `the sign-in again, or paste the address your browser ended on`,
    );
    this.name = 'CallbackTimeoutError';
  }
}

/** The sign-in was stopped through its signal (code `SIGN_IN_ABORTED`). */
export class SignInAbortedError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link SignInAbortedError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'SignInAbortedError');

  /** @param cause - the signal's reason */
  constructor(cause?: unknown) {
    super(OAuthFlowErrorCode.SIGN_IN_ABORTED, 'the sign-in was cancelled', { cause });
    this.name = 'SignInAbortedError';
  }
}

/** The authorization server answered with an error (code `AUTHORIZATION_DENIED`). */
export class AuthorizationDeniedError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link AuthorizationDeniedError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'AuthorizationDeniedError');

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
    this.name = 'AuthorizationDeniedError';
    this.error = error;
  }
}

/** A pasted redirect carries another `state` (code `STATE_MISMATCH`). */
export class StateMismatchError extends OAuthFlowError {
  /**
   * Whether `value` is a {@link StateMismatchError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'StateMismatchError');

  /** @param missing - whether the state was absent rather than different */
  constructor(missing: boolean) {
    super(
      OAuthFlowErrorCode.STATE_MISMATCH,
      `the pasted address ${missing ? 'has no state' : 'belongs to another sign-in (its state differs)'}: ` +
        `paste the address from the sign-in you started last, or start the sign-in again`,
    );
    this.name = 'StateMismatchError';
  }
}

/** A pasted redirect address is not usable (code `INVALID_REDIRECT_URL`). */
export class InvalidRedirectUrlError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link InvalidRedirectUrlError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'InvalidRedirectUrlError');

  /** @param reason - what is wrong; never the pasted text */
  constructor(reason: string) {
    super(
      OAuthFlowErrorCode.INVALID_REDIRECT_URL,
      `the pasted address cannot finish the sign-in: ${reason}`,
    );
    this.name = 'InvalidRedirectUrlError';
  }
}

/** `openBrowser` refused an address (code `UNSAFE_BROWSER_URL`). */
export class UnsafeBrowserUrlError extends OAuthFlowError {
  /**
   * Whether `value` is an {@link UnsafeBrowserUrlError} (or a subclass), from any copy of this
   * package.
   */
  static override readonly isInstance = brand(this, 'UnsafeBrowserUrlError');

  /** @param reason - what is wrong with the address */
  constructor(reason: string) {
    super(OAuthFlowErrorCode.UNSAFE_BROWSER_URL, `refused to open the browser: ${reason}`);
    this.name = 'UnsafeBrowserUrlError';
  }
}
