import { brand, CodedError } from '@garuda/internal';

/** The first part of this package's error markers. */
const SCOPE = 'garuda.mcp-manager';

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
  INVALID_OPTIONS: 'MANAGER_INVALID_OPTIONS',
  /** `start()` was called a second time; use `reload(name)` to start one server again. */
  ALREADY_STARTED: 'MANAGER_ALREADY_STARTED',
  /** `call()` or `reload()` before `start()`. */
  NOT_STARTED: 'MANAGER_NOT_STARTED',
  /** The manager was closed (also: a call that was running when `close()` stopped its server). */
  CLOSED: 'MANAGER_CLOSED',
  /** `start()` or `reload()` was cancelled through its signal. */
  START_CANCELLED: 'MANAGER_START_CANCELLED',
  /** `reload(name)`: no server of that name is configured. */
  UNKNOWN_SERVER: 'MANAGER_UNKNOWN_SERVER',
  /** `call(name)`: no MCP tool has that name. */
  UNKNOWN_TOOL: 'MANAGER_UNKNOWN_TOOL',
  /**
   * `getTask()` or `cancelTask()`: no task of that id was started through this manager (or it was
   * forgotten: its server restarted, or many newer tasks came after it).
   */
  UNKNOWN_TASK: 'MANAGER_UNKNOWN_TASK',
  /** `call(name)` of a tool the user hid (`denyTools`, `allowTools`, `disable()`); `enable()` of a denied one. */
  TOOL_HIDDEN: 'MANAGER_TOOL_HIDDEN',
  /** `call(name)`: the tool's server is not connected (disabled, denied, failed, stopped, starting). */
  SERVER_NOT_CONNECTED: 'MANAGER_SERVER_NOT_CONNECTED',
  /** `call()`: the arguments are not a JSON object. */
  INVALID_ARGUMENTS: 'MANAGER_INVALID_ARGUMENTS',
  /** `call()`: the user declined the call. */
  CALL_DECLINED: 'MANAGER_CALL_DECLINED',
  /** `call()`: the caller's signal cancelled the call. */
  CALL_CANCELLED: 'MANAGER_CALL_CANCELLED',
  /** `call()`: the server did not answer within its `timeoutMs`. */
  CALL_TIMEOUT: 'MANAGER_CALL_TIMEOUT',
  /** `call()`: the server's answer was larger than the 4 MiB message cap and was dropped. */
  RESULT_TOO_LARGE: 'MANAGER_RESULT_TOO_LARGE',
  /** `call()`: the server stopped while the call was running. */
  SERVER_STOPPED: 'MANAGER_SERVER_STOPPED',
  /** `call()`: the server answered with a protocol error or an invalid result. */
  CALL_FAILED: 'MANAGER_CALL_FAILED',
  /**
   * `call()` or `signIn()`: the server needs a sign-in (a first one, a new one, or one with more
   * scopes) that was not done: declined, cancelled, or failed.
   */
  SIGN_IN_REQUIRED: 'MANAGER_SIGN_IN_REQUIRED',
} as const);

/** One of the values of {@link McpManagerErrorCode}. */
export type McpManagerErrorCode = (typeof McpManagerErrorCode)[keyof typeof McpManagerErrorCode];

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
export class McpManagerError extends CodedError<McpManagerErrorCode> {
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
  static readonly isInstance = brand(this, SCOPE, 'McpManagerError');
}
