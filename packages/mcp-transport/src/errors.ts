import { brand, CodedError, errnoCode, quote as quoteWith } from '@garuda/internal';
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
  INVALID_OPTIONS: 'TRANSPORT_INVALID_OPTIONS',
  /** The argv or the `SandboxPolicy` given to `buildSandbox` is not usable. */
  INVALID_POLICY: 'TRANSPORT_INVALID_POLICY',
  /**
   * A path that must stay read-only inside the sandbox (e.g. `<root>/.git/hooks`) is a symbolic
   * link, so it cannot be protected: the server could replace the link itself.
   */
  UNPROTECTABLE_PATH: 'TRANSPORT_UNPROTECTABLE_PATH',
  /** The server's command was not found, or would not be visible inside the sandbox. */
  COMMAND_NOT_FOUND: 'TRANSPORT_COMMAND_NOT_FOUND',
  /** The server's process could not be started (e.g. not executable). */
  SPAWN_FAILED: 'TRANSPORT_SPAWN_FAILED',
  /** A line from the server is longer than the message cap; it was skipped. */
  MESSAGE_TOO_LARGE: 'TRANSPORT_MESSAGE_TOO_LARGE',
  /** A line from the server is not a JSON-RPC message; it was skipped. */
  BAD_MESSAGE: 'TRANSPORT_BAD_MESSAGE',
  /** The server's process stopped without being asked to. */
  PROCESS_EXITED: 'TRANSPORT_PROCESS_EXITED',
  /** The transport is closed (or was never started, or was started already). */
  TRANSPORT_CLOSED: 'TRANSPORT_CLOSED',
  /** An HTTP response body, or one SSE event, is larger than the cap. */
  RESPONSE_TOO_LARGE: 'TRANSPORT_RESPONSE_TOO_LARGE',
} as const);

/** One of the values of {@link TransportErrorCode}. */
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

const SCOPE = 'garuda.mcp-transport';

/**
 * Text that may come from a project (a path, a command name, a line a program printed), made
 * safe for a message: cleaned (no escape sequences, invisible or bidi characters), cut to 300
 * characters, then JSON-quoted so a newline shows as `\n` instead of starting a fake line.
 * @internal
 */
export function quote(text: string): string {
  return quoteWith(text, { max: 300, clean: cleanText });
}

/**
 * Base class of every error this package throws, and the class of those that carry no more than
 * their code (`TRANSPORT_BAD_MESSAGE`). Check `code` (see {@link TransportErrorCode}) rather than the
 * message.
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
export class TransportError extends CodedError<TransportErrorCode> {
  /**
   * Whether `value` is a {@link TransportError} (any subclass), also when it comes from another
   * copy of this package. A plain function: `errors.filter(TransportError.isInstance)` works.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package.
   */
  static readonly isInstance = brand(this, SCOPE, 'TransportError');
}

/**
 * Options passed to a function of this package are not usable (code `TRANSPORT_INVALID_OPTIONS`), e.g. a
 * negative `timeoutMs` or a relative `bwrapPath`. A programming error, thrown before anything
 * runs.
 *
 * @example
 * ```ts
 * try {
 *   await detectSandbox({ timeoutMs: -1 });
 * } catch (e) {
 *   if (TransportOptionsError.isInstance(e)) ui.error(e.option, e.message);
 * }
 * ```
 */
export class TransportOptionsError extends TransportError {
  /** Whether `value` is a {@link TransportOptionsError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'TransportOptionsError');

  /** The option at fault, e.g. `timeoutMs`. */
  readonly option: string;

  /**
   * @param option - The option at fault.
   * @param problem - What is wrong with it and what is expected.
   */
  constructor(option: string, problem: string) {
    super(TransportErrorCode.INVALID_OPTIONS, `invalid option ${option}: ${problem}`);
    this.option = option;
  }
}

/**
 * The argv or the `SandboxPolicy` given to `buildSandbox` is not usable (code
 * `TRANSPORT_INVALID_POLICY`): a relative path, a NUL byte, a root that does not exist or is not a folder,
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
  /** Whether `value` is a {@link InvalidPolicyError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'InvalidPolicyError');

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
    this.field = field;
  }
}

/**
 * A path that must stay read-only inside a writable folder (`.garuda`, `.git`, `.git/hooks`,
 * `.git/config`, a hooks folder or include file named by `.git/config`) is a symbolic link
 * (code `TRANSPORT_UNPROTECTABLE_PATH`). A mount or a deny rule would only cover the link's target, and the
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
  /** Whether `value` is a {@link UnprotectablePathError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'UnprotectablePathError');

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
    this.path = path;
  }
}

/**
 * The server's process could not be started. Its command was not found (code
 * `TRANSPORT_COMMAND_NOT_FOUND`): a bare name that is on no folder of the server's `PATH`, a path that is
 * not an executable file, or one that exists on this machine but would not be visible inside the
 * sandbox (e.g. under `/tmp`, which the sandbox replaces with an empty private folder, or inside
 * a hidden credential folder). Or spawning it failed for another reason (code `TRANSPORT_SPAWN_FAILED`),
 * e.g. it is not executable (`EACCES`). `cause` holds the system error when there is one.
 *
 * @example
 * ```ts
 * if (SpawnFailedError.isInstance(e)) ui.error(e.message); // command not found: "github-mcp-server" …
 * ```
 */
export class SpawnFailedError extends TransportError {
  /** Whether `value` is a {@link SpawnFailedError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'SpawnFailedError');

  declare readonly code:
    typeof TransportErrorCode.COMMAND_NOT_FOUND | typeof TransportErrorCode.SPAWN_FAILED;
  /** The command as given (argv[0]). */
  readonly command: string;

  /**
   * @param code - `TRANSPORT_COMMAND_NOT_FOUND` or `TRANSPORT_SPAWN_FAILED`.
   * @param command - The command as given (argv[0]).
   * @param cause - The underlying error (e.g. spawn's `ENOENT` or `EACCES`), kept as `error.cause`.
   * @param detail - For `TRANSPORT_COMMAND_NOT_FOUND`: why it was not usable and what to do; defaults to
   *   advice about `PATH`.
   */
  constructor(
    code: typeof TransportErrorCode.COMMAND_NOT_FOUND | typeof TransportErrorCode.SPAWN_FAILED,
    command: string,
    cause?: unknown,
    detail?: string,
  ) {
    super(
      code,
      code === TransportErrorCode.COMMAND_NOT_FOUND
        ? `command not found: ${quote(command)}; ` +
            (detail ??
              "install it, or give its full path, or add its folder to the server's PATH (env.PATH).")
        : `could not start ${quote(command)} (${errnoCode(cause) ?? 'error'}): check that it is an executable file you may run`,
      { cause },
    );
    this.command = command;
  }
}

function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return Number.isInteger(m) ? `${m} MiB` : `${bytes} bytes`;
}

/**
 * What a JSON-RPC line was, told from its top-level keys: `request` (a `method` and an `id`),
 * `notification` (a `method`, no `id`), `response` (an `id`, no `method`: the answer to a
 * request, or an error for one), or `unknown` (neither, not one JSON object, or broken).
 */
export type MessageKind = 'response' | 'request' | 'notification' | 'unknown';

/**
 * A line from the server was longer than the message cap (code `TRANSPORT_MESSAGE_TOO_LARGE`). Reported
 * through `onerror`, once the line has ended; the line was skipped and reading goes on. `kind`
 * and `id` say what it was, read from the whole line (not kept) by its top-level keys: a
 * `response` (or an `unknown` line) may have been the answer to a request, which then never
 * completes unless the caller ends it; the server's own `request` or `notification` answers
 * nothing. `id` is the server's text: compare it, show it only quoted.
 *
 * @example
 * ```ts
 * transport.onerror = (e) => {
 *   if (MessageTooLargeError.isInstance(e) && e.kind !== 'request' && e.kind !== 'notification') {
 *     for (const call of pending) call.abort(e); // its answer may be gone
 *   }
 * };
 * ```
 */
export class MessageTooLargeError extends TransportError {
  /** Whether `value` is a {@link MessageTooLargeError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'MessageTooLargeError');

  /** Bytes of the skipped line. */
  readonly bytes: number;
  /** The cap in bytes. */
  readonly limit: number;
  /** What the skipped line was (see {@link MessageKind}). */
  readonly kind: MessageKind;
  /**
   * Its top-level JSON-RPC `id` when that is a number or a string (of at most 128 bytes as
   * written) and the line was one complete object; otherwise `undefined`. Raw server text.
   */
  readonly id: string | number | undefined;

  /**
   * @param bytes - Bytes of the skipped line.
   * @param limit - The cap.
   * @param excerpt - Its first characters (cleaned and quoted here).
   * @param shape - What the line was and its `id`; default `unknown`, no `id`.
   */
  constructor(
    bytes: number,
    limit: number,
    excerpt: string,
    shape: { readonly kind: MessageKind; readonly id?: string | number | undefined } = {
      kind: 'unknown',
    },
  ) {
    super(
      TransportErrorCode.MESSAGE_TOO_LARGE,
      `the server sent a message of ${bytes} bytes, larger than ${mib(limit)}; it was skipped ` +
        `(it began ${quote(excerpt.slice(0, 80))})`,
    );
    this.bytes = bytes;
    this.limit = limit;
    this.kind = shape.kind;
    this.id = shape.id;
  }
}

/**
 * The server's process stopped without being asked to (code `TRANSPORT_PROCESS_EXITED`), with its exit
 * code or signal and the last lines it wrote to stderr (cleaned).
 */
export class ProcessExitedError extends TransportError {
  /** Whether `value` is a {@link ProcessExitedError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'ProcessExitedError');

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
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = stderrTail;
  }
}

/** The transport is closed, was never started, or was started already (code `TRANSPORT_CLOSED`). */
export class TransportClosedError extends TransportError {
  /** Whether `value` is a {@link TransportClosedError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'TransportClosedError');

  /** @param message - What happened and what to do. */
  constructor(message: string) {
    super(TransportErrorCode.TRANSPORT_CLOSED, message);
  }
}

/**
 * An HTTP response body, or one event of an SSE stream, was larger than the cap (code
 * `TRANSPORT_RESPONSE_TOO_LARGE`); reading it was stopped.
 *
 * It has no `kind` or `id`, unlike {@link MessageTooLargeError}: the body or the stream is cut
 * off at the cap, not skipped to its end, so the whole message is never seen, and whatever that
 * response or stream would still have carried is lost with it. A cut JSON body fails its own
 * request.
 */
export class ResponseTooLargeError extends TransportError {
  /** Whether `value` is a {@link ResponseTooLargeError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'ResponseTooLargeError');

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
    this.limit = limit;
  }
}

/**
 * A line from the server was not a JSON-RPC message (code `TRANSPORT_BAD_MESSAGE`): not JSON, or JSON of
 * the wrong shape. Reported through `onerror`; the line was skipped and reading goes on.
 * @internal
 *
 * @param line - The line (only a cleaned excerpt goes into the message).
 * @param cause - The parse or validation error.
 */
export function badMessage(line: string, cause: unknown): TransportError {
  return new TransportError(
    TransportErrorCode.BAD_MESSAGE,
    `the server wrote a line that is not a JSON-RPC message; it was skipped: ${quote(line.slice(0, 200))}`,
    { cause },
  );
}
