// The errors of `call()` and `signIn()`: their messages are written for the model too.
import { brand } from '@garuda/internal';
import { McpManagerError, McpManagerErrorCode } from '../error-base.js';
import type { ServerState, SignInReason } from '../types.js';

/** The first part of this package's error markers. */
const SCOPE = 'garuda.mcp-manager';

/**
 * `call(name)` for a name no MCP tool has (code `MANAGER_UNKNOWN_TOOL`). The message tells the model to
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
    this.tool = tool;
  }

  static override readonly isInstance = brand(this, SCOPE, 'UnknownToolError');
}

/**
 * `call(name)` of a tool the user hid (code `MANAGER_TOOL_HIDDEN`): the server's `denyTools` or
 * `allowTools`, or `disable(name)` this session. Also `enable(name)` of a tool a `denyTools`
 * pattern hides (a deny wins: only the file can change it).
 *
 * @example
 * ```ts
 * await mcp.call('mcp__github__delete_repo', {}); // throws ToolHiddenError when denied
 * ```
 */
export class ToolHiddenError extends McpManagerError {
  /** The name that was called or enabled (model-facing). */
  readonly tool: string;
  /** Why it is hidden. */
  readonly reason: 'denied' | 'not-allowed' | 'disabled';

  /**
   * @param tool - The model-facing name (a valid tool name, safe to show).
   * @param reason - Why it is hidden.
   * @param message - The whole message, cleaned.
   */
  constructor(tool: string, reason: 'denied' | 'not-allowed' | 'disabled', message: string) {
    super(McpManagerErrorCode.TOOL_HIDDEN, message);
    this.tool = tool;
    this.reason = reason;
  }

  static override readonly isInstance = brand(this, SCOPE, 'ToolHiddenError');
}

/**
 * `call(name)` for a tool whose server is not connected (code `MANAGER_SERVER_NOT_CONNECTED`): it is
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
    this.server = server;
    this.state = state;
  }

  static override readonly isInstance = brand(this, SCOPE, 'ServerNotConnectedError');
}

/**
 * `call()` with arguments that are not a JSON object (code `MANAGER_INVALID_ARGUMENTS`).
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'InvalidArgumentsError');
}

/**
 * The user declined a tool call (code `MANAGER_CALL_DECLINED`). The message tells the model so; hand it
 * over as the tool's answer, or end the turn.
 *
 * @example
 * ```ts
 * if (CallDeclinedError.isInstance(e)) toolAnswer = e.message;
 * ```
 */
export class CallDeclinedError extends McpManagerError {
  /** The user's deny rule that refused the call; absent when the user answered no. */
  readonly rule: string | undefined;

  /**
   * @param tool - The tool's model-facing name (safe: it matches the tool name pattern).
   * @param rule - The deny rule that refused it, unasked (a valid rule: no control characters).
   */
  constructor(tool: string, rule?: string) {
    super(
      McpManagerErrorCode.CALL_DECLINED,
      rule === undefined
        ? `The user declined this call of ${tool}; it did not run. Do not call it again unless the user asks you to; continue without it or ask the user what to do.`
        : `The user's rule ${JSON.stringify(rule)} denies calls of ${tool}; it did not run. Do not call it again; continue without it.`,
    );
    this.rule = rule;
  }

  static override readonly isInstance = brand(this, SCOPE, 'CallDeclinedError');
}

/**
 * The caller's signal cancelled a call (code `MANAGER_CALL_CANCELLED`), while it waited for approval or
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'CallCancelledError');
}

/**
 * The server did not answer a call within its `timeoutMs` (code `MANAGER_CALL_TIMEOUT`). The request is
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
    this.timeoutMs = timeoutMs;
  }

  static override readonly isInstance = brand(this, SCOPE, 'CallTimeoutError');
}

/**
 * The server's answer was larger than the message cap (4 MiB) and was dropped unread (code
 * `MANAGER_RESULT_TOO_LARGE`). The server stays connected and usable.
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'ResultTooLargeError');
}

/**
 * The server stopped while a call was running (code `MANAGER_SERVER_STOPPED`): by itself (it crashed) or
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'ServerStoppedError');
}

/**
 * The call failed for another reason (code `MANAGER_CALL_FAILED`): the server answered with a protocol
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'CallFailedError');
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
 * A remote server needs a sign-in that did not happen (code `MANAGER_SIGN_IN_REQUIRED`): during a call,
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
    this.server = details.server;
    this.tool = details.tool;
    this.reason = details.reason;
    this.scopes = Object.freeze([...details.scopes]);
    this.addedScopes = Object.freeze([...details.addedScopes]);
  }

  static override readonly isInstance = brand(this, SCOPE, 'SignInRequiredError');
}
