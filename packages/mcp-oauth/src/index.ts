// Public entry of @garuda/mcp-oauth: named re-exports only. What is not here is internal.
export { AuthStore } from './auth-store.js';
export type { AuthStoreOptions, AuthRecord, AuthEntryInfo } from './auth-store.js';
export { TOKEN_STORAGES } from './token-storage.js';
export type { TokenStorage, TokenStorageInfo } from './token-storage.js';
export { createOsKeyring, KEYRING_SERVICE } from './os-keyring.js';
export type { KeyringBackend, KeyringCheck, OsKeyringOptions } from './os-keyring.js';
export type { AuthEntry } from './auth-entry.js';
export { SERVER_NAME_PATTERN, USER_SCOPE } from './auth-key.js';
export type { AuthEntryId } from './auth-key.js';
export { GarudaOAuthProvider, createOAuthProvider } from './oauth-provider.js';
export type { GarudaOAuthProviderOptions, PendingSignIn } from './provider-options.js';
export { checkAuthorizationServerMetadata } from './check-authorization-server.js';
export type { CheckAuthorizationServerOptions } from './check-authorization-server.js';
export { waitForCallback } from './wait-for-callback.js';
export type { WaitForCallbackOptions } from './wait-for-callback.js';
export { freePort } from './free-port.js';
export { openBrowser } from './open-browser.js';
export type {
  OpenBrowserOptions,
  ExecFileLike,
  ChildProcessLike,
  OpenerSpawnOptions,
} from './open-browser.js';
export { parseRedirectUrl } from './parse-redirect-url.js';
export type { ParseRedirectUrlOptions } from './parse-redirect-url.js';
export { revoke } from './revoke.js';
export type { RevokeOptions, RevokeResult, RevocationOutcome } from './revoke.js';
export type { OAuthLogger } from './logger.js';
export {
  OAuthFlowError,
  OAuthFlowErrorCode,
  InsecureAuthorizationServerError,
  NoClientRegistrationError,
  ClientIssuerMismatchError,
  CallbackPortChangedError,
  CallbackPortInUseError,
  AuthorizationDeniedError,
  KeyringUnavailableError,
} from './errors.js';
export { LIMITS } from './limits.js';
