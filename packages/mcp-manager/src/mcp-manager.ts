import { log } from '@garuda/internal';
import { withHomes } from './launch/server-home.js';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { defaultPaths, type ConfigProblem, type ServerConfig } from '@garuda/mcp-config';
import { AuthStore, type RevokeResult, type TokenStorageInfo } from '@garuda/mcp-oauth';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { TrustStore, type McpTrustEntry } from '@garuda/mcp-trust';
import { quoteText, TOOL_SEARCH_NAME } from '@garuda/mcp-tools';
import type { PinnedFetch } from '@garuda/pinned-fetch';
import { QuestionQueue, raceAbort } from './abort.js';
import { readyFromCache } from './start/lazy-start.js';
import type { ToolListCache } from './start/tool-cache.js';
import { ruleNotices } from './calls/tool-rules.js';
import { isHostTool } from './offer/tool-exposure.js';
import { ExposureSession, gatewayTarget } from './offer/tool-search-call.js';
import { callTool } from './calls/run-call.js';
import type { CallOptions, StartOptions } from './calls/call-options.js';
import {
  AlreadyStartedError,
  CallCancelledError,
  InvalidOptionsError,
  ManagerClosedError,
  NotStartedError,
  StartCancelledError,
  UnknownServerError,
  UnknownToolError,
} from './errors.js';
import { loadServers } from './start/load-servers.js';
import { auditRecorder, buildParts, projectFetch, toolListCache } from './manager-parts.js';
import type { AuditRecorder } from './calls/audit-recorder.js';
import { ElicitBudget } from './elicit/elicit-budget.js';
import { NoteTracker } from './status/notes.js';
import { checkOptions, type CheckedOptions, type McpManagerOptions } from './options.js';
import type { RemoteDeps } from './start/remote-connect.js';
import { sandboxForStart } from './launch/sandbox-once.js';
import { CLOSE_BOUND_MS, type ServerRegistry, type ServerRecord } from './start/server-registry.js';
import { checkScopes, signInNow } from './start/sign-in-target.js';
import { logoutServer } from './start/sign-out.js';
import { statusRows } from './status/status.js';
import { toggleTool, type HiddenTool, type ToolToggleResult } from './offer/tool-control.js';
import {
  getPrompt,
  promptList,
  readResource,
  resourceList,
  setSubscribed,
  templateList,
} from './offer/offer-calls.js';
import { messageOf, noticeText } from './text.js';
import { tellHost } from './start/server-messages.js';
import type {
  CallResult,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  PromptResult,
  ResourceResult,
  ServerChange,
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
  readonly #options: CheckedOptions;
  readonly #registry: ServerRegistry;
  /** Trust answered with "once": this session only. */
  readonly #session = new Map<string, McpTrustEntry>();
  readonly #questions: QuestionQueue;
  readonly #notes = new NoteTracker();
  readonly #lifetime = new AbortController();
  /** The strict fetch for project remote servers (public addresses only). */
  readonly #pinnedFetch: PinnedFetch;
  /** The sign-ins of remote servers, `<home>/mcp-auth.json`. */
  readonly #authStore: AuthStore;
  readonly #store: TrustStore | NonNullable<CheckedOptions['trustStore']>;
  readonly #remote: RemoteDeps;
  readonly #audit: AuditRecorder;
  /** The pinned tool lists for a lazy start, `<home>/mcp-tool-cache.json`. */
  readonly #cache: ToolListCache;
  /** What the model is shown, and the tools a search promoted this session. */
  readonly #exposure: ExposureSession;
  #problems: readonly ConfigProblem[] = [];
  #sandbox: SandboxInfo | undefined;
  #started = false;
  #closed = false;
  #closing: Promise<void> | undefined;

  /**
   * @param options - Where the project and the user's files are, the host's environment and
   *   prompter; see {@link McpManagerOptions}. Nothing is read or started until `start()`.
   * @throws {@link InvalidOptionsError} when an option is unusable.
   */
  constructor(options: McpManagerOptions) {
    this.#options = checkOptions(options);
    const { home, root, logger } = this.#options;
    this.#questions = new QuestionQueue({
      giveWayMs: this.#options.elicitation.giveWayMs,
      concurrent: this.#options.prompter.concurrent,
    });
    // Every server start and call in flight listens to the manager's lifetime: more than ten is
    // normal here, and Node's "possible leak" warning would print on the host's stderr.
    setMaxListeners(0, this.#lifetime.signal);
    const withLogger = logger ? { logger } : {};
    this.#store =
      this.#options.trustStore ??
      new TrustStore(defaultPaths({ home, root }).trustFile, withLogger);
    // The keychain is reached through the host's environment (its session bus), never ours.
    this.#authStore = new AuthStore(path.join(home, 'mcp-auth.json'), {
      ...withLogger,
      tokenStorage: this.#options.tokenStorage,
      env: this.#options.env,
    });
    this.#pinnedFetch = projectFetch(this.#options);
    this.#audit = auditRecorder(this.#options);
    this.#cache = toolListCache(this.#options);
    const owned = {
      store: this.#store,
      session: this.#session,
      questions: this.#questions,
      elicitBudget: new ElicitBudget(this.#options.elicitation),
      authStore: this.#authStore,
      pinnedFetch: this.#pinnedFetch as unknown as typeof fetch,
      sandbox: () => this.#sandbox as SandboxInfo,
      notice: (text: string) => this.#notice(text),
      changed: (change: ServerChange) => this.#changed(change),
      track: (stopping: Promise<void>) => this.#registry.track(stopping),
      audit: this.#audit,
      cache: this.#cache,
    };
    ({ remote: this.#remote, registry: this.#registry } = buildParts(this.#options, owned));
    this.#exposure = new ExposureSession(this.#registry, this.#options.exposure, (change) =>
      this.#changed(change),
    );
  }

  /**
   * Reads the configuration and starts every enabled server concurrently. Config problems are
   * told through `prompter.notice` (and kept for {@link problems}). Each server has
   * `startTimeoutMs` (30 s) for start + connect + list; a slow or failing server never holds up
   * or breaks the others (consent questions are asked one at a time). Resolves when every server
   * is connected, disabled, denied or failed.
   *
   * @param options - `signal` cancels the start; `only` starts just the named servers.
   * @throws {@link UnknownServerError} when `only` names a server no file configures,
   *   {@link AlreadyStartedError} on a second call, {@link ManagerClosedError} after (or
   *   during) `close()`, {@link StartCancelledError} when the signal aborts.
   */
  async start(options: StartOptions = {}): Promise<void> {
    if (this.#closed) throw new ManagerClosedError('start()');
    if (this.#started) throw new AlreadyStartedError();
    this.#started = true;
    const { signal } = options;
    for (const notice of ruleNotices(this.#options.rules)) this.#notice(notice);
    const servers = await this.#load(undefined);
    if (this.#closed) throw new ManagerClosedError('start()');
    const only = options.only === undefined ? undefined : new Set(options.only);
    for (const name of only ?? []) {
      if (typeof name !== 'string' || !servers.some((config) => config.name === name)) {
        throw new UnknownServerError(String(name), quoteText(String(name)));
      }
    }
    const records = servers.map((config) => this.#registry.add(config));
    const wanted = records.filter((record) => only === undefined || only.has(record.name));
    const ready = await this.#readyFromCache(wanted);
    await this.#sandboxFor(records, signal, 'start()');
    const launched = records.filter((record) => {
      if (ready.has(record)) return false;
      if (only === undefined || only.has(record.name)) return true;
      this.#registry.setState(record, 'stopped', 'not started (this run needs other servers)');
      return false;
    });
    await this.#registry.launchAll(launched, signal, this.#lifetime.signal);
    this.#afterStart(signal, 'start()');
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
    return [...this.#exposure.exposed().list];
  }

  /**
   * Every tool `call()` accepts by its own name (a new array, in the order of {@link tools}):
   * each offered tool of the connected servers, whatever its exposure (held back behind the
   * search too), without the manager's own tools. The user's filters apply as in `tools()`.
   */
  offeredTools(): McpTool[] {
    return [...this.#registry.view().list];
  }

  /** The tools of connected servers the user hid (`denyTools`, `allowTools`, {@link disable}), with why. */
  hiddenTools(): HiddenTool[] {
    return this.#registry.hidden();
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
    return toggleTool(this.#registry, name, true);
  }

  /** Hides one tool (model-facing name) for this session: it leaves `tools()` and cannot be called. */
  disable(name: string): ToolToggleResult {
    return toggleTool(this.#registry, name, false);
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
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<CallResult> {
    const label = typeof name === 'string' ? quoteText(name) : `(${typeof name})`;
    if (this.#closed) throw new ManagerClosedError(`the call of ${label}`);
    if (!this.#started) throw new NotStartedError('call()');
    let target = { name, args, label };
    if (isHostTool(name)) {
      const exposed = this.#exposure.exposed();
      if (!exposed.list.some((tool) => tool.name === name)) throw new UnknownToolError(name, label);
      if (name === TOOL_SEARCH_NAME) return this.#exposure.search(exposed, args);
      const gateway = gatewayTarget(args);
      target = { ...gateway, label: quoteText(gateway.name) };
    }
    return callTool(this.#registry, target.name, target.label, target.args, options, {
      options: this.#options,
      sandbox: this.#sandbox,
      closed: () => this.#closed,
      questions: this.#questions,
      lifetime: this.#lifetime.signal,
      audit: this.#audit,
      store: this.#store,
      notice: (text: string) => this.#notice(text),
      wake: (record, wakeSignal) => this.#wake(record, wakeSignal),
    });
  }

  /**
   * The prompts of every connected server that passed the pin check (as tools must), by server,
   * then name. A prompt is a server's instructions: let the user pick one. A host names them
   * `<server>__<prompt>` (`promptName`); a prompt whose such name another server holds (a clash,
   * decided as for tools) is left out.
   */
  prompts(): McpPrompt[] {
    return promptList(this.#registry);
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
    this.#usable('getPrompt()');
    await this.#wakeServer(server, options.signal);
    return getPrompt(this.#registry, server, name, args, options.signal);
  }

  /** The resources of every connected server, by server, then URI (`shownUri` is for showing). */
  resources(): McpResource[] {
    return resourceList(this.#registry);
  }

  /** The resource templates of every connected server, by server, then template. */
  resourceTemplates(): McpResourceTemplate[] {
    return templateList(this.#registry);
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
    this.#usable('readResource()');
    await this.#wakeServer(server, options.signal);
    return readResource(this.#registry, server, uri, options.signal);
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
    this.#usable('subscribeResource()');
    await this.#wakeServer(server, options.signal);
    await setSubscribed(this.#registry, server, uri, true, options.signal);
  }

  /** Ends a subscription of {@link subscribeResource} (its updates stop at once). */
  async unsubscribeResource(
    server: string,
    uri: string,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    this.#usable('unsubscribeResource()');
    await setSubscribed(this.#registry, server, uri, false, options.signal);
  }

  /**
   * One row per configured server, in configuration order (the user's servers first): name,
   * source, state, tool count, sandbox, network, and why it is denied or failed.
   *
   * @returns The rows (empty before `start()`).
   */
  status(): StatusRow[] {
    return withHomes(
      statusRows(this.#registry, this.#exposure.exposed(), this.#sandbox),
      this.#options,
    );
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
    return [
      ...this.#notes.take([...this.#registry.records.values()]),
      ...this.#registry.clashNotes(),
    ];
  }

  /** The problems `loadConfig` found at the last `start()` or `reload()` (each also told as a notice). */
  problems(): readonly ConfigProblem[] {
    return [...this.#problems];
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
    if (this.#closed) throw new ManagerClosedError('signIn()');
    const scopes = checkScopes(options.scopes ?? []);
    const record = this.#registry.records.get(name);
    const known = record?.config ?? (await this.#load(name)).find((server) => server.name === name);
    if (known === undefined) throw new UnknownServerError(String(name), quoteText(name));
    const deps = { root: this.#options.root, store: this.#store, session: this.#session };
    const signals = [options.signal, this.#lifetime.signal];
    await signInNow(known, name, record?.state, { ...deps, remote: this.#remote }, scopes, signals);
    if (this.#closed) throw new ManagerClosedError('signIn()');
    if (record !== undefined && (record.state === 'connected' || record.state === 'failed')) {
      await this.reload(name, options.signal === undefined ? {} : { signal: options.signal });
    }
  }

  /**
   * Where the tokens of new sign-ins are kept, and why: the `tokenStorage` option with `auto`
   * resolved (the OS keychain is probed once, within its time limit). For a status screen:
   * `{ requested: 'auto', mode: 'file', available: true, reason: 'no OS keychain answered: …' }`.
   *
   * @returns The requested and the effective storage, whether it works, and why.
   */
  tokenStorage(): Promise<TokenStorageInfo> {
    return this.#authStore.storage();
  }

  /**
   * Signs out of a remote server: every stored sign-in of `name` is removed from
   * `<home>/mcp-auth.json` first, then its tokens are revoked at the authorization server
   * (RFC 7009) where it offers that. A connection signed in with OAuth is stopped (state
   * `stopped`, its tools fail with `SERVER_NOT_CONNECTED`); the next connect (`reload(name)`,
   * another manager) asks to sign in again.
   *
   * @param name - The server's name, as configured.
   * @param options - `signal` stops the revocation requests (the local entries are gone already).
   * @returns What was removed and revoked; a failed revocation is reported there, not thrown.
   * @throws {@link UnknownServerError} when no remote server of that name is configured (after
   *   `start()`), {@link ManagerClosedError}.
   */
  async logout(name: string, options: { signal?: AbortSignal } = {}): Promise<RevokeResult> {
    if (this.#closed) throw new ManagerClosedError('logout()');
    const deps = {
      root: this.#options.root,
      authStore: this.#authStore,
      pinnedFetch: this.#pinnedFetch as unknown as typeof fetch,
      logger: this.#options.logger,
    };
    const result = await logoutServer(name, this.#registry, deps, options.signal);
    this.#audit.record({ kind: 'sign-out', server: name, outcome: result.ok ? 'ok' : 'failed' });
    return result;
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
    if (typeof name !== 'string' || name === '') {
      throw new InvalidOptionsError('name', 'must be the name of a configured server');
    }
    const label = `reload(${quoteText(name)})`;
    if (this.#closed) throw new ManagerClosedError(label);
    if (!this.#started) throw new NotStartedError('reload()');
    const { signal } = options;
    const config = (await this.#load(name)).find((server) => server.name === name);
    const known = this.#registry.records.get(name);
    if (config === undefined && known === undefined) {
      throw new UnknownServerError(name, quoteText(name));
    }
    if (known !== undefined) await this.#registry.stop(known, 'it was reloaded');
    if (this.#closed) throw new ManagerClosedError(label);
    if (config === undefined) {
      this.#registry.remove(name);
      this.#notes.forget(name);
      return;
    }
    const record = this.#registry.add(config);
    await this.#sandboxFor([record], signal, label);
    await this.#registry.launch(record, signal, this.#lifetime.signal);
    this.#afterStart(signal, label);
  }

  /**
   * Stops every server (planned stops: no "stopped" notice): starts in progress are cancelled,
   * every client and process closed concurrently (stdin, then TERM and KILL to each process
   * group), bounded in time, and the audit log's pending lines written. Afterwards every server
   * shows `stopped` and no server process is left. Safe to call twice.
   */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    // The connections leave the list before the lifetime aborts what is in flight.
    const stopped = this.#registry.closeAll('the MCP manager was closed');
    this.#lifetime.abort(new Error('the MCP manager was closed'));
    this.#closing = (async () => {
      if (!(await stopped))
        log(this.#options.logger, 'warn', 'some MCP servers took too long to stop');
      await this.#pinnedFetch.close().catch(() => {});
      this.#authStore.close();
      await this.#audit.close(CLOSE_BOUND_MS);
      await this.#cache.flush(CLOSE_BOUND_MS);
    })();
    return this.#closing;
  }

  /**
   * `startMode: 'lazy'`: the servers of `records` whose trusted definition and pinned tools the
   * cache holds are offered from it (state `ready`); the others start as usual.
   */
  async #readyFromCache(records: readonly ServerRecord[]): Promise<Set<ServerRecord>> {
    const ready = new Set<ServerRecord>();
    if (this.#options.startMode !== 'lazy' || records.length === 0) return ready;
    const cached = await this.#cache.load();
    if (cached.size === 0) return ready;
    const deps = {
      root: this.#options.root,
      store: this.#store,
      notice: (text: string) => this.#notice(text),
    };
    await Promise.all(
      records.map(async (record) => {
        const offer = await readyFromCache(record.config, cached, deps);
        if (offer === undefined || this.#closed) return;
        this.#registry.ready(record, offer);
        ready.add(record);
      }),
    );
    return ready;
  }

  /** Starts a `ready` server on its first use; the caller's signal ends only its own wait. */
  async #wake(record: ServerRecord, signal: AbortSignal | undefined): Promise<void> {
    await raceAbort(this.#registry.wake(record, this.#lifetime.signal), signal);
  }

  /** Starts a `ready` server a prompt or resource request is for (its first use). */
  async #wakeServer(server: unknown, signal: AbortSignal | undefined): Promise<void> {
    const record = typeof server === 'string' ? this.#registry.records.get(server) : undefined;
    if (record === undefined) return;
    try {
      await this.#wake(record, signal);
    } catch (error) {
      if (signal?.aborted) {
        throw new CallCancelledError(`a request to MCP server "${record.name}"`, {
          cause: signal.reason,
        });
      }
      throw error;
    }
  }

  async #load(only: string | undefined): Promise<readonly ServerConfig[]> {
    const { servers, problems } = await loadServers(this.#options, only, (text) =>
      this.#notice(text),
    );
    this.#problems = problems;
    return servers;
  }

  /** Detects the sandbox once (before the first start); a cancelled wait stops `records`. */
  async #sandboxFor(
    records: readonly ServerRecord[],
    signal: AbortSignal | undefined,
    label: string,
  ): Promise<void> {
    this.#sandbox ??= await sandboxForStart(this.#options, this.#registry, records, {
      signals: [signal, this.#lifetime.signal],
      cancelled: () => signal?.aborted === true || this.#closed,
      label,
      notice: (text) => this.#notice(text),
    });
  }

  #afterStart(signal: AbortSignal | undefined, label: string): void {
    if (this.#closed) throw new ManagerClosedError(label);
    this.#registry.reportClashes();
    if (signal?.aborted) throw new StartCancelledError(label);
  }

  #usable(what: string): void {
    if (this.#closed) throw new ManagerClosedError(what);
    if (!this.#started) throw new NotStartedError(what);
  }

  #changed(change: ServerChange): void {
    tellHost('onChange', this.#options.onChange, change, this.#options.logger);
  }

  #notice(text: string): void {
    try {
      this.#options.prompter.notice(noticeText(text));
    } catch (error) {
      log(this.#options.logger, 'warn', `prompter.notice failed: ${messageOf(error)}`);
    }
  }
}
