/**
 * The exit codes of `garuda-mcp`, as the README documents them:
 * 0 ok · 1 the tool reported an error (`isError`) · 2 usage (unknown command, option or
 * argument, and a server or tool name no file has, for every command that takes one) · 3 a
 * configuration problem (a file, an entry you gave, or the named server's entry is invalid) ·
 * 4 a server failed, was disabled or denied, or a question was declined · 130 interrupted.
 */
export const ExitCode = {
  OK: 0,
  TOOL_ERROR: 1,
  USAGE: 2,
  CONFIG: 3,
  SERVER: 4,
  INTERRUPTED: 130,
} as const;

/** One of {@link ExitCode}'s values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends the command with a message and an exit code (no stack trace). */
export class CliError extends Error {
  readonly exitCode: ExitCode;

  /**
   * @param message - What is wrong and what to do, one or a few lines.
   * @param exitCode - The exit code.
   */
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A usage error (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(
    `${message}\nRun garuda-mcp --help for the commands and options.`,
    ExitCode.USAGE,
  );
}
