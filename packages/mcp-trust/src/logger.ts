/**
 * Where the store reports what a person may want to know (a corrupt file moved aside, a folder
 * others can write to). Every method is optional; `console` fits. The store never prints by itself.
 */
export interface TrustStoreLogger {
  debug?: (message: string) => void;
  info?: (message: string) => void;
  warn?: (message: string) => void;
  error?: (message: string) => void;
}

/**
 * Calls one logger method, if there is one. A logger that throws must not turn a successful
 * store operation into a failure, so its errors are dropped.
 * @internal
 */
export function log(
  logger: TrustStoreLogger | undefined,
  level: keyof TrustStoreLogger,
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
