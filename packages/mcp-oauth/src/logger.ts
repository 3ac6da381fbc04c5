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

/**
 * Calls one logger method, if there is one. A logger that throws must not turn a successful
 * operation into a failure, so its errors are dropped.
 * @internal
 */
export function log(
  logger: OAuthLogger | undefined,
  level: keyof OAuthLogger,
  message: string,
): void {
  const fn = logger?.[level];
  if (typeof fn !== 'function') return;
  try {
    fn.call(logger, message);
  } catch {
    // The logger is the caller's code; its failure is not ours to report.
  }
}
