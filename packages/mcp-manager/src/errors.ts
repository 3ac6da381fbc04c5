// The errors of the manager's lifecycle; every error class of the package is exported here.
import { brand } from '@garuda/internal';
import { McpManagerError, McpManagerErrorCode } from './error-base.js';

export { McpManagerError, McpManagerErrorCode } from './error-base.js';
export {
  CallCancelledError,
  CallDeclinedError,
  CallFailedError,
  CallTimeoutError,
  InvalidArgumentsError,
  ResultTooLargeError,
  ServerNotConnectedError,
  ServerStoppedError,
  SignInRequiredError,
  ToolHiddenError,
  UnknownToolError,
} from './calls/call-errors.js';

/** The first part of this package's error markers. */
const SCOPE = 'garuda.mcp-manager';
export type { SignInRequiredDetails } from './calls/call-errors.js';
export { UnknownTaskError } from './calls/task-errors.js';

/**
 * Options or arguments of the wrong shape (code `MANAGER_INVALID_OPTIONS`): a relative `root`, a
 * prompter without `consent`, a `timeouts.startMs` of `-1`, a key the options do not have… A
 * programming error.
 *
 * @example
 * ```ts
 * new McpManager({ ...options, timeouts: { startMs: 0 } }); // throws InvalidOptionsError
 * ```
 */
export class InvalidOptionsError extends McpManagerError {
  /** The option at fault, as its path: e.g. `timeouts.startMs`, `sandbox.readPaths[1]`. */
  readonly option: string;

  /**
   * @param option - The option at fault.
   * @param problem - What is wrong and what is expected.
   */
  constructor(option: string, problem: string) {
    super(McpManagerErrorCode.INVALID_OPTIONS, `invalid option ${option}: ${problem}`);
    this.option = option;
  }

  static override readonly isInstance = brand(this, SCOPE, 'InvalidOptionsError');
}

/**
 * `start()` was called a second time (code `MANAGER_ALREADY_STARTED`). Use `reload(name)` to start one
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'AlreadyStartedError');
}

/**
 * `call()` or `reload()` before `start()` (code `MANAGER_NOT_STARTED`).
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'NotStartedError');
}

/**
 * The manager was closed (code `MANAGER_CLOSED`): a method called after `close()`, or a call that was
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'ManagerClosedError');
}

/**
 * `start()` or `reload()` was cancelled through its signal (code `MANAGER_START_CANCELLED`). Servers that
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
  }

  static override readonly isInstance = brand(this, SCOPE, 'StartCancelledError');
}

/**
 * `reload(name)` for a name that no configuration file has (code `MANAGER_UNKNOWN_SERVER`).
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
    this.server = server;
  }

  static override readonly isInstance = brand(this, SCOPE, 'UnknownServerError');
}
