import type { ServerState, SignInReason } from './types.js';

/**
 * The stable `code` of every {@link McpManagerError}. Compare against these instead of messages
 * or class names.
 *
 * @example
 * ```ts
 * try {
 *   await mcp.call(name, args, { signal });
 * } catch (e) {
 *   if (McpManagerError.isInstance(e) && e.code === McpManagerErrorCode.CALL_DECLINED) stopTurn();
 * }
 * ```
 */
export const McpManagerErrorCode = Object.freeze({
  /** The constructor or a method got options or arguments of the wrong shape (a programming error). */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** `start()` was called a second time; use `reload(name)` to start one server again. */
  ALREADY_STARTED: 'ALREADY_STARTED',
  /** `call()` or `reload()` before `start()`. */
  NOT_STARTED: 'NOT_STARTED',
  /** The manager was closed (also: a call that was running when `close()` stopped its server). */
  CLOSED: 'CLOSED',
  /** `start()` or `reload()` was cancelled through its signal. */
  START_CANCELLED: 'START_CANCELLED',
  /** `reload(name)`: no server of that name is configured. */
  UNKNOWN_SERVER: 'UNKNOWN_SERVER',
  /** `call(name)`: no MCP tool has that name. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /** `call(name)`: the tool's server is not connected (disabled, denied, failed, stopped, starting). */
  SERVER_NOT_CONNECTED: 'SERVER_NOT_CONNECTED',
  /** `call()`: the arguments are not a JSON object. */
  INVALID_ARGUMENTS: 'INVALID_ARGUMENTS',
  /** `call()`: the user declined the call. */
  CALL_DECLINED: 'CALL_DECLINED',
  /** `call()`: the caller's signal cancelled the call. */
  CALL_CANCELLED: 'CALL_CANCELLED',
  /** `call()`: the server did not answer within its `timeoutMs`. */
  CALL_TIMEOUT: 'CALL_TIMEOUT',
  /** `call()`: the server's answer was larger than the 4 MiB message cap and was dropped. */
  RESULT_TOO_LARGE: 'RESULT_TOO_LARGE',
  /** `call()`: the server stopped while the call was running. */
  SERVER_STOPPED: 'SERVER_STOPPED',
  /** `call()`: the server answered with a protocol error or an invalid result. */
  CALL_FAILED: 'CALL_FAILED',
  /**
   * `call()` or `signIn()`: the server needs a sign-in (a first one, a new one, or one with more
   * scopes) that was not done: declined, cancelled, or failed.
   */
  SIGN_IN_REQUIRED: 'SIGN_IN_REQUIRED',
} as const);

/** One of the values of {@link McpManagerErrorCode}. */
export type McpManagerErrorCode = (typeof McpManagerErrorCode)[keyof typeof McpManagerErrorCode];

const MARKERS = {
  McpManagerError: Symbol.for('garuda.mcp-manager.McpManagerError'),
  InvalidOptionsError: Symbol.for('garuda.mcp-manager.InvalidOptionsError'),
  AlreadyStartedError: Symbol.for('garuda.mcp-manager.AlreadyStartedError'),
  NotStartedError: Symbol.for('garuda.mcp-manager.NotStartedError'),
  ManagerClosedError: Symbol.for('garuda.mcp-manager.ManagerClosedError'),
  StartCancelledError: Symbol.for('garuda.mcp-manager.StartCancelledError'),
  UnknownServerError: Symbol.for('garuda.mcp-manager.UnknownServerError'),
  UnknownToolError: Symbol.for('garuda.mcp-manager.UnknownToolError'),
  ServerNotConnectedError: Symbol.for('garuda.mcp-manager.ServerNotConnectedError'),
  InvalidArgumentsError: Symbol.for('garuda.mcp-manager.InvalidArgumentsError'),
  CallDeclinedError: Symbol.for('garuda.mcp-manager.CallDeclinedError'),
  CallCancelledError: Symbol.for('garuda.mcp-manager.CallCancelledError'),
  CallTimeoutError: Symbol.for('garuda.mcp-manager.CallTimeoutError'),
  ResultTooLargeError: Symbol.for('garuda.mcp-manager.ResultTooLargeError'),
  ServerStoppedError: Symbol.for('garuda.mcp-manager.ServerStoppedError'),
  CallFailedError: Symbol.for('garuda.mcp-manager.CallFailedError'),
  SignInRequiredError: Symbol.for('garuda.mcp-manager.SignInRequiredError'),
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

/**
 * Base class of every error this package throws. Check `code` (see {@link McpManagerErrorCode})
 * rather than the message. The messages of `call()` errors are written for the model as well as
 * for a person: a host can hand `error.message` to the model as the tool's answer.
 *
 * @example
 * ```ts
 * try {
 *   await mcp.call(name, args);
 * } catch (e) {
 *   if (McpManagerError.isInstance(e)) return { isError: true, text: e.message };
 *   throw e;
 * }
 * ```
 */
export class McpManagerError extends Error {
  /** Stable machine-readable reason; one of {@link McpManagerErrorCode}. */
  readonly code: McpManagerErrorCode;

  /**
   * @param code - One of {@link McpManagerErrorCode}.
   * @param message - What happened and what to do about it.
   * @param options - `cause`: the underlying error, kept as `error.cause`.
   */
  constructor(code: McpManagerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'McpManagerError';
    this.code = code;
    mark(this, MARKERS.McpManagerError);
  }

  /**
   * Whether `value` is a {@link McpManagerError} (any subclass), also from another copy of this
   * package.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package.
   * @example
   * ```ts
   * if (McpManagerError.isInstance(e)) ui.show(e.code);
   * ```
   */
  static isInstance(value: unknown): value is McpManagerError {
    return hasMarker(value, MARKERS.McpManagerError);
  }
}

/**
 * Options or arguments of the wrong shape (code `INVALID_OPTIONS`): a relative `root`, a
 * prompter without `consent`, a `startTimeoutMs` of `-1`… A programming error.
 *
 * @example
 * ```ts
 * new McpManager({ ...options, startTimeoutMs: 0 }); // throws InvalidOptionsError
 * ```
 */
export class InvalidOptionsError extends McpManagerError {
  /** The option at fault, e.g. `startTimeoutMs`. */
  readonly option: string;

  /**
   * @param option - The option at fault.
   * @param problem - What is wrong and what is expected.
   */
  constructor(option: string, problem: string) {
    super(McpManagerErrorCode.INVALID_OPTIONS, `invalid option ${option}: ${problem}`);
    this.name = 'InvalidOptionsError';
    this.option = option;
    mark(this, MARKERS.InvalidOptionsError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is InvalidOptionsError {
    return hasMarker(value, MARKERS.InvalidOptionsError);
  }
}

/**
 * `start()` was called a second time (code `ALREADY_STARTED`). Use `reload(name)` to start one
 * server again.
 *
 * @example
 * ```ts
 * await mcp.start();
 * await mcp.reload('github'); // not mcp.start()
 * ```
 */
export class AlreadyStartedError extends McpManagerError {
  constructor() {
    super(
      McpManagerErrorCode.ALREADY_STARTED,
      'start() may be called only once per manager: use reload(name) to start a server again',
    );
    this.name = 'AlreadyStartedError';
    mark(this, MARKERS.AlreadyStartedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is AlreadyStartedError {
    return hasMarker(value, MARKERS.AlreadyStartedError);
  }
}

/**
 * `call()` or `reload()` before `start()` (code `NOT_STARTED`).
 *
 * @example
 * ```ts
 * await mcp.start(); // first
 * ```
 */
export class NotStartedError extends McpManagerError {
  /** @param what - The method that was called too early. */
  constructor(what: string) {
    super(McpManagerErrorCode.NOT_STARTED, `${what} needs start() first: call mcp.start()`);
    this.name = 'NotStartedError';
    mark(this, MARKERS.NotStartedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is NotStartedError {
    return hasMarker(value, MARKERS.NotStartedError);
  }
}

/**
 * The manager was closed (code `CLOSED`): a method called after `close()`, or a call that was
 * running when `close()` stopped its server.
 *
 * @example
 * ```ts
 * await mcp.close();
 * await mcp.call(name, {}); // throws ManagerClosedError
 * ```
 */
export class ManagerClosedError extends McpManagerError {
  /** @param what - What could not be done. */
  constructor(what: string) {
    super(
      McpManagerErrorCode.CLOSED,
      `${what}: the MCP manager was closed; create a new one to use MCP servers again`,
    );
    this.name = 'ManagerClosedError';
    mark(this, MARKERS.ManagerClosedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is ManagerClosedError {
    return hasMarker(value, MARKERS.ManagerClosedError);
  }
}

/**
 * `start()` or `reload()` was cancelled through its signal (code `START_CANCELLED`). Servers that
 * had connected stay connected; the others are `stopped` and can be started with `reload`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const started = mcp.start({ signal: controller.signal });
 * controller.abort(); // started rejects with StartCancelledError
 * ```
 */
export class StartCancelledError extends McpManagerError {
  /** @param what - `start()` or `reload("x")`. */
  constructor(what: string) {
    super(
      McpManagerErrorCode.START_CANCELLED,
      `${what} was cancelled: servers that had connected stay connected, the others are stopped (use reload(name) to start one)`,
    );
    this.name = 'StartCancelledError';
    mark(this, MARKERS.StartCancelledError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is StartCancelledError {
    return hasMarker(value, MARKERS.StartCancelledError);
  }
}

/**
 * `reload(name)` for a name that no configuration file has (code `UNKNOWN_SERVER`).
 *
 * @example
 * ```ts
 * await mcp.reload('nope'); // throws UnknownServerError
 * ```
 */
export class UnknownServerError extends McpManagerError {
  /** The name that was asked for (cleaned, JSON-quoted in the message). */
  readonly server: string;

  /**
   * @param server - The name asked for.
   * @param quoted - The same name, cleaned and quoted for the message.
   */
  constructor(server: string, quoted: string) {
    super(
      McpManagerErrorCode.UNKNOWN_SERVER,
      `no MCP server named ${quoted} is configured: check the name with status()`,
    );
    this.name = 'UnknownServerError';
    this.server = server;
    mark(this, MARKERS.UnknownServerError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is UnknownServerError {
    return hasMarker(value, MARKERS.UnknownServerError);
  }
}

/**
 * `call(name)` for a name no MCP tool has (code `UNKNOWN_TOOL`). The message tells the model to
 * use only the tools it was given.
 *
 * @example
 * ```ts
 * await mcp.call('mcp__nope__x', {}); // throws UnknownToolError
 * ```
 */
export class UnknownToolError extends McpManagerError {
  /** The name that was called (as given). */
  readonly tool: string;

  /**
   * @param tool - The name that was called.
   * @param quoted - The same name, cleaned and quoted for the message.
   */
  constructor(tool: string, quoted: string) {
    super(
      McpManagerErrorCode.UNKNOWN_TOOL,
      `There is no MCP tool named ${quoted}. Use only the MCP tools you were given.`,
    );
    this.name = 'UnknownToolError';
    this.tool = tool;
    mark(this, MARKERS.UnknownToolError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is UnknownToolError {
    return hasMarker(value, MARKERS.UnknownToolError);
  }
}

/**
 * `call(name)` for a tool whose server is not connected (code `SERVER_NOT_CONNECTED`): it is
 * disabled, was not allowed, failed, stopped, or is still starting. `state` says which.
 *
 * @example
 * ```ts
 * try {
 *   await mcp.call('mcp__fix__run', {});
 * } catch (e) {
 *   if (ServerNotConnectedError.isInstance(e)) ui.show(e.server, e.state);
 * }
 * ```
 */
export class ServerNotConnectedError extends McpManagerError {
  /** The server's name. */
  readonly server: string;
  /** Its state when the call was made. */
  readonly state: ServerState;

  /**
   * @param server - The server's name (a valid config name, safe to show).
   * @param state - Its state.
   * @param why - A short, cleaned reason in words (e.g. `you did not allow it`).
   */
  constructor(server: string, state: ServerState, why: string) {
    super(
      McpManagerErrorCode.SERVER_NOT_CONNECTED,
      `MCP server "${server}" is not connected (state: ${state}; ${why}), so its tools cannot be used. Do not pretend to use them.`,
    );
    this.name = 'ServerNotConnectedError';
    this.server = server;
    this.state = state;
    mark(this, MARKERS.ServerNotConnectedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is ServerNotConnectedError {
    return hasMarker(value, MARKERS.ServerNotConnectedError);
  }
}

/**
 * `call()` with arguments that are not a JSON object (code `INVALID_ARGUMENTS`).
 *
 * @example
 * ```ts
 * await mcp.call('mcp__github__search', 'query'); // throws InvalidArgumentsError
 * ```
 */
export class InvalidArgumentsError extends McpManagerError {
  /**
   * @param tool - The tool's model-facing name (safe: it matches the tool name pattern).
   * @param got - What was given instead, in words.
   */
  constructor(tool: string, got: string) {
    super(
      McpManagerErrorCode.INVALID_ARGUMENTS,
      `The arguments of ${tool} must be a JSON object, not ${got}. Call it again with an object.`,
    );
    this.name = 'InvalidArgumentsError';
    mark(this, MARKERS.InvalidArgumentsError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is InvalidArgumentsError {
    return hasMarker(value, MARKERS.InvalidArgumentsError);
  }
}

/**
 * The user declined a tool call (code `CALL_DECLINED`). The message tells the model so; hand it
 * over as the tool's answer, or end the turn.
 *
 * @example
 * ```ts
 * if (CallDeclinedError.isInstance(e)) toolAnswer = e.message;
 * ```
 */
export class CallDeclinedError extends McpManagerError {
  /** @param tool - The tool's model-facing name (safe: it matches the tool name pattern). */
  constructor(tool: string) {
    super(
      McpManagerErrorCode.CALL_DECLINED,
      `The user declined this call of ${tool}; it did not run. Do not call it again unless the user asks you to; continue without it or ask the user what to do.`,
    );
    this.name = 'CallDeclinedError';
    mark(this, MARKERS.CallDeclinedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is CallDeclinedError {
    return hasMarker(value, MARKERS.CallDeclinedError);
  }
}

/**
 * The caller's signal cancelled a call (code `CALL_CANCELLED`), while it waited for approval or
 * for the server. Distinct from {@link CallTimeoutError}.
 *
 * @example
 * ```ts
 * controller.abort(); // the pending call rejects with CallCancelledError
 * ```
 */
export class CallCancelledError extends McpManagerError {
  /**
   * @param tool - The tool's model-facing name.
   * @param options - `cause`: the signal's reason.
   */
  constructor(tool: string, options?: { cause?: unknown }) {
    super(
      McpManagerErrorCode.CALL_CANCELLED,
      `The call of ${tool} was cancelled by the user before it finished.`,
      options,
    );
    this.name = 'CallCancelledError';
    mark(this, MARKERS.CallCancelledError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is CallCancelledError {
    return hasMarker(value, MARKERS.CallCancelledError);
  }
}

/**
 * The server did not answer a call within its `timeoutMs` (code `CALL_TIMEOUT`). The request is
 * cancelled at the server; the server stays connected.
 *
 * @example
 * ```ts
 * if (CallTimeoutError.isInstance(e)) ui.show(e.timeoutMs);
 * ```
 */
export class CallTimeoutError extends McpManagerError {
  /** The limit that passed, in ms. */
  readonly timeoutMs: number;

  /**
   * @param tool - The tool's model-facing name.
   * @param server - The server's name.
   * @param timeoutMs - The limit.
   * @param options - `cause`: the SDK's error.
   */
  constructor(tool: string, server: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(
      McpManagerErrorCode.CALL_TIMEOUT,
      `The call of ${tool} timed out: MCP server "${server}" did not answer within ${timeoutMs} ms (its timeoutMs), so the call was cancelled.`,
      options,
    );
    this.name = 'CallTimeoutError';
    this.timeoutMs = timeoutMs;
    mark(this, MARKERS.CallTimeoutError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is CallTimeoutError {
    return hasMarker(value, MARKERS.CallTimeoutError);
  }
}

/**
 * The server's answer was larger than the message cap (4 MiB) and was dropped unread (code
 * `RESULT_TOO_LARGE`). The server stays connected and usable.
 *
 * @example
 * ```ts
 * if (ResultTooLargeError.isInstance(e)) ui.show('ask for less data');
 * ```
 */
export class ResultTooLargeError extends McpManagerError {
  /**
   * @param tool - The tool's model-facing name.
   * @param detail - What the transport reported (cleaned).
   */
  constructor(tool: string, detail: string) {
    super(
      McpManagerErrorCode.RESULT_TOO_LARGE,
      `The answer to ${tool} was too large and was dropped (${detail}). Ask for less data, e.g. a smaller range or a filter.`,
    );
    this.name = 'ResultTooLargeError';
    mark(this, MARKERS.ResultTooLargeError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is ResultTooLargeError {
    return hasMarker(value, MARKERS.ResultTooLargeError);
  }
}

/**
 * The server stopped while a call was running (code `SERVER_STOPPED`): by itself (it crashed) or
 * because it was reloaded. (A stop by `close()` gives {@link ManagerClosedError}.)
 *
 * @example
 * ```ts
 * if (ServerStoppedError.isInstance(e)) ui.show(mcp.status());
 * ```
 */
export class ServerStoppedError extends McpManagerError {
  /**
   * @param tool - The tool's model-facing name.
   * @param server - The server's name.
   * @param why - How it stopped (cleaned, one line).
   */
  constructor(tool: string, server: string, why: string) {
    super(
      McpManagerErrorCode.SERVER_STOPPED,
      `The call of ${tool} failed: MCP server "${server}" stopped during the call (${why}). Its tools now fail.`,
    );
    this.name = 'ServerStoppedError';
    mark(this, MARKERS.ServerStoppedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is ServerStoppedError {
    return hasMarker(value, MARKERS.ServerStoppedError);
  }
}

/**
 * The call failed for another reason (code `CALL_FAILED`): the server answered with a protocol
 * error (unknown tool, bad arguments), its result was invalid, or the approval question failed.
 * A tool that ran and reported an error is not this: that is a result with `isError: true`.
 *
 * @example
 * ```ts
 * if (CallFailedError.isInstance(e)) toolAnswer = e.message;
 * ```
 */
export class CallFailedError extends McpManagerError {
  /**
   * @param tool - The tool's model-facing name.
   * @param detail - What went wrong (cleaned, one line).
   * @param options - `cause`: the underlying error.
   */
  constructor(tool: string, detail: string, options?: { cause?: unknown }) {
    super(McpManagerErrorCode.CALL_FAILED, `The call of ${tool} failed: ${detail}`, options);
    this.name = 'CallFailedError';
    mark(this, MARKERS.CallFailedError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is CallFailedError {
    return hasMarker(value, MARKERS.CallFailedError);
  }
}

/** What {@link SignInRequiredError} reports. */
export interface SignInRequiredDetails {
  /** The server's name. */
  readonly server: string;
  /** The tool's model-facing name, when a call needed the sign-in. */
  readonly tool?: string;
  /** Why a sign-in was needed. */
  readonly reason: SignInReason;
  /** The scopes the sign-in asks for (cleaned; may be empty). */
  readonly scopes: readonly string[];
  /** `more-access`: the scopes the server asked for that the current sign-in lacks. */
  readonly addedScopes: readonly string[];
  /** Why it did not happen, e.g. `you skipped it` (cleaned, one line). */
  readonly detail: string;
}

function scopeList(scopes: readonly string[]): string {
  return scopes.map((scope) => JSON.stringify(scope)).join(', ');
}

/**
 * A remote server needs a sign-in that did not happen (code `SIGN_IN_REQUIRED`): during a call,
 * its sign-in expired or it asked for more scopes (`403 insufficient_scope`), and the sign-in
 * was declined, cancelled or failed; or `signIn()` did not complete. `scopes` and `addedScopes`
 * say what to sign in for (the CLI prints `garuda-mcp login <server> --scope …`).
 *
 * @example
 * ```ts
 * if (SignInRequiredError.isInstance(e)) ui.show(`sign in to ${e.server} for ${e.addedScopes.join(' ')}`);
 * ```
 */
export class SignInRequiredError extends McpManagerError {
  /** The server's name. */
  readonly server: string;
  /** The tool's model-facing name, when a call needed the sign-in. */
  readonly tool: string | undefined;
  /** Why a sign-in was needed. */
  readonly reason: SignInReason;
  /** The scopes the sign-in asks for. */
  readonly scopes: readonly string[];
  /** `more-access`: the scopes the current sign-in lacks. */
  readonly addedScopes: readonly string[];

  /**
   * @param details - See {@link SignInRequiredDetails}; every string already cleaned.
   * @param options - `cause`: the underlying error.
   */
  constructor(details: SignInRequiredDetails, options?: { cause?: unknown }) {
    const what =
      details.reason === 'more-access'
        ? `more access to MCP server "${details.server}"${details.addedScopes.length > 0 ? ` (the ${details.addedScopes.length === 1 ? 'scope' : 'scopes'} ${scopeList(details.addedScopes)})` : ''}`
        : `a ${details.reason === 'expired' ? 'new ' : ''}sign-in to MCP server "${details.server}"`;
    super(
      McpManagerErrorCode.SIGN_IN_REQUIRED,
      details.tool === undefined
        ? `The sign-in to MCP server "${details.server}" did not happen: ${details.detail}.`
        : `The call of ${details.tool} needs ${what}, and the sign-in did not happen: ${details.detail}. The user can sign in and then call it again.`,
      options,
    );
    this.name = 'SignInRequiredError';
    this.server = details.server;
    this.tool = details.tool;
    this.reason = details.reason;
    this.scopes = Object.freeze([...details.scopes]);
    this.addedScopes = Object.freeze([...details.addedScopes]);
    mark(this, MARKERS.SignInRequiredError);
  }

  /** @param value - Anything. @returns `true` for this error, from any copy of this package. */
  static override isInstance(value: unknown): value is SignInRequiredError {
    return hasMarker(value, MARKERS.SignInRequiredError);
  }
}
