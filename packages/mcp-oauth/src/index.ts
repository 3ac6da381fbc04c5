// Public entry of @garuda/mcp-oauth: named re-exports only. What is not here is internal.
export { AuthStore } from './auth-store.js';
export type { AuthStoreOptions } from './auth-store.js';
export { TOKEN_STORAGES } from './token-storage.js';
export type { TokenStorage, TokenStorageInfo } from './token-storage.js';
export { USER_SCOPE } from './auth-key.js';
export { GarudaOAuthProvider, createOAuthProvider } from './oauth-provider.js';
export type { GarudaOAuthProviderOptions, PendingSignIn } from './provider-options.js';
export { waitForCallback } from './wait-for-callback.js';
export type { WaitForCallbackOptions } from './wait-for-callback.js';
export { freePort } from './free-port.js';
export { openBrowser } from './open-browser.js';
export type { OpenBrowserOptions } from './open-browser.js';
export { parseRedirectUrl } from './parse-redirect-url.js';
export { revoke } from './revoke.js';
export type { RevokeOptions, RevokeResult } from './revoke.js';
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
