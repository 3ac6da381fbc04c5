import {
  MessageTooLargeError,
  ProcessExitedError,
  ProcessTransport,
  buildSandbox,
  type ProcessExit,
  type SandboxInfo,
  type SandboxPolicy,
} from '@garuda/mcp-transport';
import {
  Client,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { linkSignals, raceAbort, within } from './abort.js';
import {
  CallCancelledError,
  CallFailedError,
  CallTimeoutError,
  ResultTooLargeError,
  ServerStoppedError,
} from './errors.js';
import { messageOf, oneLine } from './text.js';
import { filterToolLists } from './tool-list-filter.js';
import type { ManagerLogger } from './types.js';

/** How long each step of closing one server may take before we stop waiting for it. */
const CLOSE_STEP_MS = 8_000;
/** stderr lines quoted in a start failure. */
const STDERR_LINES_SHOWN = 3;

/** How a local server is started. @internal */
export interface LocalLaunch {
  readonly kind: 'local';
  /** The server's command and arguments, as configured. */
  readonly argv: readonly string[];
  /** The sandbox policy (expanded env, write paths, network…). */
  readonly policy: SandboxPolicy;
  /** What `detectSandbox` found. */
  readonly sandbox: SandboxInfo;
}

/** How a remote server is reached: a fresh HTTP transport (one per connection attempt). @internal */
export interface RemoteLaunch {
  readonly kind: 'remote';
  readonly transport: Transport;
}

/** What {@link ServerConnection.open} needs. @internal */
export interface OpenOptions {
  /** The server's name (a valid config name). */
  readonly server: string;
  /** A local process in its sandbox, or a remote transport. */
  readonly launch: LocalLaunch | RemoteLaunch;
  /** `{ name, version }` of the host, sent to the server. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The limit for start + connect + list. */
  readonly timeoutMs: number;
  /** Cancels the start (the process is stopped). */
  readonly signal: AbortSignal;
  /** Receives a notice for each malformed tool the list filter skipped. */
  readonly onSkip: (notice: string) => void;
  /**
   * Receives the stop of a server whose start failed: it is not waited for (a broken server
   * must not hold up the start), but the manager's `close()` waits for it.
   */
  readonly track: (stopping: Promise<void>) => void;
  readonly logger?: ManagerLogger | undefined;
}

/** The outcome of {@link ServerConnection.open}. @internal */
export type OpenResult =
  | { readonly ok: true; readonly connection: ServerConnection; readonly tools: readonly Tool[] }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly cancelled: boolean;
      /** The error that ended the start, when there was one (e.g. the SDK's `UnauthorizedError`). */
      readonly error?: unknown;
    };

interface InFlight {
  readonly controller: AbortController;
  tooLarge?: string;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function describeExit(exit: ProcessExit, stderr: readonly string[]): string {
  const how = exit.signal ? `was stopped by ${exit.signal}` : `exited with code ${exit.code}`;
  const tail = stderr.slice(-STDERR_LINES_SHOWN);
  return tail.length > 0 ? `${how}; last stderr lines: ${tail.join(' | ')}` : how;
}

// A message the transport dropped for its size is the answer to a call when it is not a request
// or notification of the server's own (those start with "method"). The transport's message
// quotes the line's start as JSON, so a key shows as \"method\":.
function isDroppedResponse(error: MessageTooLargeError): boolean {
  return !/\\"method\\"\s*:/.test(error.message);
}

/**
 * One running server: its transport (a sandboxed process, or HTTP) and its SDK client. Opening it
 * runs spawn + connect + list tools within one time limit; afterwards it runs calls and tells
 * the manager when the process stops by itself. @internal
 */
export class ServerConnection {
  /** The server's name. */
  readonly server: string;
  readonly #client: Client;
  readonly #transport: Transport;
  /** The local process, for a local server. */
  readonly #process: ProcessTransport | undefined;
  readonly #logger: ManagerLogger | undefined;
  readonly #inFlight = new Set<InFlight>();
  /** Why the server is gone (planned or not); undefined while it runs. */
  #stopped: string | undefined;
  #planned = false;
  #onExit: ((reason: string) => void) | undefined;
  #closing: Promise<void> | undefined;

  private constructor(
    server: string,
    client: Client,
    transport: Transport,
    logger: ManagerLogger | undefined,
  ) {
    this.server = server;
    this.#client = client;
    this.#transport = transport;
    this.#process = transport instanceof ProcessTransport ? transport : undefined;
    this.#logger = logger;
    client.onerror = (error) => this.#handleError(error);
    client.onclose = () => this.#handleClose();
  }

  /**
   * Starts a local server in its sandbox (or takes a remote server's transport), connects and
   * lists its tools, all within `options.timeoutMs`. Never throws: a failure comes back with a
   * reason in words (a local server's last stderr lines included) and the error itself, and the
   * process or transport is stopped.
   *
   * @param options - What to start and how.
   * @returns The connection and the raw tool list, or why it failed.
   */
  static async open(options: OpenOptions): Promise<OpenResult> {
    const { server, signal, timeoutMs } = options;
    if (signal.aborted) return { ok: false, reason: 'its start was cancelled', cancelled: true };
    const { launch } = options;
    let transport: Transport;
    if (launch.kind === 'remote') transport = launch.transport;
    else {
      let spawnable;
      try {
        spawnable = buildSandbox(launch.argv, launch.policy, launch.sandbox);
      } catch (error) {
        return {
          ok: false,
          reason: `it could not be started: ${messageOf(error)}`,
          cancelled: false,
        };
      }
      transport = new ProcessTransport({ ...spawnable });
    }
    const client = new Client(
      { name: options.clientInfo.name, version: options.clientInfo.version },
      { capabilities: {}, versionNegotiation: { mode: 'auto' } },
    );
    const connection = new ServerConnection(server, client, transport, options.logger);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('start time limit')), timeoutMs);
    const { controller, detach } = linkSignals(signal, deadline.signal);
    const limits = { signal: controller.signal, timeout: timeoutMs };
    try {
      await raceAbort(
        client.connect(filterToolLists(transport, options.onSkip, { server }), limits),
        controller.signal,
      );
      const listed = await raceAbort(client.listTools(undefined, limits), controller.signal);
      if (connection.#stopped !== undefined) throw new Error('the server stopped');
      return { ok: true, connection, tools: listed.tools };
    } catch (error) {
      options.track(connection.close('its start failed'));
      if (signal.aborted) return { ok: false, reason: 'its start was cancelled', cancelled: true };
      const reason = deadline.signal.aborted
        ? connection.#withStderr(
            `it did not connect and list its tools within ${seconds(timeoutMs)}`,
          )
        : connection.#failure(error);
      return { ok: false, reason, cancelled: false, error };
    } finally {
      clearTimeout(timer);
      detach();
    }
  }

  /** The process id of the sandbox (or of the server when there is none), while it runs. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /**
   * Calls `fn` once when the server stops without being asked to (at once if it already has).
   *
   * @param fn - Receives how it stopped, in words.
   */
  onExit(fn: (reason: string) => void): void {
    this.#onExit = fn;
    if (this.#stopped !== undefined && !this.#planned)
      queueMicrotask(() => fn(this.#stopped ?? ''));
  }

  /**
   * Calls one tool.
   *
   * @param tool - The tool's MCP name.
   * @param name - Its model-facing name, for messages.
   * @param args - The arguments (a JSON object).
   * @param options - The caller's signal and the server's time limit.
   * @returns The server's result, unformatted.
   * @throws {@link CallCancelledError}, {@link CallTimeoutError}, {@link ResultTooLargeError},
   *   {@link ServerStoppedError} or {@link CallFailedError}.
   */
  async call(
    tool: string,
    name: string,
    args: Record<string, unknown>,
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs: number },
  ): Promise<CallToolResult> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) throw new CallCancelledError(name, { cause: signal.reason });
    if (this.#stopped !== undefined) throw new ServerStoppedError(name, this.server, this.#stopped);
    const inFlight: InFlight = { controller: new AbortController() };
    // The SDK raises the same error for an abort and a timeout, so the caller's abort is tracked
    // here: our own controller is what the SDK sees.
    const onAbort = () => inFlight.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#inFlight.add(inFlight);
    try {
      return await this.#client.callTool(
        { name: tool, arguments: args },
        { signal: inFlight.controller.signal, timeout: timeoutMs },
      );
    } catch (error) {
      if (signal?.aborted) throw new CallCancelledError(name, { cause: signal.reason });
      if (inFlight.tooLarge !== undefined) throw new ResultTooLargeError(name, inFlight.tooLarge);
      if (this.#stopped !== undefined) {
        throw new ServerStoppedError(name, this.server, oneLine(this.#stopped, 200));
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        throw new CallTimeoutError(name, this.server, timeoutMs, { cause: error });
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
        throw new ServerStoppedError(name, this.server, 'its connection closed');
      }
      throw new CallFailedError(name, oneLine(messageOf(error)), { cause: error });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.#inFlight.delete(inFlight);
    }
  }

  /**
   * Stops the server (a planned stop: no exit report). Ends its stdin, then TERM and KILL to its
   * process group; each step is bounded, so this always settles.
   *
   * @param reason - Why, for calls still running (e.g. `it was reloaded`).
   */
  close(reason: string): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#planned = true;
    this.#stopped ??= reason;
    this.#closing = (async () => {
      await within(
        this.#client.close().catch(() => {}),
        CLOSE_STEP_MS,
      );
      await within(this.#transport.close(), CLOSE_STEP_MS);
      const pid = this.#process?.pid;
      if (this.#process?.exit === undefined && pid !== undefined) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    })();
    return this.#closing;
  }

  #handleError(error: Error): void {
    // The exit itself is read from the transport when the connection closes.
    if (ProcessExitedError.isInstance(error)) return;
    if (MessageTooLargeError.isInstance(error) && isDroppedResponse(error)) {
      const detail = oneLine(error.message, 200);
      for (const call of this.#inFlight) {
        call.tooLarge = detail;
        call.controller.abort(error);
      }
    }
    this.#logger?.debug?.(`MCP server "${this.server}": ${oneLine(error.message)}`);
  }

  #handleClose(): void {
    if (this.#planned) return;
    this.#stopped ??= this.#exitDescription() ?? 'its connection closed';
    // The SDK may close the connection on its own (a protocol error): make sure no process stays.
    void this.#transport.close();
    this.#onExit?.(this.#stopped);
  }

  /** How the process ended by itself, once it has; `undefined` while it runs or after close(). */
  #exitDescription(): string | undefined {
    const exit = this.#process?.exit;
    if (exit === undefined || exit.requested) return undefined;
    return describeExit(exit, this.#process?.stderrTail() ?? []);
  }

  #withStderr(reason: string): string {
    const tail = (this.#process?.stderrTail() ?? []).slice(-STDERR_LINES_SHOWN);
    return tail.length > 0 ? `${reason}; last stderr lines: ${tail.join(' | ')}` : reason;
  }

  #failure(error: unknown): string {
    const exit = this.#exitDescription();
    if (exit !== undefined) return `it could not start: it ${exit}`;
    return this.#withStderr(`it could not connect: ${messageOf(error)}`);
  }
}
