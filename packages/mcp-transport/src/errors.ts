import { cleanText } from '@garuda/mcp-sanitize';

/**
 * The stable `code` of every {@link TransportError}. Compare against these instead of messages
 * or class names.
 *
 * @example
 * ```ts
 * try {
 *   buildSandbox(argv, policy, sandbox);
 * } catch (e) {
 *   if (TransportError.isInstance(e) && e.code === TransportErrorCode.COMMAND_NOT_FOUND) {
 *     ui.error(e.message);
 *   }
 * }
 * ```
 */
export const TransportErrorCode = Object.freeze({
  /** Options passed to a function of this package are not usable (a programming error). */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** The argv or the `SandboxPolicy` given to `buildSandbox` is not usable. */
  INVALID_POLICY: 'INVALID_POLICY',
  /**
   * A path that must stay read-only inside the sandbox (e.g. `<root>/.git/hooks`) is a symbolic
   * link, so it cannot be protected: the server could replace the link itself.
   */
  UNPROTECTABLE_PATH: 'UNPROTECTABLE_PATH',
  /** The server's command was not found, or would not be visible inside the sandbox. */
  COMMAND_NOT_FOUND: 'COMMAND_NOT_FOUND',
  /** The server's process could not be started (e.g. not executable). */
  SPAWN_FAILED: 'SPAWN_FAILED',
  /** A line from the server is longer than the message cap; it was skipped. */
  MESSAGE_TOO_LARGE: 'MESSAGE_TOO_LARGE',
  /** A line from the server is not a JSON-RPC message; it was skipped. */
  BAD_MESSAGE: 'BAD_MESSAGE',
  /** The server's process stopped without being asked to. */
  PROCESS_EXITED: 'PROCESS_EXITED',
  /** The transport is closed (or was never started, or was started already). */
  TRANSPORT_CLOSED: 'TRANSPORT_CLOSED',
  /** An HTTP response body, or one SSE event, is larger than the cap. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
} as const);

/** One of the values of {@link TransportErrorCode}. */
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

const MARKERS = {
  TransportError: Symbol.for('garuda.mcp-transport.TransportError'),
  InvalidOptionsError: Symbol.for('garuda.mcp-transport.InvalidOptionsError'),
  InvalidPolicyError: Symbol.for('garuda.mcp-transport.InvalidPolicyError'),
  UnprotectablePathError: Symbol.for('garuda.mcp-transport.UnprotectablePathError'),
  CommandNotFoundError: Symbol.for('garuda.mcp-transport.CommandNotFoundError'),
  SpawnFailedError: Symbol.for('garuda.mcp-transport.SpawnFailedError'),
  MessageTooLargeError: Symbol.for('garuda.mcp-transport.MessageTooLargeError'),
  BadMessageError: Symbol.for('garuda.mcp-transport.BadMessageError'),
  ProcessExitedError: Symbol.for('garuda.mcp-transport.ProcessExitedError'),
  TransportClosedError: Symbol.for('garuda.mcp-transport.TransportClosedError'),
  ResponseTooLargeError: Symbol.for('garuda.mcp-transport.ResponseTooLargeError'),
} as const;

// Markers instead of `instanceof`, so an error made by another copy of this package (two
// versions in one node_modules tree) is still recognised.
function mark(target: object, marker: symbol): void {
  Object.defineProperty(target, marker, { value: true, enumerable: false });
}

function hasMarker(value: unknown, marker: symbol): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}

const MAX_QUOTED_CHARS = 300;

/**
 * Text that may come from a project (a path, a command name, a line a program printed), made
 * safe for a message: cleaned (no escape sequences, invisible or bidi characters), cut, then
 * JSON-quoted so a newline shows as `\n` instead of starting a fake line. @internal
 */
export function quote(text: string): string {
  const head = text.length > MAX_QUOTED_CHARS * 4 ? text.slice(0, MAX_QUOTED_CHARS * 4) : text;
  const cleaned = cleanText(head);
  const cut =
    cleaned.length > MAX_QUOTED_CHARS || head.length < text.length
      ? `${cleaned.slice(0, MAX_QUOTED_CHARS)}…`
      : cleaned;
  return JSON.stringify(cut);
}

/**
 * Base class of every error this package throws. Check `code` (see {@link TransportErrorCode})
 * rather than the message.
 *
 * @example
 * ```ts
 * try {
 *   buildSandbox(argv, policy, await detectSandbox());
 * } catch (e) {
 *   if (TransportError.isInstance(e)) ui.error(e.code, e.message);
 * }
 * ```
 */
export class TransportError extends Error {
  /** Stable machine-readable reason; one of {@link TransportErrorCode}. */
  readonly code: TransportErrorCode;

  /**
   * @param code - One of {@link TransportErrorCode}.
   * @param message - What happened and what to do about it.
   * @param options - `cause`: the underlying error, kept as `error.cause`.
   */
  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransportError';
    this.code = code;
    mark(this, MARKERS.TransportError);
  }

  /**
   * Whether `value` is a {@link TransportError} (any subclass), also when it comes from another
   * copy of this package.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package.
   * @example
   * ```ts
   * if (TransportError.isInstance(e)) ui.show(e.code);
   * ```
   */
  static isInstance(value: unknown): value is TransportError {
    return hasMarker(value, MARKERS.TransportError);
  }
}

/**
 * Options passed to a function of this package are not usable (code `INVALID_OPTIONS`), e.g. a
 * negative `timeoutMs` or a relative `bwrapPath`. A programming error, thrown before anything
 * runs.
 *
 * @example
 * ```ts
 * try {
 *   await detectSandbox({ timeoutMs: -1 });
 * } catch (e) {
 *   if (InvalidOptionsError.isInstance(e)) ui.error(e.option, e.message);
 * }
 * ```
 */
export class InvalidOptionsError extends TransportError {
  /** The option at fault, e.g. `timeoutMs`. */
  readonly option: string;

  /**
   * @param option - The option at fault.
   * @param problem - What is wrong with it and what is expected.
   */
  constructor(option: string, problem: string) {
    super(TransportErrorCode.INVALID_OPTIONS, `invalid option ${option}: ${problem}`);
    this.name = 'InvalidOptionsError';
    this.option = option;
    mark(this, MARKERS.InvalidOptionsError);
  }

  /**
   * Whether `value` is an {@link InvalidOptionsError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for an options error.
   * @example
   * ```ts
   * InvalidOptionsError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is InvalidOptionsError {
    return hasMarker(value, MARKERS.InvalidOptionsError);
  }
}

/**
 * The argv or the `SandboxPolicy` given to `buildSandbox` is not usable (code
 * `INVALID_POLICY`): a relative path, a NUL byte, a root that does not exist or is not a folder,
 * a write path that does not exist, an environment variable name with `=`, and so on. `field`
 * names the part at fault (`root`, `writePaths[2]`, `env.FOO`, `argv[0]`…).
 *
 * @example
 * ```ts
 * try {
 *   buildSandbox(['server'], { ...policy, root: 'relative/path' }, sandbox);
 * } catch (e) {
 *   if (InvalidPolicyError.isInstance(e)) ui.error(e.field, e.message);
 * }
 * ```
 */
export class InvalidPolicyError extends TransportError {
  /** The part of the argv, policy or sandbox info at fault, e.g. `root` or `writePaths[0]`. */
  readonly field: string;

  /**
   * @param field - The part at fault.
   * @param problem - What is wrong with it and what to do.
   * @param options - `cause`: the underlying error (e.g. the `fs` error), kept as `error.cause`.
   */
  constructor(field: string, problem: string, options?: { cause?: unknown }) {
    super(
      TransportErrorCode.INVALID_POLICY,
      `invalid sandbox policy: ${field} ${problem}`,
      options,
    );
    this.name = 'InvalidPolicyError';
    this.field = field;
    mark(this, MARKERS.InvalidPolicyError);
  }

  /**
   * Whether `value` is an {@link InvalidPolicyError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a policy error.
   * @example
   * ```ts
   * InvalidPolicyError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is InvalidPolicyError {
    return hasMarker(value, MARKERS.InvalidPolicyError);
  }
}

/**
 * A path that must stay read-only inside a writable folder (`.garuda`, `.git`, `.git/hooks`,
 * `.git/config`, a hooks folder or include file named by `.git/config`) is a symbolic link
 * (code `UNPROTECTABLE_PATH`). A mount or a deny rule would only cover the link's target, and the
 * server could delete the link and put a writable folder in its place, so no sandbox is built.
 *
 * @example
 * ```ts
 * if (UnprotectablePathError.isInstance(e)) {
 *   ui.error(`${e.path} is a symbolic link; replace it with a real folder or file`);
 * }
 * ```
 */
export class UnprotectablePathError extends TransportError {
  /** The symbolic link that cannot be protected. */
  readonly path: string;

  /**
   * @param path - The symbolic link.
   */
  constructor(path: string) {
    super(
      TransportErrorCode.UNPROTECTABLE_PATH,
      `cannot keep ${quote(path)} read-only inside the sandbox: it is a symbolic link, and the ` +
        'server could replace the link itself; replace the link with the real folder or file ' +
        '(or move it out of the project) and start the server again.',
    );
    this.name = 'UnprotectablePathError';
    this.path = path;
    mark(this, MARKERS.UnprotectablePathError);
  }

  /**
   * Whether `value` is an {@link UnprotectablePathError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for an unprotectable-path error.
   * @example
   * ```ts
   * UnprotectablePathError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is UnprotectablePathError {
    return hasMarker(value, MARKERS.UnprotectablePathError);
  }
}

/**
 * The server's command was not found (code `COMMAND_NOT_FOUND`): a bare name that is on no
 * folder of the server's `PATH`, a path that is not an executable file, or one that exists on
 * this machine but would not be visible inside the sandbox (e.g. under `/tmp`, which the sandbox
 * replaces with an empty private folder, or inside a hidden credential folder).
 *
 * @example
 * ```ts
 * if (CommandNotFoundError.isInstance(e)) ui.error(e.message); // command not found: "github-mcp-server" …
 * ```
 */
export class CommandNotFoundError extends TransportError {
  /** The command as given (argv[0]). */
  readonly command: string;

  /**
   * @param command - The command as given (argv[0]).
   * @param cause - The underlying error (e.g. spawn's `ENOENT`), kept as `error.cause`.
   * @param detail - Why it was not usable and what to do; defaults to advice about `PATH`.
   */
  constructor(command: string, cause?: unknown, detail?: string) {
    super(
      TransportErrorCode.COMMAND_NOT_FOUND,
      `command not found: ${quote(command)}; ` +
        (detail ??
          "install it, or give its full path, or add its folder to the server's PATH (env.PATH)."),
      cause === undefined ? undefined : { cause },
    );
    this.name = 'CommandNotFoundError';
    this.command = command;
    mark(this, MARKERS.CommandNotFoundError);
  }

  /**
   * Whether `value` is a {@link CommandNotFoundError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a command-not-found error.
   * @example
   * ```ts
   * CommandNotFoundError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is CommandNotFoundError {
    return hasMarker(value, MARKERS.CommandNotFoundError);
  }
}

function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return Number.isInteger(m) ? `${m} MiB` : `${bytes} bytes`;
}

/**
 * The server's process could not be started (code `SPAWN_FAILED`), e.g. the command is not
 * executable (`EACCES`). `cause` holds the system error.
 */
export class SpawnFailedError extends TransportError {
  /** The command as given. */
  readonly command: string;

  /**
   * @param command - The command as given.
   * @param cause - The system error from spawning.
   */
  constructor(command: string, cause: NodeJS.ErrnoException) {
    super(
      TransportErrorCode.SPAWN_FAILED,
      `could not start ${quote(command)} (${cause.code ?? 'error'}): check that it is an executable file you may run`,
      { cause },
    );
    this.name = 'SpawnFailedError';
    this.command = command;
    mark(this, MARKERS.SpawnFailedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is SpawnFailedError {
    return hasMarker(value, MARKERS.SpawnFailedError);
  }
}

/**
 * A line from the server was longer than the message cap (code `MESSAGE_TOO_LARGE`). Reported
 * through `onerror`; the line was skipped and reading goes on, so the request it answered never
 * completes (it times out) while others still work.
 */
export class MessageTooLargeError extends TransportError {
  /** Bytes of the skipped line. */
  readonly bytes: number;
  /** The cap in bytes. */
  readonly limit: number;

  /**
   * @param bytes - Bytes of the skipped line.
   * @param limit - The cap.
   * @param excerpt - Its first characters (cleaned and quoted here).
   */
  constructor(bytes: number, limit: number, excerpt: string) {
    super(
      TransportErrorCode.MESSAGE_TOO_LARGE,
      `the server sent a message of ${bytes} bytes, larger than ${mib(limit)}; it was skipped ` +
        `(it began ${quote(excerpt.slice(0, 80))})`,
    );
    this.name = 'MessageTooLargeError';
    this.bytes = bytes;
    this.limit = limit;
    mark(this, MARKERS.MessageTooLargeError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is MessageTooLargeError {
    return hasMarker(value, MARKERS.MessageTooLargeError);
  }
}

/**
 * A line from the server was not a JSON-RPC message (code `BAD_MESSAGE`): not JSON, or JSON of
 * the wrong shape. Reported through `onerror`; the line was skipped and reading goes on.
 */
export class BadMessageError extends TransportError {
  /**
   * @param line - The line (only a cleaned excerpt goes into the message).
   * @param cause - The parse or validation error.
   */
  constructor(line: string, cause: unknown) {
    super(
      TransportErrorCode.BAD_MESSAGE,
      `the server wrote a line that is not a JSON-RPC message; it was skipped: ${quote(line.slice(0, 200))}`,
      { cause },
    );
    this.name = 'BadMessageError';
    mark(this, MARKERS.BadMessageError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is BadMessageError {
    return hasMarker(value, MARKERS.BadMessageError);
  }
}

/**
 * The server's process stopped without being asked to (code `PROCESS_EXITED`), with its exit
 * code or signal and the last lines it wrote to stderr (cleaned).
 */
export class ProcessExitedError extends TransportError {
  /** The exit code, or `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
  /** The last stderr lines, cleaned, oldest first. */
  readonly stderrTail: readonly string[];

  /**
   * @param command - The command that ran.
   * @param exitCode - Its exit code.
   * @param signal - The signal that ended it.
   * @param stderrTail - Its last stderr lines (already cleaned).
   */
  constructor(
    command: string,
    exitCode: number | null,
    signal: NodeJS.Signals | null,
    stderrTail: readonly string[],
  ) {
    const how = signal ? `was stopped by ${signal}` : `exited with code ${String(exitCode)}`;
    const tail = stderrTail
      .slice(-5)
      .map((l) => `\n  ${quote(l)}`)
      .join('');
    super(
      TransportErrorCode.PROCESS_EXITED,
      `the server ${quote(command)} ${how}${tail ? `; its last stderr lines:${tail}` : ''}`,
    );
    this.name = 'ProcessExitedError';
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = stderrTail;
    mark(this, MARKERS.ProcessExitedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is ProcessExitedError {
    return hasMarker(value, MARKERS.ProcessExitedError);
  }
}

/** The transport is closed, was never started, or was started already (code `TRANSPORT_CLOSED`). */
export class TransportClosedError extends TransportError {
  /** @param message - What happened and what to do. */
  constructor(message: string) {
    super(TransportErrorCode.TRANSPORT_CLOSED, message);
    this.name = 'TransportClosedError';
    mark(this, MARKERS.TransportClosedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is TransportClosedError {
    return hasMarker(value, MARKERS.TransportClosedError);
  }
}

/**
 * An HTTP response body, or one event of an SSE stream, was larger than the cap (code
 * `RESPONSE_TOO_LARGE`); reading it was stopped.
 */
export class ResponseTooLargeError extends TransportError {
  /** The cap in bytes. */
  readonly limit: number;

  /**
   * @param url - The URL requested.
   * @param limit - The cap.
   * @param what - `response` or `event`.
   */
  constructor(url: string, limit: number, what: 'response' | 'event') {
    super(
      TransportErrorCode.RESPONSE_TOO_LARGE,
      `the ${what === 'event' ? 'server-sent event' : 'response'} from ${quote(url)} is larger than ${mib(limit)}; it was not read`,
    );
    this.name = 'ResponseTooLargeError';
    this.limit = limit;
    mark(this, MARKERS.ResponseTooLargeError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is ResponseTooLargeError {
    return hasMarker(value, MARKERS.ResponseTooLargeError);
  }
}
