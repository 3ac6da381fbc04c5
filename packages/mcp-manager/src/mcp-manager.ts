import type { ConfigProblem } from '@garuda/mcp-config';
import type { RevokeResult, TokenStorageInfo } from '@garuda/mcp-oauth';
import type { CallOptions, StartOptions } from './calls/call-options.js';
import type { McpManagerOptions } from './options.js';
import { withHomes } from './launch/server-home.js';
import {
  getPrompt,
  promptList,
  readResource,
  resourceList,
  setSubscribed,
  templateList,
} from './offer/offer-calls.js';
import { toggleTool, type HiddenTool, type ToolToggleResult } from './offer/tool-control.js';
import { appList } from './offer/app-list.js';
import type { McpApp } from './offer/app-pins.js';
import { complete, type CompletionRequest, type CompletionResult } from './offer/completion.js';
import { LogLevels } from './offer/log-level.js';
import { ManagerSession } from './start/session.js';
import {
  cancelTask,
  getTask,
  type McpTask,
  type TaskCallResult,
  type TaskRequestOptions,
} from './calls/tasks.js';
import { statusRows } from './status/status.js';
import type {
  ManagerCallResult,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  PromptResult,
  ResourceResult,
  ServerLogLevel,
  StatusRow,
} from './types.js';

/**
 * The MCP client facade: reads the user's and the project's `mcp.json`, asks consent for
 * project servers, starts every local server in the OS sandbox, pins their tools against
 * silent changes, gives the model their cleaned tools, runs approved calls with cleaned and
 * wrapped results, and keeps `status()` and notes for the model.
 *
 * One manager is one session: `start()` once, then `tools()`, `call()`, `status()`,
 * `takeNotes()` and `reload(name)` as often as needed, and `close()` at the end. It never
 * prints: it asks and tells through the `prompter`, and logs through `logger`.
 *
 * @example
 * ```ts
 * const mcp = new McpManager({ root, home, userHome, env: process.env, clientInfo, prompter });
 * await mcp.start();
 * const tools = mcp.tools(); // give these to the model
 * const result = await mcp.call('mcp__github__search', { query: 'bug' }, { signal });
 * ui.show(result.text); // <mcp_result server="github" tool="search">…</mcp_result>
 * await mcp.close();
 * ```
 */
export class McpManager {
  readonly #session: ManagerSession;
  readonly #logLevels: LogLevels;

  /**
   * @param options - Where the project and the user's files are, the host's environment and
   *   prompter; see {@link McpManagerOptions}. Nothing is read or started until `start()`.
   * @throws {@link InvalidOptionsError} when an option is unusable.
   */
  constructor(options: McpManagerOptions) {
    this.#session = new ManagerSession(options);
    const logLevels = new LogLevels(options.logger);
    this.#logLevels = logLevels;
    this.#session.registry.onConnected.add((connection) => logLevels.connected(connection));
  }

  /**
   * Reads the configuration and starts every enabled server concurrently. Config problems are
   * told through `prompter.notice` (and kept for {@link problems}). Each server has
   * `timeouts.startMs` (30 s) for start + connect + list; a slow or failing server never holds up
   * or breaks the others (consent questions are asked one at a time). Resolves when every server
   * is connected, disabled, denied or failed.
   *
   * @param options - `signal` cancels the start; `only` starts just the named servers.
   * @throws {@link UnknownServerError} when `only` names a server no file configures,
   *   {@link AlreadyStartedError} on a second call, {@link ManagerClosedError} after (or
   *   during) `close()`, {@link StartCancelledError} when the signal aborts.
   */
  async start(options: StartOptions = {}): Promise<void> {
    return this.#session.start(options);
  }

  /**
   * The tools for the model (a new array): sorted by server, then tool name, so the prompt is
   * byte-stable. When two servers' tools get the same name (compared without case), the one rule
   * of `settleNames` decides: the host's servers, then the user's, then the project's, then other
   * clients' project files keep it, and a project's server cannot offer a name under a user
   * server's prefix even while that one is down; only then does the server first by name keep
   * it. The losing server is degraded: a notice, a note in {@link takeNotes} and its
   * `status()` row's `lostNames` say so. Tools the user hid and the tools of a server that stopped are
   * not listed. A server in `search` or `proxy` exposure lists only its `directTools` and what a
   * search promoted; `mcp_tool_search` (and `mcp_tool_call` for `proxy`) then come last.
   */
  tools(): McpTool[] {
    return [...this.#session.exposure.exposed().list];
  }

  /**
   * Every tool `call()` accepts by its own name (a new array, in the order of {@link tools}):
   * each offered tool of the connected servers, whatever its exposure (held back behind the
   * search too), without the manager's own tools. The user's filters apply as in `tools()`.
   */
  offeredTools(): McpTool[] {
    return [...this.#session.registry.view().list];
  }

  /** The tools of connected servers the user hid (`denyTools`, `allowTools`, {@link disable}), with why. */
  hiddenTools(): HiddenTool[] {
    return this.#session.registry.hidden();
  }

  /**
   * Offers one tool for the rest of this session (also after a reload), though `allowTools`
   * does not list it or {@link disable} hid it; `onChange` is told when `tools()` changed. A
   * `denyTools` pattern still wins ({@link ToolHiddenError}: only the file can change it).
   *
   * @param name - The model-facing name (`mcp__<server>__<tool>`) of a tool its server lists.
   * @throws {@link UnknownToolError}, {@link ToolHiddenError}.
   */
  enable(name: string): ToolToggleResult {
    return toggleTool(this.#session.registry, name, true);
  }

  /** Hides one tool (model-facing name) for this session: it leaves `tools()` and cannot be called. */
  disable(name: string): ToolToggleResult {
    return toggleTool(this.#session.registry, name, false);
  }

  /**
   * Calls one tool: asks `prompter.approveCall` (unless an allow rule matches), runs it with the
   * server's `timeoutMs` and the caller's signal, and returns the cleaned, capped result wrapped
   * in `<mcp_result server="…" tool="…">`. A tool that ran and reported an error is a result
   * with `isError: true`, not an exception. When a sandboxed local server's error (a result with
   * `isError`, or a JSON-RPC error: {@link CallFailedError}) says the system refused a file the
   * sandbox keeps from it (`EROFS`, `EACCES`…), a `(note: …)` follows (on a line after the
   * wrapper, or at the end of the message) naming the path and the write or read path that would
   * allow it, with the `garuda-mcp add … --replace` command; the path is cleaned and quoted.
   *
   * Every error thrown from here is an {@link McpManagerError} whose message is written for the
   * model too (hand it over as the tool's answer).
   *
   * @param name - The tool's name as given to the model (`mcp__<server>__<tool>`).
   * @param args - Its arguments: a JSON object (`undefined` means `{}`).
   * @param options - `signal` cancels the call; `onProgress` asks the server for progress.
   * @returns The formatted result.
   * @throws {@link UnknownToolError}, {@link ServerNotConnectedError} (naming the server's state),
   *   {@link InvalidArgumentsError}, {@link CallDeclinedError} (the user said no),
   *   {@link CallCancelledError}, {@link CallTimeoutError}, {@link ResultTooLargeError},
   *   {@link ServerStoppedError}, {@link CallFailedError}, {@link NotStartedError},
   *   {@link ManagerClosedError}.
   */
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<ManagerCallResult> {
    return this.#session.call(name, args, options);
  }

  /**
   * Calls a tool like {@link call} (the same approval, rules, grants, audit and pin checks, at
   * once), but lets a server of the tasks extension (`io.modelcontextprotocol/tasks`, protocol
   * 2026-07-28) answer with a task instead of a result; any other server's call is a plain call.
   * The task's status and result are then asked with {@link getTask} (no second approval), and
   * it is cancelled with {@link cancelTask}. A task is known by the manager's own id, which
   * reaches only the server that made it.
   *
   * @param name - The model-facing tool name.
   * @param args - Its arguments (a JSON object).
   * @param options - The signal (cancels the approval and the creation, not a created task).
   * @returns `{ kind: 'result', result }` (framed like `call()`'s), or `{ kind: 'task', task }`.
   * @throws As {@link call} does.
   * @example
   * ```ts
   * const started = await mcp.callTask('mcp__reports__write', { topic: 'sales' });
   * let task = started.kind === 'task' ? started.task : undefined;
   * while (task !== undefined && task.status === 'working') task = await mcp.getTask(task.taskId);
   * ```
   */
  async callTask(name: string, args: unknown, options: CallOptions = {}): Promise<TaskCallResult> {
    return this.#session.callTask(name, args, options);
  }

  /**
   * The connected servers that may answer {@link callTask} with a task: those that declared the
   * tasks extension (`io.modelcontextprotocol/tasks`) on the 2026-07-28 protocol, by name.
   */
  taskServers(): string[] {
    const { registry } = this.#session;
    return [...registry.connections]
      .filter(
        ([name, connection]) =>
          connection.runsTasks && registry.records.get(name)?.state === 'connected',
      )
      .map(([name]) => name)
      .sort();
  }

  /**
   * A task's status, asked of the server that runs it; once `completed`, its `result` (cleaned,
   * capped and framed like `call()`'s). The status message is cleaned to one line.
   *
   * @param taskId - The id {@link callTask} gave.
   * @param options - The signal; `related`: the caller's request named the task in related-task
   *   metadata (the server's request does too).
   * @returns The task.
   * @throws {@link UnknownTaskError} for an id this manager did not give (or forgot), and the
   *   errors of a call: {@link CallTimeoutError}, {@link ServerStoppedError}, {@link CallFailedError}…
   */
  async getTask(taskId: string, options: TaskRequestOptions = {}): Promise<McpTask> {
    this.#session.usable('getTask()');
    const { registry, tasks, options: checked, sandbox } = this.#session;
    return getTask(registry, tasks, taskId, options, { options: checked, sandbox });
  }

  /**
   * Asks the server that runs a task to cancel it ({@link getTask} then tells `cancelled`).
   *
   * @param taskId - The id {@link callTask} gave.
   * @param options - As {@link getTask}'s.
   * @throws As {@link getTask} does.
   */
  async cancelTask(taskId: string, options: TaskRequestOptions = {}): Promise<void> {
    this.#session.usable('cancelTask()');
    const { registry, tasks } = this.#session;
    await cancelTask(registry, tasks, taskId, options);
  }

  /**
   * The prompts of every connected server that passed the pin check (as tools must), by server,
   * then name. A prompt is a server's instructions: let the user pick one. A host names them
   * `<server>__<prompt>` (`promptName`); a prompt whose such name another server holds (a clash,
   * decided as for tools) is left out.
   */
  prompts(): McpPrompt[] {
    return promptList(this.#session.registry);
  }

  /**
   * Gets one prompt's messages, cleaned, wrapped in `<mcp_prompt server="…" name="…">` and marked
   * as the server's words. `args` (an object of strings, every required one present) is checked
   * first. Throws what `call()` throws, {@link UnknownServerError}, and {@link CallFailedError}
   * for a prompt not listed or held back until the user allows its change.
   */
  async getPrompt(
    server: string,
    name: string,
    args?: unknown,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<PromptResult> {
    this.#session.usable('getPrompt()');
    await this.#session.wakeServer(server, options.signal);
    return getPrompt(this.#session.registry, server, name, args, options.signal);
  }

  /**
   * The MCP Apps (extension `io.modelcontextprotocol/ui`) of every connected server, by server,
   * then URI: each `ui://` resource one of its tools names in `_meta.ui.resourceUri`, as it was
   * read and pinned when the tools were listed. Its HTML is exactly the bytes that were pinned
   * (never cleaned as text: hand it to a sandboxed frame, never to a model); a changed app of a
   * project server is not here until the user allows the change. Apps of at most 1 MiB, at most
   * 10 per server.
   */
  apps(): McpApp[] {
    return appList(this.#session.registry);
  }

  /**
   * Starts a server offered from its pins (state `ready`, `tools.startMode: 'lazy'`) as its first
   * use would, and waits for the start: the pin check runs first, and `onChange` then hears what
   * it offers (its resources, which a pinned list does not hold). Resolves at once for a server in
   * any other state, or a name no server has. The caller's `signal` ends only its own wait.
   */
  async wake(server: string, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    this.#session.usable('wake()');
    await this.#session.wakeServer(server, options.signal);
  }

  /** The resources of every connected server, by server, then URI (`shownUri` is for showing). */
  resources(): McpResource[] {
    return resourceList(this.#session.registry);
  }

  /** The resource templates of every connected server, by server, then template. */
  resourceTemplates(): McpResourceTemplate[] {
    return templateList(this.#session.registry);
  }

  /**
   * Reads one resource (a listed `uri`, or one a template expands to): text cleaned and capped,
   * binary contents as a note with type and size, wrapped in `<mcp_resource server="…" uri="…">`;
   * `contents` has the typed data. Throws what `call()` throws, and {@link UnknownServerError}.
   */
  async readResource(
    server: string,
    uri: string,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<ResourceResult> {
    this.#session.usable('readResource()');
    await this.#session.wakeServer(server, options.signal);
    return readResource(this.#session.registry, server, uri, options.signal);
  }

  /**
   * Subscribes to one resource of a server that offers subscriptions: from then on its updates
   * reach `onChange` as `{ kind: 'resource', server, uri }`, at most once per URI every
   * {@link RESOURCE_UPDATE_INTERVAL_MS}; updates of URIs nobody subscribed to are dropped. At
   * most {@link MAX_SUBSCRIPTIONS_PER_SERVER} per server; they end with the connection.
   * Throws what `readResource()` throws.
   */
  async subscribeResource(
    server: string,
    uri: string,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    this.#session.usable('subscribeResource()');
    await this.#session.wakeServer(server, options.signal);
    await setSubscribed(this.#session.registry, server, uri, true, options.signal);
  }

  /** Ends a subscription of {@link subscribeResource} (its updates stop at once). */
  async unsubscribeResource(
    server: string,
    uri: string,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    this.#session.usable('unsubscribeResource()');
    await setSubscribed(this.#session.registry, server, uri, false, options.signal);
  }

  /**
   * Asks the server whose prompt or resource template it is for completions of one argument
   * (`completion/complete`): only a prompt that passed the pin check or a template it listed.
   * The values are cleaned to one line, capped ({@link LIMITS}: `maxCompletionValues`,
   * `maxCompletionValueChars`) and without duplicates; a server without the `completions`
   * capability answers `{ values: [], hasMore: false }` without being asked. Waits at most
   * `timeoutMs` (default `LIMITS.completionTimeoutMs`, never longer than the server's own).
   *
   * @param request - The server, the prompt's name or the template's `uriTemplate` (as listed),
   *   the argument and what was typed, and the other arguments' values.
   * @param options - `signal` cancels the request; `timeoutMs` shortens its time limit.
   * @returns The cleaned suggestions.
   * @throws What `getPrompt()` throws; {@link CallFailedError} for a prompt or template the
   *   server does not list.
   * @example
   * const { values } = await mcp.complete({
   *   server: 'github', ref: { type: 'prompt', name: 'review' },
   *   argument: { name: 'repo', value: 'gar' },
   * });
   */
  async complete(
    request: CompletionRequest,
    options: { readonly signal?: AbortSignal; readonly timeoutMs?: number } = {},
  ): Promise<CompletionResult> {
    this.#session.usable('complete()');
    await this.#session.wakeServer(request.server, options.signal);
    return complete(this.#session.registry, request, options);
  }

  /**
   * Sets the least level of the log messages servers send (`logging/setLevel`) on every
   * connected server that declares `logging` and speaks a 2025 revision (2026-07-28 has no such
   * request), and remembers it: a server that connects later is told it too. A server that
   * refuses or does not answer within 5 s keeps its own level (logged at `debug`, not thrown).
   * The messages still reach `onServerLog` cleaned and rate-limited.
   *
   * @param level - An MCP log level (`debug` … `emergency`).
   * @param options - `signal` stops waiting for the servers' answers.
   * @returns The names of the servers that took the level, sorted.
   * @throws {@link InvalidOptionsError} for a level MCP does not have, {@link NotStartedError},
   *   {@link ManagerClosedError}.
   */
  async setLogLevel(
    level: ServerLogLevel,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<string[]> {
    this.#session.usable('setLogLevel()');
    return this.#logLevels.set(level, this.#session.registry.connections.values(), options.signal);
  }

  /**
   * One row per configured server, in configuration order (the user's servers first): name,
   * source, state, tool count, sandbox, network, and why it is denied or failed.
   *
   * @returns The rows (empty before `start()`).
   */
  status(): StatusRow[] {
    const { registry, exposure, sandbox, options } = this.#session;
    return withHomes(statusRows(registry, exposure.exposed(), sandbox), options);
  }

  /**
   * Notes for the model about servers it cannot use, each given once per state change, e.g.
   * `MCP server "fix" is not available (you did not allow it). Do not pretend to use it.`, and
   * about servers that lost tool or prompt names to another server (once per change of what
   * they lost).
   * Reasons quoted from a server are cleaned and tag-neutralised. The host wraps each note in a
   * `<garuda_note>` block.
   *
   * @returns The notes not taken yet (often none).
   */
  takeNotes(): string[] {
    const { notes, registry } = this.#session;
    return [...notes.take([...registry.records.values()]), ...registry.clashNotes()];
  }

  /** The problems `loadConfig` found at the last `start()` or `reload()` (each also told as a notice). */
  problems(): readonly ConfigProblem[] {
    return [...this.#session.problems];
  }

  /**
   * Signs in to a remote server now, even when it is signed in: asks `prompter.signIn`, opens
   * the sign-in page and waits for its callback, asking for the server's configured scopes, the
   * scopes its current sign-in holds, and `scopes` (e.g. the `addedScopes` of a
   * {@link SignInRequiredError} a call ended with). Works before `start()` (the start then uses
   * the new sign-in) and after it (a connected or failed server is reconnected with it). A
   * project's server must have been allowed already.
   *
   * @param name - The remote server's name, as configured.
   * @param options - `scopes` to ask for besides those; `signal` cancels the sign-in.
   * @throws {@link UnknownServerError} (no server of that name), {@link InvalidOptionsError} (a
   *   local server, one with its own `Authorization` header, or a bad scope name),
   *   {@link ServerNotConnectedError} (a project server not allowed yet),
   *   {@link SignInRequiredError} (the sign-in did not complete), {@link ManagerClosedError},
   *   {@link StartCancelledError} (the reconnect was cancelled).
   */
  async signIn(
    name: string,
    options: { readonly scopes?: readonly string[]; readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.#session.signIn(name, options);
  }

  /**
   * Where the tokens of new sign-ins are kept, and why: the `storage.tokenStorage` option with `auto`
   * resolved (the OS keychain is probed once, within its time limit). For a status screen:
   * `{ requested: 'auto', mode: 'file', available: true, reason: 'no OS keychain answered: …' }`.
   *
   * @returns The requested and the effective storage, whether it works, and why.
   */
  tokenStorage(): Promise<TokenStorageInfo> {
    return this.#session.authStore.storage();
  }

  /**
   * Signs out of a remote server: every stored sign-in of `name` is removed from
   * `<home>/mcp-auth.json` first, then its tokens are revoked at the authorization server
   * (RFC 7009) where it offers that. A connection signed in with OAuth is stopped (state
   * `stopped`, its tools fail with `MANAGER_SERVER_NOT_CONNECTED`); the next connect (`reload(name)`,
   * another manager) asks to sign in again.
   *
   * @param name - The server's name, as configured.
   * @param options - `signal` stops the revocation requests (the local entries are gone already).
   * @returns What was removed and revoked; a failed revocation is reported there, not thrown.
   * @throws {@link UnknownServerError} when no remote server of that name is configured (after
   *   `start()`), {@link ManagerClosedError}.
   */
  async logout(name: string, options: { signal?: AbortSignal } = {}): Promise<RevokeResult> {
    return this.#session.logout(name, options);
  }

  /**
   * Stops one server (a planned stop: no notice) and runs its whole start sequence again with
   * its configuration read anew: consent and pins apply again ("once" trust lasts for this
   * manager's session). A server removed from the configuration is stopped and leaves
   * `status()`; one added since `start()` is started.
   *
   * @param name - The server's name.
   * @param options - `signal` cancels the start.
   * @throws {@link UnknownServerError} when no file configures `name`,
   *   {@link NotStartedError}, {@link ManagerClosedError}, {@link StartCancelledError}.
   */
  async reload(name: string, options: StartOptions = {}): Promise<void> {
    return this.#session.reload(name, options);
  }

  /**
   * Stops every server (planned stops: no "stopped" notice): starts in progress are cancelled,
   * every client and process closed concurrently (stdin, then TERM and KILL to each process
   * group), bounded in time, and the audit log's pending lines written. Afterwards every server
   * shows `stopped` and no server process is left. Safe to call twice.
   */
  close(): Promise<void> {
    return this.#session.close();
  }
}
