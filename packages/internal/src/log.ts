/** The levels of a package's logger option. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * A logger as packages take it: every method optional, `console` fits. Each package exports its
 * own named type of this shape.
 */
export type OptionalLogger = {
  readonly [level in LogLevel]?: ((message: string) => unknown) | undefined;
};

/**
 * Calls one method of an optional logger, if there is one. The logger is the caller's code: a
 * method that throws (or returns a promise that rejects) must not turn a successful operation
 * into a failure, nor crash the process, so its failure is dropped.
 *
 * @param logger - the caller's logger, or `undefined`
 * @param level - which method to call
 * @param message - the line, already free of secrets and with untrusted text quoted
 * @example
 * ```ts
 * log(options.logger, 'warn', `the trust file ${quote(file)} was moved aside`);
 * ```
 */
export function log(logger: OptionalLogger | undefined, level: LogLevel, message: string): void {
  try {
    const fn = logger?.[level];
    if (typeof fn !== 'function') return;
    const result: unknown = fn.call(logger, message);
    if (typeof (result as { then?: unknown } | null)?.then === 'function') {
      (result as Promise<unknown>).then(undefined, () => undefined);
    }
  } catch {
    // Not ours to report.
  }
}
