/** A stream the CLI writes to: stdout or stderr, or a test double. */
export interface OutStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** A stream the CLI reads answers from. */
export interface InStream extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
}

/**
 * Everything the CLI takes from its process: streams, environment, current folder, and a signal
 * that aborts on Ctrl-C. `bin.ts` builds it from `process`; nothing else reads `process`.
 */
export interface CliIo {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdin: InStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The user's home folder (for `~/.garuda`, and other clients' files for `import`). */
  readonly userHome: string;
  /**
   * The OS, as `process.platform` names it (where other clients keep their files, for
   * `import`). Default: this process's.
   */
  readonly platform?: string;
  /** Aborts on SIGINT (Ctrl-C) or SIGTERM. */
  readonly signal: AbortSignal;
}
