// The lifecycle of the configured servers: their records and states, the running connections,
// starts (through the start sequence), planned stops and unplanned exits, and the tool view
// derived from them. The facade (mcp-manager.ts) decides when; this keeps the books.
import { log } from '@garuda/internal';
import { setMaxListeners } from 'node:events';
import type { ServerConfig } from '@garuda/mcp-config';
import type { ServerOrigin } from '@garuda/internal';
import type { Tool } from '@modelcontextprotocol/client';
import { linkSignals, within } from '../common/abort.js';
import type { CallLanes } from '../calls/call-lanes.js';
import { ResourceSubscriptions } from '../offer/resource-subscriptions.js';
import type { ServerConnection } from './server-connection.js';
import type { StartStep } from '../launch/download-phase.js';
import type { StartOutcome, StartServer } from './start-server.js';
import { messageOf, oneLine } from '../common/text.js';
import { NO_RESOURCES, type AdaptedResources } from '../offer/offer-view.js';
import { PROMPT_PIN } from '../offer/prompt-pins.js';
import { appsKey } from '../offer/app-pins.js';
import {
  RefreshQueue,
  goneReason,
  shownUri,
  type RefreshResources,
  type RefreshTools,
  type RefreshedTools,
} from '../offer/tool-refresh.js';
import { clashNote, clashNotice, toolView, type ToolView } from '../offer/tool-view.js';
import type { ReadyOffer } from './lazy-start.js';
import { ToolToggles, hiddenAmong, hiddenReason, type HiddenTool } from '../offer/tool-control.js';
import type {
  LostName,
  ManagerLogger,
  McpPrompt,
  McpTool,
  ServerChange,
  ServerState,
} from '../types.js';

/** How long a stop (or all of them at `close()`) is waited for. @internal */
export const CLOSE_BOUND_MS = 20_000;

interface Attempt {
  readonly controller: AbortController;
  done: Promise<void>;
}

/** Whether a server in `state` offers its tools: it runs, or it is ready to start from its pins. @internal */
export function offersTools(state: ServerState): boolean {
  return state === 'connected' || state === 'ready';
}

/** One configured server and what is known of it. @internal */
export interface ServerRecord {
  readonly name: string;
  config: ServerConfig;
  /** Where its definition comes from: decides who keeps a name that clashes. */
  origin: ServerOrigin;
  state: ServerState;
  detail: string | undefined;
  /** Goes up on every state change: notes are given once per version. */
  version: number;
  /** The adapted tools of its last successful start (kept after a stop, for clear call errors). */
  tools: readonly McpTool[];
  /** Its adapted prompts (those that passed the pin check). */
  prompts: readonly McpPrompt[];
  /** Its adapted resources and resource templates. */
  resources: AdaptedResources;
  /** The raw tool and prompt list behind `tools` and `prompts` (the baseline of a refresh). */
  raw: readonly Tool[];
  /**
   * Tools (model-facing names) and prompts (`PROMPT_PIN` + name) that left the lists while the
   * server ran, and why: removed by the server, or held back until the user allows a change. A
   * call to one gets a clean error.
   */
  gone: Map<string, { readonly tool: string; readonly reason: string }>;
  attempt: Attempt | undefined;
  /** The first start of a `ready` server, while it runs (every caller waits for the same one). */
  waking: Promise<void> | undefined;
  /** A remote server that connected with OAuth tokens. */
  signedIn: boolean;
  /** The step its start is at, while it starts. */
  step?: StartStep | undefined;
}

/** The books of one manager's servers. @internal */
export class ServerRegistry {
  /** Every configured server, in configuration order (the user's first). */
  readonly records = new Map<string, ServerRecord>();
  /** The running servers. A server leaves this list before a planned stop, so it gives no notice. */
  readonly connections = new Map<string, ServerConnection>();
  /** Each running server's resource subscriptions. */
  readonly subscriptions = new WeakMap<ServerConnection, ResourceSubscriptions>();
  /** Each running server's calls in flight and waiting (batching). */
  readonly lanes = new WeakMap<ServerConnection, CallLanes>();
  /** This session's `enable()` / `disable()` answers (they outlast reloads). */
  readonly toggles = new ToolToggles();
  /** Told each connection as it joins `connections` (e.g. to set the host's log level on it). */
  readonly onConnected = new Set<(connection: ServerConnection) => void>();
  readonly #start: StartServer;
  readonly #refresh: RefreshTools;
  readonly #refreshResources: RefreshResources;
  readonly #changed: (change: ServerChange) => void;
  readonly #notice: (text: string) => void;
  readonly #logger: ManagerLogger | undefined;
  /** Stops still in progress of servers whose start failed or was denied. */
  readonly #stopping = new Set<Promise<void>>();
  readonly #originOf: (config: ServerConfig) => ServerOrigin;
  /** The clashes told through `notice`, and those given to the model as notes, by server. */
  readonly #clashesNoticed = new Map<string, string>();
  readonly #clashesNoted = new Map<string, string>();
  #view: ToolView | undefined;
  #closed = false;

  constructor(
    phases: {
      readonly start: StartServer;
      readonly refresh: RefreshTools;
      readonly refreshResources: RefreshResources;
    },
    tell: {
      readonly notice: (text: string) => void;
      readonly changed: (change: ServerChange) => void;
    },
    logger: ManagerLogger | undefined,
    originOf: (config: ServerConfig) => ServerOrigin,
  ) {
    this.#originOf = originOf;
    this.#start = phases.start;
    this.#refresh = phases.refresh;
    this.#refreshResources = phases.refreshResources;
    this.#changed = tell.changed;
    const notice = tell.notice;
    this.#notice = notice;
    this.#logger = logger;
  }

  /** Adds (or, for a known name, updates) a server's record, state `starting`. */
  add(config: ServerConfig): ServerRecord {
    // A new server's prefix (or a server's new origin) may change who keeps a name.
    this.#view = undefined;
    const known = this.records.get(config.name);
    if (known !== undefined) {
      known.config = config;
      known.origin = this.#originOf(config);
      return known;
    }
    const record: ServerRecord = {
      name: config.name,
      config,
      origin: this.#originOf(config),
      state: 'starting',
      detail: undefined,
      version: 0,
      tools: [],
      prompts: [],
      resources: NO_RESOURCES,
      raw: [],
      gone: new Map(),
      attempt: undefined,
      waking: undefined,
      signedIn: false,
    };
    this.records.set(config.name, record);
    return record;
  }

  /** Forgets a server that is no longer configured (stop it first). */
  remove(name: string): void {
    this.records.delete(name);
    this.#view = undefined;
  }

  /** The tools and prompts of the connected servers (cached until a state changes). */
  view(): ToolView {
    this.#view ??= toolView(
      this.records.values(),
      (record, tool) => hiddenReason(record.config, tool.tool, this.toggles) === undefined,
      // A connected server's prompts once its connection is listed; a ready one's from its pins.
      (record) =>
        record.state === 'ready' ||
        (record.state === 'connected' && this.connections.has(record.name)),
    );
    return this.#view;
  }

  /** The names each server lost to another server now, by losing server. */
  lostNames(): Map<string, LostName[]> {
    const lost = new Map<string, LostName[]>();
    for (const clash of this.view().clashes) {
      lost.set(clash.server, [...(lost.get(clash.server) ?? []), clash]);
    }
    return lost;
  }

  /** The tools of the connected servers that the user's filters or this session hide. */
  hidden(): HiddenTool[] {
    return [...this.records.values()]
      .filter((record) => offersTools(record.state))
      .flatMap((record) => hiddenAmong(record.config, record.tools, this.toggles));
  }

  /** The server and adapted tool that `name` (model-facing) is, in any state. */
  listed(name: string): { readonly record: ServerRecord; readonly tool: McpTool } | undefined {
    // The server that holds the name now, before one that lost it in a clash.
    const offered = this.view().byName.get(name);
    const holder = offered === undefined ? undefined : this.records.get(offered.server);
    if (offered !== undefined && holder !== undefined) return { record: holder, tool: offered };
    for (const record of this.records.values()) {
      const tool = record.tools.find((t) => t.name === name);
      if (tool !== undefined) return { record, tool };
    }
    return undefined;
  }

  /**
   * Records `enable()` / `disable()` of one tool: the view is built anew, and `onChange` told
   * when what the model gets changed. Returns whether it did.
   */
  toggle(record: ServerRecord, tool: McpTool, enabled: boolean): boolean {
    const before = this.view().byName.get(tool.name) === tool;
    this.toggles.set(record.name, tool.tool, enabled);
    this.#view = undefined;
    const changed = before !== (this.view().byName.get(tool.name) === tool);
    if (changed) this.#changed({ server: record.name, kind: 'tools' });
    return changed;
  }

  /** Tells the user and the host of each server that lost names, once per change of what it lost. */
  reportClashes(): void {
    for (const [server, lost] of this.#newClashes(this.#clashesNoticed)) {
      const record = this.records.get(server);
      if (record !== undefined) this.#notice(clashNotice(server, record.origin, lost));
    }
  }

  /** The notes for the model about servers that lost names, once per change of what they lost. */
  clashNotes(): string[] {
    return this.#newClashes(this.#clashesNoted).map(([server, lost]) => clashNote(server, lost));
  }

  /** The servers whose lost names differ from what `told` remembers (which is updated). */
  #newClashes(told: Map<string, string>): [string, LostName[]][] {
    const lost = this.lostNames();
    const fresh: [string, LostName[]][] = [];
    for (const [server, clashes] of lost) {
      const key = JSON.stringify(clashes.map((c) => [c.kind, c.name, c.keptBy]));
      if (told.get(server) === key) continue;
      told.set(server, key);
      fresh.push([server, clashes]);
    }
    // A server that lost nothing any more may be told again when it loses names later.
    for (const server of [...told.keys()]) if (!lost.has(server)) told.delete(server);
    return fresh;
  }

  /** Keeps a stop in progress, for `close()` to wait for. */
  track(stopping: Promise<void>): void {
    this.#stopping.add(stopping);
    void stopping.finally(() => this.#stopping.delete(stopping));
  }

  setState(record: ServerRecord, state: ServerState, detail: string | undefined): void {
    if (record.state === state && record.detail === detail) return;
    const offered = offersTools(record.state) && record.tools.length > 0;
    record.state = state;
    record.detail = detail;
    record.version += 1;
    this.#view = undefined;
    log(
      this.#logger,
      'debug',
      `MCP server "${record.name}": ${state}${detail === undefined ? '' : ` (${oneLine(detail)})`}`,
    );
    if (offered !== (offersTools(state) && record.tools.length > 0)) {
      this.#changed({ server: record.name, kind: 'tools' });
    }
  }

  /**
   * Launches `records` together. One listener on the caller's signal, however many servers
   * start: each server links to this one (ours, so it may have any number of listeners without
   * Node warning the host).
   */
  async launchAll(
    records: readonly ServerRecord[],
    signal: AbortSignal | undefined,
    lifetime: AbortSignal,
  ): Promise<void> {
    const link = linkSignals(signal);
    setMaxListeners(0, link.controller.signal);
    try {
      await Promise.all(
        records.map((record) => this.launch(record, signal && link.controller.signal, lifetime)),
      );
    } finally {
      link.detach();
    }
  }

  /**
   * Offers a server's tools from its pinned list before it runs (`tools.startMode: 'lazy'`): state
   * `ready`; its first use starts it ({@link wake}).
   */
  ready(record: ServerRecord, offer: ReadyOffer): void {
    record.tools = offer.tools;
    record.prompts = offer.prompts;
    record.resources = NO_RESOURCES;
    record.raw = offer.raw;
    record.gone = new Map();
    this.setState(record, 'ready', undefined);
  }

  /**
   * Starts a `ready` server (its first use) and waits for it; the tools stay offered while it
   * starts. Every caller waits for the same start, which only the manager's lifetime and the
   * start time limit end: one caller's cancel does not cancel it for the others. When the
   * server lists other tools or prompts than its cached ones (the pin check ran and let them
   * through), `onChange` is told. Resolves at once for a server in any other state.
   */
  wake(record: ServerRecord, lifetime: AbortSignal): Promise<void> {
    if (record.waking !== undefined) return record.waking;
    if (record.state !== 'ready') return Promise.resolve();
    const before = { tools: JSON.stringify(record.tools), prompts: JSON.stringify(record.prompts) };
    record.waking = (async () => {
      try {
        await this.launch(record, undefined, lifetime, { keepOffered: true });
      } finally {
        record.waking = undefined;
      }
      if (record.state !== 'connected') return;
      this.reportClashes();
      if (JSON.stringify(record.tools) !== before.tools) {
        this.#changed({ server: record.name, kind: 'tools' });
      }
      if (JSON.stringify(record.prompts) !== before.prompts) {
        this.#changed({ server: record.name, kind: 'prompts' });
      }
      const { resources, templates } = record.resources;
      if (resources.length + templates.length > 0) {
        this.#changed({ server: record.name, kind: 'resources' });
      }
    })();
    return record.waking;
  }

  /**
   * Runs one server's start sequence; its outcome becomes its state. A start that was
   * superseded (a reload, a stop, `close()`) closes what it opened and changes nothing.
   * `keepOffered` (a `ready` server's first start) leaves its state until the outcome, so its
   * tools stay offered meanwhile.
   */
  launch(
    record: ServerRecord,
    signal: AbortSignal | undefined,
    lifetime: AbortSignal,
    how: { readonly keepOffered?: boolean } = {},
  ): Promise<void> {
    const { controller, detach } = linkSignals(signal, lifetime);
    const attempt: Attempt = { controller, done: Promise.resolve() };
    record.attempt = attempt;
    if (how.keepOffered !== true) this.setState(record, 'starting', undefined);
    attempt.done = (async () => {
      let outcome: StartOutcome;
      try {
        outcome = await this.#start(record.config, controller.signal, (step) => {
          if (record.attempt === attempt) record.step = step;
        });
      } catch (error) {
        outcome = { state: 'failed', detail: `it could not start: ${messageOf(error)}` };
      } finally {
        detach();
      }
      const current =
        record.attempt === attempt && !this.#closed && this.records.get(record.name) === record;
      if (record.attempt === attempt) {
        record.attempt = undefined;
        record.step = undefined;
      }
      if (outcome.state === 'connected') {
        const { connection } = outcome;
        if (!current) {
          this.track(connection.close('it was stopped'));
          return;
        }
        record.tools = outcome.tools;
        record.prompts = outcome.prompts;
        record.resources = outcome.resources;
        record.raw = outcome.raw;
        record.gone = new Map();
        record.signedIn = outcome.signedIn;
        this.connections.set(record.name, connection);
        this.setState(record, 'connected', undefined);
        this.#attach(record, connection);
        for (const hook of this.onConnected) hook(connection);
        return;
      }
      if (!current) return;
      this.setState(record, outcome.state, outcome.detail);
      if (outcome.state === 'failed') {
        this.#notice(`MCP server "${record.name}" failed: ${oneLine(outcome.detail)}`);
      }
    })();
    return attempt.done;
  }

  /** A planned stop: a start in progress is cancelled, a connection closed (no notice). */
  async stop(record: ServerRecord, reason: string): Promise<void> {
    const attempt = record.attempt;
    if (attempt !== undefined) {
      attempt.controller.abort(new Error(reason));
      await within(attempt.done, CLOSE_BOUND_MS);
    }
    const connection = this.connections.get(record.name);
    if (connection !== undefined) {
      this.connections.delete(record.name);
      this.setState(record, 'stopped', undefined);
      await connection.close(reason);
    }
  }

  /**
   * Stops everything: the connections leave the list first (so these stops give no notice),
   * then every connection, start and earlier stop is waited for, bounded in time.
   *
   * @returns Whether everything stopped within the bound.
   */
  async closeAll(reason: string): Promise<boolean> {
    this.#closed = true;
    const connections = [...this.connections.values()];
    this.connections.clear();
    const attempts = [...this.records.values()].flatMap((record) =>
      record.attempt ? [record.attempt.done] : [],
    );
    const stopped = await within(
      Promise.all([...connections.map((connection) => connection.close(reason)), ...attempts]),
      CLOSE_BOUND_MS,
    );
    // Starts that were cancelled above leave their stops here.
    const alsoStopped = await within(Promise.all([...this.#stopping]), CLOSE_BOUND_MS);
    for (const record of this.records.values()) this.setState(record, 'stopped', undefined);
    return stopped && alsoStopped;
  }

  /** Why a tool a model named left the list while its server ran, if it did. */
  goneTool(
    name: string,
  ): { readonly server: string; readonly tool: string; readonly reason: string } | undefined {
    for (const record of this.records.values()) {
      if (record.state !== 'connected') continue;
      const gone = record.gone.get(name);
      if (gone !== undefined) return { server: record.name, ...gone };
    }
    return undefined;
  }

  /**
   * Hears a connected server's exit and follows its changes. Its own method, so that what the
   * connection keeps for its whole life captures only the record and the connection, not the
   * start's scope.
   */
  #attach(record: ServerRecord, connection: ServerConnection): void {
    connection.onExit((reason) => this.#exited(record, connection, reason));
    this.#watch(record, connection);
  }

  /**
   * Follows a connected server's `list_changed`: each refresh of its tools and prompts goes
   * through the pin check; its resources are listed again (no pins: they are data, not
   * instructions). Each kind has its own queue, coalesced and bounded.
   */
  #watch(record: ServerRecord, connection: ServerConnection): void {
    let mayAsk = true;
    const current = () => this.connections.get(record.name) === connection;
    const apply = (refreshed: RefreshedTools) => {
      if (!current()) return;
      const toolsBefore = JSON.stringify(record.tools);
      const promptsBefore = JSON.stringify(record.prompts);
      const held = new Set(refreshed.held);
      const listed = new Set(refreshed.tools.map((tool) => tool.name));
      for (const tool of record.tools) {
        if (listed.has(tool.name)) continue;
        record.gone.set(tool.name, {
          tool: tool.tool,
          reason: goneReason(record.name, held.has(tool.tool)),
        });
      }
      const prompts = new Set(refreshed.prompts.map((prompt) => PROMPT_PIN + prompt.name));
      for (const prompt of record.prompts) {
        const key = PROMPT_PIN + prompt.name;
        if (!prompts.has(key)) {
          record.gone.set(key, {
            tool: prompt.name,
            reason: goneReason(record.name, held.has(key)),
          });
        }
      }
      for (const name of [...listed, ...prompts]) record.gone.delete(name);
      record.tools = refreshed.tools;
      record.prompts = refreshed.prompts;
      const toolsChanged = JSON.stringify(record.tools) !== toolsBefore;
      const promptsChanged = JSON.stringify(record.prompts) !== promptsBefore;
      if (!toolsChanged && !promptsChanged) return;
      this.#view = undefined;
      this.reportClashes();
      if (toolsChanged) this.#changed({ server: record.name, kind: 'tools' });
      if (promptsChanged) this.#changed({ server: record.name, kind: 'prompts' });
    };
    const refreshTools = async (signal: AbortSignal) => {
      const refreshed = await this.#refresh(
        record.config,
        connection,
        { last: record.raw, mayAsk },
        apply,
        signal,
      );
      if (!current()) return;
      if (refreshed.declined) mayAsk = false;
      const apps = appsKey(record.raw);
      if (refreshed.held.length === 0) record.raw = refreshed.raw;
      apply(refreshed);
      // An MCP App served anew is a resource change for the host (its tools may be the same).
      if (appsKey(record.raw) !== apps) this.#changed({ server: record.name, kind: 'resources' });
    };
    const refreshResources = async (signal: AbortSignal) => {
      const listed = await this.#refreshResources(record.config, connection, signal);
      if (!current()) return;
      if (JSON.stringify(listed) === JSON.stringify(record.resources)) return;
      record.resources = listed;
      this.#changed({ server: record.name, kind: 'resources' });
    };
    // The queues come with the first change: most servers never send one.
    let tools: RefreshQueue | undefined;
    let resources: RefreshQueue | undefined;
    const queue = (run: (signal: AbortSignal) => Promise<void>) =>
      new RefreshQueue(run, connection.signal, record.name, this.#logger);
    connection.onListChanged((kind) => {
      if (kind === 'resources') (resources ??= queue(refreshResources)).request();
      else (tools ??= queue(refreshTools)).request();
    });
    const subscriptions = new ResourceSubscriptions(
      connection,
      (uri) => {
        if (current())
          this.#changed({
            server: record.name,
            kind: 'resource',
            uri: shownUri(uri),
            resourceUri: uri,
          });
      },
      this.#logger,
    );
    this.subscriptions.set(connection, subscriptions);
    connection.onResourceUpdated((uri) => subscriptions.updated(uri));
  }

  #exited(record: ServerRecord, connection: ServerConnection, reason: string): void {
    // A planned stop removed the connection from the list first: nothing to report.
    if (this.connections.get(record.name) !== connection) return;
    this.connections.delete(record.name);
    this.setState(record, 'failed', `it stopped by itself: ${reason}`);
    log(this.#logger, 'warn', `MCP server "${record.name}" stopped: ${oneLine(reason)}`);
    this.#notice(`MCP server "${record.name}" stopped. Its tools now fail.`);
  }
}
