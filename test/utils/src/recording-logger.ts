/** The levels of the packages' `logger` options. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A logger for a test, with what it was told. */
export interface RecordingLogger {
  /** Pass this as the `logger` option. */
  readonly logger: Record<LogLevel, (message: string) => void>;
  /** Every line, by level, in order. */
  readonly lines: Record<LogLevel, string[]>;
  /** Every line of every level (debug first, then info, warn and error). */
  all(): string[];
}

/**
 * A logger that keeps every line it is told.
 *
 * @returns The logger and its lines.
 * @example
 * const { logger, lines } = recordingLogger();
 * await new TrustStore(file, { logger }).get('k');
 * expect(lines.warn).toEqual([]);
 */
export function recordingLogger(): RecordingLogger {
  const lines: Record<LogLevel, string[]> = { debug: [], info: [], warn: [], error: [] };
  return {
    lines,
    all: () => [...lines.debug, ...lines.info, ...lines.warn, ...lines.error],
    logger: {
      debug: (m) => void lines.debug.push(m),
      info: (m) => void lines.info.push(m),
      warn: (m) => void lines.warn.push(m),
      error: (m) => void lines.error.push(m),
    },
  };
}
