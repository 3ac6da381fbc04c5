import { log } from '@garuda/internal';
import { MessageTooLargeError, ProcessExitedError, ProcessTransport } from '@garuda/mcp-transport';
import {
  Client,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Transport,
} from '@modelcontextprotocol/client';
import { linkSignals, raceAbort, untilOr, within } from '../common/abort.js';
import {
  MAX_AUTHORIZATIONS,
  describeExit,
  isClosedConnection,
  localTransport,
  seconds,
  withExcerpt,
  type OpenOptions,
  type OpenResult,
  type Reauthorize,
} from './connection-types.js';
import {
  CallCancelledError,
  CallFailedError,
  CallTimeoutError,
  ResultTooLargeError,
  ServerStoppedError,
  SignInRequiredError,
} from '../errors.js';
import { droppedShape, mayBeAnAnswer } from './dropped-message.js';
import type { OpenRequest } from '../elicit/elicit-budget.js';
import type { ServerAnswers } from '../elicit/elicitation.js';
import { CallClock, SDK_BACKSTOP_MS } from '../calls/call-clock.js';
import { messageOf, oneLine } from '../common/text.js';
import { LogRelay, progressRelay, refuseServerRequest } from './server-messages.js';
import { filterToolLists } from '../offer/tool-list-filter.js';
import { TaskWire, frameTaskRequest, serverRunsTasks } from '../calls/task-wire.js';
import { startLists } from '../offer/server-lists.js';
import { ToolListStore } from './tool-list-store.js';
import { listenForChanges, type ListKind } from '../offer/change-stream.js';
import type { CallProgress, ManagerLogger } from '../types.js';

export {
  MAX_AUTHORIZATIONS,
  STDERR_PART,
  type LocalLaunch,
  type OpenOptions,
  type OpenResult,
  type Reauthorize,
  type RemoteLaunch,
} from './connection-types.js';

/** Ends a start that ran out of time. */
function abortStart(deadline: AbortController): void {
  deadline.abort(new Error('start time limit'));
}

/** How long each step of closing one server may take before we stop waiting for it. */
const CLOSE_STEP_MS = 8_000;

/** A request of ours on its way: what a server's question during it and a too-large answer see. */
class InFlight implements OpenRequest {
  readonly controller: AbortController;
  readonly clock: CallClock;
  questions = 0;
  told = false;
  tooLarge?: string;
  /**
   * Made only when a server's question reads {@link settled} (an elicitation during the request):
   * most requests see none, and a signal they never read is not made for them.
   */
  #settled: AbortController | undefined;
  #isSettled = false;

  constructor(controller: AbortController, clock: CallClock) {
    this.controller = controller;
    this.clock = clock;
  }

  /** Aborted once the request has settled: the questions that came during it close. */
  get settled(): AbortSignal {
    if (this.#settled === undefined) {
      this.#settled = new AbortController();
      if (this.#isSettled) this.#settled.abort(settledReason());
    }
    return this.#settled.signal;
  }

  /** The request has settled (once): aborts {@link settled} if it was read. */
  settle(): void {
    this.#isSettled = true;
    this.#settled?.abort(settledReason());
  }
}

function settledReason(): Error {
  return new Error('the request has settled');
}

/** What a call needs besides the tool and its arguments. */
interface CallAttemptOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs: number;
  /** Asks the server for progress, told to this (rate-limited, cleaned). */
  readonly onProgress?: ((progress: CallProgress) => void) | undefined;
}

/**
 * One call attempt: the result, or the error to throw and, when a new sign-in may help, the
 * SDK's own error.
 */
type Attempt<T> =
  | { readonly ok: true; readonly result: T }
  | { readonly ok: false; readonly error: Error; readonly cause?: unknown };

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
  readonly #reauthorize: Reauthorize | undefined;
  /** Aborts when the connection closes: a sign-in a call waits for stops then. */
  readonly #lifetime = new AbortController();
  readonly #inFlight = new Set<InFlight>();
  /** Why the server is gone (planned or not); undefined while it runs. */
  #stopped: string | undefined;
  #planned = false;
  #onExit: ((reason: string) => void) | undefined;
  #onListChanged: ((kind: ListKind) => void) | undefined;
  #onResourceUpdated: ((uri: string) => void) | undefined;
  #answers: ServerAnswers | undefined;
  /** Sends the tasks extension's requests beside the SDK client (see task-wire.ts). */
  #wire: { readonly wire: TaskWire; readonly envelope: Record<string, unknown> } | undefined;
  /** Questions of this server the user is answering now: the requests' clocks pause meanwhile. */
  #asking = 0;
  #closing: Promise<void> | undefined;
  /** Settles when the connection has closed (the process exited, or the SDK closed it). */
  readonly #gone: Promise<void>;
  #markGone: () => void = () => {};

  private constructor(
    server: string,
    client: Client,
    transport: Transport,
    logger: ManagerLogger | undefined,
    reauthorize: Reauthorize | undefined,
  ) {
    this.server = server;
    this.#client = client;
    this.#transport = transport;
    this.#process = transport instanceof ProcessTransport ? transport : undefined;
    this.#logger = logger;
    this.#reauthorize = reauthorize;
    this.#gone = new Promise((resolve) => {
      this.#markGone = resolve;
    });
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
    const made =
      launch.kind === 'remote' ? { transport: launch.transport } : localTransport(launch);
    if ('reason' in made) return { ok: false, reason: made.reason, cancelled: false };
    const { transport } = made;
    // The connection keeps the transport itself (its process, its stderr); the client gets it
    // through the wire that also carries the tasks extension's requests.
    const wire = new TaskWire(transport);
    const capabilities = options.answers?.capabilities ?? {};
    const client = new Client(
      { name: options.clientInfo.name, version: options.clientInfo.version },
      {
        capabilities,
        versionNegotiation: { mode: 'auto' },
        // Only the tool list is kept as JSON (see tool-list-store.ts): the prompts and resources
        // are the manager's own, adapted, and listed again on every change.
        responseCacheStore: new ToolListStore(),
      },
    );
    const connection = new ServerConnection(
      server,
      client,
      transport,
      options.logger,
      launch.kind === 'remote' ? launch.reauthorize : undefined,
    );
    // Registered before the handshake, so no notification is missed; what it starts is bounded
    // and coalesced by whoever listens (tool-refresh.ts).
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      client.setNotificationHandler(`notifications/${kind}/list_changed`, () => {
        if (connection.#stopped === undefined) connection.#onListChanged?.(kind);
      });
    }
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      const uri: unknown = notification.params?.uri;
      if (connection.#stopped === undefined && typeof uri === 'string') {
        connection.#onResourceUpdated?.(uri);
      }
    });
    const logs = new LogRelay(server, options.onLog, options.logger);
    client.setNotificationHandler('notifications/message', (notification) => {
      if (connection.#stopped === undefined) logs.handle(notification.params);
    });
    connection.#answers = options.answers;
    connection.#wire = {
      wire,
      envelope: { clientInfo: { ...options.clientInfo }, clientCapabilities: capabilities },
    };
    options.answers?.install(client, connection.signal, {
      asking: (delta) => connection.#asked(delta),
      open: () => [...connection.#inFlight],
    });
    client.fallbackRequestHandler = refuseServerRequest(server, options.logger);
    const deadline = new AbortController();
    // A module-level callback: a closure here would put `deadline` in the scope the connection's
    // handlers keep for as long as the server runs.
    const timer = setTimeout(abortStart, timeoutMs, deadline);
    const { controller, detach } = linkSignals(signal, deadline.signal);
    const limits = { signal: controller.signal, timeout: timeoutMs };
    try {
      await raceAbort(
        client.connect(filterToolLists(wire, options.onSkip, { server }), limits),
        controller.signal,
      );
      const listed = await raceAbort(client.listTools(undefined, limits), controller.signal);
      const lists = await startLists(client, server, limits, options.logger);
      // The change stream is waited for only briefly: it never holds the start (see the file).
      await listenForChanges(client, {
        server,
        start: controller.signal,
        lifetime: connection.signal,
        timeoutMs,
        late: (kinds) => {
          for (const kind of kinds) {
            if (connection.#stopped === undefined) connection.#onListChanged?.(kind);
          }
        },
        logger: options.logger,
      });
      if (connection.#stopped !== undefined) throw new Error('the server stopped');
      return { ok: true, connection, tools: listed.tools, lists };
    } catch (error) {
      const timedOut = deadline.signal.aborted;
      // A server that crashed at start often fails the first write before its exit is known:
      // wait for the exit, so the reason says how it ended (and what its stderr said) rather
      // than that a pipe closed. A process whose pipe closed is ending; on a busy machine that
      // can take seconds, so the bound is the start's own time limit, not a guess.
      if (
        !signal.aborted &&
        !timedOut &&
        connection.#process?.exit === undefined &&
        isClosedConnection(error)
      ) {
        await untilOr(connection.#gone, controller.signal);
      }
      options.track(connection.close('its start failed'));
      if (signal.aborted) return { ok: false, reason: 'its start was cancelled', cancelled: true };
      const reason = timedOut
        ? connection.#withStderr(
            `it did not connect and list its tools within ${seconds(timeoutMs)}`,
          )
        : connection.#failure(error);
      const stderr = connection.#stderrLines();
      return { ok: false, reason, cancelled: false, error, timedOut, stderr };
    } finally {
      clearTimeout(timer);
      detach();
    }
  }

  /** Aborts when the connection closes, planned or not. */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
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
   * Calls `fn` on every `notifications/<kind>/list_changed` while the connection runs.
   *
   * @param fn - Told which list changed (it must not throw).
   */
  onListChanged(fn: (kind: ListKind) => void): void {
    this.#onListChanged = fn;
  }

  /**
   * Calls `fn` on every `notifications/resources/updated` while the connection runs.
   *
   * @param fn - Told the URI as the server sent it (raw: clean it before showing; must not throw).
   */
  onResourceUpdated(fn: (uri: string) => void): void {
    this.#onResourceUpdated = fn;
  }

  /**
   * Runs one request of this connection (a prompt, a resource, a list) with the SDK client, under
   * the caller's signal and a time limit; its failures are worded as a call's are.
   *
   * @param label - What it is, for messages (e.g. `the prompt "review"`).
   * @param run - The request, given the client and the request's signal and time limit.
   * @param options - The caller's signal and the time limit.
   * @returns What `run` returned.
   * @throws {@link CallCancelledError}, {@link CallTimeoutError}, {@link ServerStoppedError},
   *   {@link ResultTooLargeError} or {@link CallFailedError}.
   */
  async request<T>(
    label: string,
    run: (client: Client, limits: { signal: AbortSignal; timeout: number }) => Promise<T>,
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs: number },
  ): Promise<T> {
    const attempt = await this.#attempt(label, run, options);
    if (attempt.ok) return attempt.result;
    throw attempt.error;
  }

  /**
   * Whether the server runs tool calls as tasks: it declared the tasks extension on the 2026-07-28
   * protocol (the only one whose tasks the manager speaks).
   */
  get runsTasks(): boolean {
    return serverRunsTasks(this.#client);
  }

  /**
   * Sends one request of the tasks extension (`tools/call` that may become a task, `tasks/get`,
   * `tasks/cancel`), framed with the 2026 envelope, under the caller's signal and time limit.
   *
   * @param label - What it is, for messages.
   * @param method - The method.
   * @param params - Its params.
   * @param options - The caller's signal and the time limit.
   * @returns The server's result object, unchecked.
   * @throws As {@link request} does.
   */
  async taskRequest(
    label: string,
    method: string,
    params: Record<string, unknown>,
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs: number },
  ): Promise<Record<string, unknown>> {
    const wire = this.#wire;
    if (wire === undefined) throw new CallFailedError(label, 'the connection is not open');
    return this.request(
      label,
      (client, limits) =>
        wire.wire.request(
          method,
          frameTaskRequest(client, params, wire.envelope),
          AbortSignal.any([limits.signal, AbortSignal.timeout(limits.timeout)]),
        ),
      options,
    );
  }

  /**
   * Calls one tool.
   *
   * @param tool - The tool's MCP name.
   * @param name - Its model-facing name, for messages.
   * @param args - The arguments (a JSON object).
   * @param options - The caller's signal, the server's time limit, and where progress goes.
   * @returns The server's result, unformatted.
   * @throws {@link CallCancelledError}, {@link CallTimeoutError}, {@link ResultTooLargeError},
   *   {@link ServerStoppedError}, {@link SignInRequiredError} (a new sign-in it needed did not
   *   happen) or {@link CallFailedError}.
   */
  async call(
    tool: string,
    name: string,
    args: Record<string, unknown>,
    options: CallAttemptOptions,
  ): Promise<CallToolResult> {
    for (let signIns = 0; ; signIns++) {
      const attempt = await this.#callOnce(tool, name, args, options);
      if (attempt.ok) return attempt.result;
      const { error, cause } = attempt;
      const pages = await this.#answers?.pagesFirst(name, cause, this.#lifetime.signal);
      if (pages !== undefined) throw pages;
      if (cause === undefined || this.#reauthorize === undefined) throw error;
      if (signIns >= MAX_AUTHORIZATIONS) {
        throw new CallFailedError(
          name,
          `MCP server "${this.server}" still refused the call after ${MAX_AUTHORIZATIONS} new sign-ins`,
          { cause },
        );
      }
      const { controller, detach } = linkSignals(options.signal, this.#lifetime.signal);
      let signedIn: boolean;
      try {
        signedIn = await this.#reauthorize(cause, name, controller.signal);
      } catch (reason) {
        if (options.signal?.aborted) {
          throw new CallCancelledError(name, { cause: options.signal.reason });
        }
        if (this.#stopped !== undefined) {
          throw new ServerStoppedError(name, this.server, oneLine(this.#stopped, 200));
        }
        if (SignInRequiredError.isInstance(reason)) throw reason;
        throw new CallFailedError(name, `the new sign-in failed: ${oneLine(messageOf(reason))}`, {
          cause: reason,
        });
      } finally {
        detach();
      }
      if (!signedIn) throw error;
    }
  }

  /** One attempt of a call. Never throws. */
  async #callOnce(
    tool: string,
    name: string,
    args: Record<string, unknown>,
    options: CallAttemptOptions,
  ): Promise<Attempt<CallToolResult>> {
    const progress =
      options.onProgress === undefined
        ? undefined
        : progressRelay(options.onProgress, { server: this.server, tool: name }, this.#logger);
    try {
      const attempt = await this.#attempt(
        name,
        (client, limits) =>
          client.callTool(
            { name: tool, arguments: args },
            {
              ...limits,
              ...(progress === undefined ? {} : { onprogress: progress.onprogress }),
            },
          ),
        options,
      );
      // The last report before the result reaches the host before the result does.
      if (attempt.ok) progress?.finish();
      return attempt;
    } finally {
      progress?.stop();
    }
  }

  /** One request, its failure worded for `label`. Never throws. */
  async #attempt<T>(
    label: string,
    run: (client: Client, limits: { signal: AbortSignal; timeout: number }) => Promise<T>,
    options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs: number },
  ): Promise<Attempt<T>> {
    const { signal, timeoutMs } = options;
    const fail = (error: Error, cause?: unknown): Attempt<T> => ({ ok: false, error, cause });
    if (signal?.aborted) return fail(new CallCancelledError(label, { cause: signal.reason }));
    if (this.#stopped !== undefined) {
      return fail(new ServerStoppedError(label, this.server, this.#stopped));
    }
    const controller = new AbortController();
    const clock = new CallClock(timeoutMs, () => controller.abort(new Error('time limit')));
    const inFlight = new InFlight(controller, clock);
    if (this.#asking === 0) clock.run();
    // The SDK raises the same error for an abort and a timeout, so the caller's abort is tracked
    // here: our own controller is what the SDK sees.
    const onAbort = () => inFlight.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#inFlight.add(inFlight);
    try {
      const result = await run(this.#client, {
        signal: controller.signal,
        timeout: SDK_BACKSTOP_MS,
      });
      return { ok: true, result };
    } catch (error) {
      if (signal?.aborted) return fail(new CallCancelledError(label, { cause: signal.reason }));
      if (inFlight.tooLarge !== undefined) {
        return fail(new ResultTooLargeError(label, inFlight.tooLarge));
      }
      if (this.#stopped !== undefined) {
        return fail(new ServerStoppedError(label, this.server, oneLine(this.#stopped, 200)));
      }
      if (
        clock.expired ||
        (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
      ) {
        return fail(new CallTimeoutError(label, this.server, timeoutMs, { cause: error }));
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
        return fail(new ServerStoppedError(label, this.server, 'its connection closed'));
      }
      // Any other failure may be the server refusing the sign-in: the caller may sign in again.
      return fail(new CallFailedError(label, oneLine(messageOf(error)), { cause: error }), error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      clock.stop();
      this.#inFlight.delete(inFlight);
      inFlight.settle();
    }
  }

  /** A question of this server opened (`1`) or closed (`-1`): the requests' clocks follow. */
  #asked(delta: 1 | -1): void {
    this.#asking = Math.max(0, this.#asking + delta);
    for (const call of this.#inFlight) {
      if (this.#asking === 0) call.clock.run();
      else call.clock.pause();
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
    this.#lifetime.abort(new Error(reason));
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
    let shape = '';
    if (MessageTooLargeError.isInstance(error)) {
      shape = droppedShape(error);
      if (mayBeAnAnswer(error)) {
        // The SDK's request ids are its own, so which call it answered is not known: end them all.
        const detail = oneLine(error.message, 200);
        for (const call of this.#inFlight) {
          call.tooLarge = detail;
          call.controller.abort(error);
        }
      }
    }
    log(this.#logger, 'debug', `MCP server "${this.server}": ${oneLine(error.message)}${shape}`);
  }

  #handleClose(): void {
    this.#markGone();
    if (this.#planned) return;
    this.#stopped ??= this.#exitDescription() ?? 'its connection closed';
    this.#lifetime.abort(new Error(this.#stopped));
    // The SDK may close the connection on its own (a protocol error): make sure no process stays.
    void this.#transport.close();
    this.#onExit?.(this.#stopped);
  }

  /** How the process ended by itself, once it has; `undefined` while it runs or after close(). */
  #exitDescription(): string | undefined {
    const exit = this.#process?.exit;
    if (exit === undefined || exit.requested) return undefined;
    return describeExit(exit, this.#stderrLines());
  }

  /**
   * What the process wrote to stderr that is kept: its first lines, when they scrolled out of the
   * tail (where a program that then prints its usage said what is wrong), then its last lines.
   */
  #stderrLines(): string[] {
    const process = this.#process;
    return process === undefined ? [] : [...process.stderrHead(), ...process.stderrTail()];
  }

  #withStderr(reason: string): string {
    return withExcerpt(reason, this.#stderrLines());
  }

  #failure(error: unknown): string {
    const exit = this.#exitDescription();
    if (exit !== undefined) return `it could not start: it ${exit}`;
    return this.#withStderr(`it could not connect: ${messageOf(error)}`);
  }
}
