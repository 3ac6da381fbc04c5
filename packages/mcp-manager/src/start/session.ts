// One manager's session behind the facade: the parts it owns (stores, fetch, audit, cache,
// registry, exposure), its state (started, closed, the sandbox, the last config problems), and
// the lifecycle that ties them: start, reload, sign-in and sign-out, calls, close, and the lazy
// start's wake. The facade (mcp-manager.ts) keeps the public contract and its documentation;
// each of its methods is one step here or in a room.
import { log } from '@garuda/internal';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { defaultPaths, type ConfigProblem, type ServerConfig } from '@garuda/mcp-config';
import { AuthStore, type RevokeResult } from '@garuda/mcp-oauth';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { TrustStore, type McpTrustEntry } from '@garuda/mcp-trust';
import { TOOL_SEARCH_NAME } from '@garuda/mcp-tools';
import { QuestionQueue, raceAbort } from '../common/abort.js';
import type { AuditRecorder } from '../calls/audit-recorder.js';
import type { CallOptions, StartOptions } from '../calls/call-options.js';
import { callTool, type CallToolDeps } from '../calls/run-call.js';
import { TaskBook, callTask, type TaskCallResult } from '../calls/tasks.js';
import { ruleNotices } from '../calls/tool-rules.js';
import { ElicitBudget } from '../elicit/elicit-budget.js';
import {
  AlreadyStartedError,
  CallCancelledError,
  InvalidOptionsError,
  ManagerClosedError,
  NotStartedError,
  StartCancelledError,
  UnknownServerError,
  UnknownToolError,
} from '../errors.js';
import { sandboxForStart, sandboxOnce } from '../launch/sandbox-once.js';
import { isHostTool } from '../offer/tool-exposure.js';
import { ExposureSession, gatewayTarget } from '../offer/tool-search-call.js';
import { checkOptions, type CheckedOptions, type McpManagerOptions } from '../options.js';
import { NoteTracker } from '../status/notes.js';
import { messageOf, noticeText, quoteText } from '../common/text.js';
import type { ManagerCallResult, ServerChange } from '../types.js';
import { readyFromCache } from './lazy-start.js';
import { loadServers } from './load-servers.js';
import {
  auditRecorder,
  buildParts,
  projectFetch,
  toolListCache,
  type ProjectFetch,
} from './manager-parts.js';
import type { RemoteDeps } from './remote-connect.js';
import { tellHost } from '../common/tell-host.js';
import { CLOSE_BOUND_MS, type ServerRecord, type ServerRegistry } from './server-registry.js';
import { checkScopes, signInNow } from './sign-in-target.js';
import { logoutServer } from './sign-out.js';
import type { ToolListCache } from './tool-cache.js';

/** The state and the lifecycle of one manager, from its options. @internal */
export class ManagerSession {
  readonly options: CheckedOptions;
  readonly registry: ServerRegistry;
  /** Trust answered with "once": this session only. */
  readonly trustOnce = new Map<string, McpTrustEntry>();
  readonly questions: QuestionQueue;
  readonly notes = new NoteTracker();
  /** The tasks servers run for calls, by the manager's ids. */
  readonly tasks = new TaskBook();
  readonly lifetime = new AbortController();
  /** The strict fetch for project remote servers (public addresses only). */
  readonly pinnedFetch: ProjectFetch;
  /** The sign-ins of remote servers, `<home>/mcp-auth.json`. */
  readonly authStore: AuthStore;
  readonly store: TrustStore | NonNullable<CheckedOptions['trustStore']>;
  readonly remote: RemoteDeps;
  readonly audit: AuditRecorder;
  /** The pinned tool lists for a lazy start, `<home>/mcp-tool-cache.json`. */
  readonly cache: ToolListCache;
  /** What the model is shown, and the tools a search promoted this session. */
  readonly exposure: ExposureSession;
  problems: readonly ConfigProblem[] = [];
  sandbox: SandboxInfo | undefined;
  started = false;
  closed = false;
  #closing: Promise<void> | undefined;

  /** @throws {@link InvalidOptionsError} when an option is unusable. */
  constructor(options: McpManagerOptions) {
    this.options = checkOptions(options);
    const { home, root, logger } = this.options;
    this.questions = new QuestionQueue({
      giveWayMs: this.options.elicitation.giveWayMs,
      concurrent: this.options.prompter.concurrent,
    });
    // Every server start and call in flight listens to the manager's lifetime: more than ten is
    // normal here, and Node's "possible leak" warning would print on the host's stderr.
    setMaxListeners(0, this.lifetime.signal);
    const withLogger = logger ? { logger } : {};
    this.store =
      this.options.trustStore ?? new TrustStore(defaultPaths({ home, root }).trustFile, withLogger);
    // The keychain is reached through the host's environment (its session bus), never ours.
    this.authStore = new AuthStore(path.join(home, 'mcp-auth.json'), {
      ...withLogger,
      tokenStorage: this.options.tokenStorage,
      env: this.options.env,
    });
    this.pinnedFetch = projectFetch(this.options);
    this.audit = auditRecorder(this.options);
    this.cache = toolListCache(this.options);
    const owned = {
      store: this.store,
      session: this.trustOnce,
      questions: this.questions,
      elicitBudget: new ElicitBudget(this.options.elicitation),
      authStore: this.authStore,
      pinnedFetch: this.pinnedFetch as unknown as typeof fetch,
      sandbox: () => this.sandbox as SandboxInfo,
      notice: (text: string) => this.notice(text),
      changed: (change: ServerChange) => this.changed(change),
      track: (stopping: Promise<void>) => this.registry.track(stopping),
      audit: this.audit,
      cache: this.cache,
    };
    ({ remote: this.remote, registry: this.registry } = buildParts(this.options, owned));
    this.exposure = new ExposureSession(this.registry, this.options.exposure, (change) =>
      this.changed(change),
    );
  }

  /** `McpManager.start()`. */
  async start(options: StartOptions): Promise<void> {
    if (this.closed) throw new ManagerClosedError('start()');
    if (this.started) throw new AlreadyStartedError();
    this.started = true;
    const { signal } = options;
    // The detection runs a probe process: it goes on while the files are read, and its result
    // (or failure) is taken where the start needs it, as before.
    const detecting =
      this.sandbox === undefined
        ? sandboxOnce(this.options, [signal, this.lifetime.signal])
        : undefined;
    detecting?.catch(() => {});
    for (const notice of ruleNotices(this.options.rules)) this.notice(notice);
    const servers = await this.#load(undefined);
    if (this.closed) throw new ManagerClosedError('start()');
    const only = options.only === undefined ? undefined : new Set(options.only);
    for (const name of only ?? []) {
      if (typeof name !== 'string' || !servers.some((config) => config.name === name)) {
        throw new UnknownServerError(String(name), quoteText(String(name)));
      }
    }
    const records = servers.map((config) => this.registry.add(config));
    const wanted = records.filter((record) => only === undefined || only.has(record.name));
    const ready = await this.#readyFromCache(wanted);
    await this.#sandboxFor(records, signal, 'start()', detecting);
    const launched = records.filter((record) => {
      if (ready.has(record)) return false;
      if (only === undefined || only.has(record.name)) return true;
      this.registry.setState(record, 'stopped', 'not started (this run needs other servers)');
      return false;
    });
    await this.registry.launchAll(launched, signal, this.lifetime.signal);
    this.#afterStart(signal, 'start()');
  }

  /** `McpManager.call()`. */
  async call(name: string, args: unknown, options: CallOptions): Promise<ManagerCallResult> {
    const label = typeof name === 'string' ? quoteText(name) : `(${typeof name})`;
    if (this.closed) throw new ManagerClosedError(`the call of ${label}`);
    if (!this.started) throw new NotStartedError('call()');
    let target = { name, args, label };
    if (isHostTool(name)) {
      const exposed = this.exposure.exposed();
      if (!exposed.list.some((tool) => tool.name === name)) throw new UnknownToolError(name, label);
      if (name === TOOL_SEARCH_NAME) return this.exposure.search(exposed, args);
      const gateway = gatewayTarget(args);
      target = { ...gateway, label: quoteText(gateway.name) };
    }
    return callTool(
      this.registry,
      target.name,
      target.label,
      target.args,
      options,
      this.#callDeps(),
    );
  }

  /** `McpManager.callTask()`: a tool of the manager's own (search, proxy) is a plain call. */
  async callTask(name: string, args: unknown, options: CallOptions): Promise<TaskCallResult> {
    if (isHostTool(name)) return { kind: 'result', result: await this.call(name, args, options) };
    const label = typeof name === 'string' ? quoteText(name) : `(${typeof name})`;
    if (this.closed) throw new ManagerClosedError(`the call of ${label}`);
    if (!this.started) throw new NotStartedError('callTask()');
    return callTask(this.registry, { name, label, args }, options, this.#callDeps(), this.tasks);
  }

  #callDeps(): CallToolDeps {
    return {
      options: this.options,
      sandbox: this.sandbox,
      closed: () => this.closed,
      questions: this.questions,
      lifetime: this.lifetime.signal,
      audit: this.audit,
      store: this.store,
      notice: (text: string) => this.notice(text),
      wake: (record, wakeSignal) => this.#wake(record, wakeSignal),
    };
  }

  /** `McpManager.signIn()`. */
  async signIn(
    name: string,
    options: { readonly scopes?: readonly string[]; readonly signal?: AbortSignal },
  ): Promise<void> {
    if (this.closed) throw new ManagerClosedError('signIn()');
    const scopes = checkScopes(options.scopes ?? []);
    const record = this.registry.records.get(name);
    const known = record?.config ?? (await this.#load(name)).find((server) => server.name === name);
    if (known === undefined) throw new UnknownServerError(String(name), quoteText(name));
    const deps = { root: this.options.root, store: this.store, session: this.trustOnce };
    const signals = [options.signal, this.lifetime.signal];
    await signInNow(known, name, record?.state, { ...deps, remote: this.remote }, scopes, signals);
    if (this.closed) throw new ManagerClosedError('signIn()');
    if (record !== undefined && (record.state === 'connected' || record.state === 'failed')) {
      await this.reload(name, options.signal === undefined ? {} : { signal: options.signal });
    }
  }

  /** `McpManager.logout()`. */
  async logout(name: string, options: { signal?: AbortSignal }): Promise<RevokeResult> {
    if (this.closed) throw new ManagerClosedError('logout()');
    const deps = {
      root: this.options.root,
      authStore: this.authStore,
      pinnedFetch: this.pinnedFetch as unknown as typeof fetch,
      logger: this.options.logger,
    };
    const result = await logoutServer(name, this.registry, deps, options.signal);
    this.audit.record({ kind: 'sign-out', server: name, outcome: result.ok ? 'ok' : 'failed' });
    return result;
  }

  /** `McpManager.reload()`. */
  async reload(name: string, options: StartOptions): Promise<void> {
    if (typeof name !== 'string' || name === '') {
      throw new InvalidOptionsError('name', 'must be the name of a configured server');
    }
    const label = `reload(${quoteText(name)})`;
    if (this.closed) throw new ManagerClosedError(label);
    if (!this.started) throw new NotStartedError('reload()');
    const { signal } = options;
    const config = (await this.#load(name)).find((server) => server.name === name);
    const known = this.registry.records.get(name);
    if (config === undefined && known === undefined) {
      throw new UnknownServerError(name, quoteText(name));
    }
    if (known !== undefined) await this.registry.stop(known, 'it was reloaded');
    if (this.closed) throw new ManagerClosedError(label);
    if (config === undefined) {
      this.registry.remove(name);
      this.notes.forget(name);
      return;
    }
    const record = this.registry.add(config);
    await this.#sandboxFor([record], signal, label);
    await this.registry.launch(record, signal, this.lifetime.signal);
    this.#afterStart(signal, label);
  }

  /** `McpManager.close()`. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.closed = true;
    // The connections leave the list before the lifetime aborts what is in flight.
    const stopped = this.registry.closeAll('the MCP manager was closed');
    this.lifetime.abort(new Error('the MCP manager was closed'));
    this.#closing = (async () => {
      if (!(await stopped))
        log(this.options.logger, 'warn', 'some MCP servers took too long to stop');
      await this.pinnedFetch.close().catch(() => {});
      this.authStore.close();
      await this.audit.close(CLOSE_BOUND_MS);
      await this.cache.flush(CLOSE_BOUND_MS);
    })();
    return this.#closing;
  }

  /** Throws unless the manager was started and is not closed. */
  usable(what: string): void {
    if (this.closed) throw new ManagerClosedError(what);
    if (!this.started) throw new NotStartedError(what);
  }

  /** Starts a `ready` server a prompt or resource request is for (its first use). */
  async wakeServer(server: unknown, signal: AbortSignal | undefined): Promise<void> {
    const record = typeof server === 'string' ? this.registry.records.get(server) : undefined;
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

  /**
   * `tools.startMode: 'lazy'`: the servers of `records` whose trusted definition and pinned tools the
   * cache holds are offered from it (state `ready`); the others start as usual.
   */
  async #readyFromCache(records: readonly ServerRecord[]): Promise<Set<ServerRecord>> {
    const ready = new Set<ServerRecord>();
    if (this.options.startMode !== 'lazy' || records.length === 0) return ready;
    const cached = await this.cache.load();
    if (cached.size === 0) return ready;
    const deps = {
      root: this.options.root,
      store: this.store,
      notice: (text: string) => this.notice(text),
    };
    const check = async (record: ServerRecord) => {
      const offer = await readyFromCache(record.config, cached, deps);
      if (offer === undefined || this.closed) return;
      this.registry.ready(record, offer);
      ready.add(record);
    };
    // The first check alone: it reads the trust store, which keeps a settled file's contents, so
    // the others only look whether the file changed instead of each reading and parsing it.
    const [first, ...rest] = records as [ServerRecord, ...ServerRecord[]];
    await check(first);
    await Promise.all(rest.map(check));
    return ready;
  }

  /** Starts a `ready` server on its first use; the caller's signal ends only its own wait. */
  async #wake(record: ServerRecord, signal: AbortSignal | undefined): Promise<void> {
    await raceAbort(this.registry.wake(record, this.lifetime.signal), signal);
  }

  async #load(only: string | undefined): Promise<readonly ServerConfig[]> {
    const { servers, problems } = await loadServers(this.options, only, (text) =>
      this.notice(text),
    );
    this.problems = problems;
    return servers;
  }

  /**
   * Detects the sandbox once (before the first start), or takes the detection `start()` began;
   * a cancelled wait stops `records`.
   */
  async #sandboxFor(
    records: readonly ServerRecord[],
    signal: AbortSignal | undefined,
    label: string,
    detecting?: Promise<SandboxInfo>,
  ): Promise<void> {
    this.sandbox ??= await sandboxForStart(this.options, this.registry, records, {
      signals: [signal, this.lifetime.signal],
      cancelled: () => signal?.aborted === true || this.closed,
      label,
      notice: (text) => this.notice(text),
      detecting,
    });
  }

  #afterStart(signal: AbortSignal | undefined, label: string): void {
    if (this.closed) throw new ManagerClosedError(label);
    this.registry.reportClashes();
    if (signal?.aborted) throw new StartCancelledError(label);
  }

  changed(change: ServerChange): void {
    tellHost('onChange', this.options.onChange, change, this.options.logger);
  }

  notice(text: string): void {
    try {
      this.options.prompter.notice(noticeText(text));
    } catch (error) {
      log(this.options.logger, 'warn', `prompter.notice failed: ${messageOf(error)}`);
    }
  }
}
