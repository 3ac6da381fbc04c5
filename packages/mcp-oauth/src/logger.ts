/**
 * Where this package reports what a person may want to know (a corrupt auth file moved aside, a
 * callback with a wrong state ignored). Every method is optional; `console` fits. Nothing here
 * ever prints by itself, and no line ever contains a token, a code, a verifier or a `state`.
 */
export interface OAuthLogger {
  debug?: (message: string) => void;
  info?: (message: string) => void;
  warn?: (message: string) => void;
  error?: (message: string) => void;
}
