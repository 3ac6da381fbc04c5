// What a running server's `notifications/tools/list_changed` or `prompts/list_changed` does: its
// tool and prompt lists are read again and go through the pin check (trust-phases.ts `repin`),
// never around it. Refreshes are coalesced and bounded, so a server that floods notifications
// cannot spin the client.
import { capLine, log } from '@garuda/internal';
import { checkUrl, neutralizeTags } from '@garuda/mcp-sanitize';
import { LIMITS } from '@garuda/mcp-tools';
import type { ServerConfig } from '@garuda/mcp-config';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../start/server-connection.js';
import { serverPolicy } from '../start/server-policy.js';
import type { StartDeps } from '../start/start-server.js';
import { messageOf, oneLine } from '../common/text.js';
import { trustPhases, type Repinned } from '../start/trust-phases.js';
import { adaptOffer, adaptServerResources, type AdaptedResources } from './offer-view.js';
import { pinnedList } from './prompt-pins.js';
import { readApps } from './app-pins.js';
import { listPrompts, listResources } from './server-lists.js';
import type { ManagerLogger, McpPrompt, McpTool } from '../types.js';

/** Refreshes one server may start per window; more wait for the window (one timer). @internal */
export const MAX_REFRESHES_PER_WINDOW = 10;
/** The window of {@link MAX_REFRESHES_PER_WINDOW}. @internal */
export const REFRESH_WINDOW_MS = 60_000;
/** The time limit of one tools/list request of a refresh. @internal */
export const REFRESH_TIMEOUT_MS = 30_000;

/**
 * A refreshed tool and prompt list: the raw (pinned) list, and the adapted tools and prompts
 * that may be used. @internal
 */
export interface RefreshedTools {
  readonly raw: readonly Tool[];
  readonly tools: readonly McpTool[];
  readonly prompts: readonly McpPrompt[];
  /** Pinned names (tools, and prompts as `PROMPT_PIN` + name) that wait for the user's consent. */
  readonly held: readonly string[];
  readonly declined: boolean;
}

/** Reads one server's tool list again and pin-checks it. @internal */
export type RefreshTools = (
  server: ServerConfig,
  connection: ServerConnection,
  state: { readonly last: readonly Tool[]; readonly mayAsk: boolean },
  interim: (refreshed: RefreshedTools) => void,
  signal: AbortSignal,
) => Promise<RefreshedTools>;

/**
 * The refresh of a manager, built once from the start phases' parts. @internal
 *
 * @param deps - What the start sequence gets.
 * @returns The refresh function; it throws when the list cannot be read.
 */
export function toolRefresh(deps: Pick<StartDeps, 'trust' | 'launch'>): RefreshTools {
  const { repin } = trustPhases(deps.trust);
  return async (server, connection, state, interim, signal) => {
    const limits = { signal, timeoutMs: Math.min(REFRESH_TIMEOUT_MS, server.def.timeoutMs) };
    const tools = await connection.request(
      'tools/list',
      async (client, request) => (await client.listTools(undefined, request)).tools,
      limits,
    );
    const prompts = await connection.request('prompts/list', listPrompts, limits);
    const apps = await readApps(connection, tools, limits, deps.trust.logger);
    const raw = [...pinnedList(tools, prompts), ...apps];
    const seen = new Set<string>();
    const notice = (text: string) => {
      if (seen.has(text)) return;
      seen.add(text);
      deps.trust.notice(text);
    };
    const adapt = (repinned: Repinned): RefreshedTools => {
      const adapted = adaptOffer(server.name, repinned.active, notice, deps.trust.logger);
      return {
        raw,
        ...adapted,
        held: repinned.held,
        declined: repinned.declined === true,
      };
    };
    const policy = serverPolicy(server, deps.launch.root);
    const repinned = await repin(
      server,
      policy,
      { raw, last: state.last },
      state.mayAsk,
      (held) => interim(adapt(held)),
      signal,
    );
    return adapt(repinned);
  };
}

/** Reads one server's resources and templates again. @internal */
export type RefreshResources = (
  server: ServerConfig,
  connection: ServerConnection,
  signal: AbortSignal,
) => Promise<AdaptedResources>;

/**
 * The resource refresh of a manager (no pin check: resources are data, not instructions). @internal
 *
 * @param notice - Where skipped entries are told, each once per refresh.
 * @returns The refresh function; it throws when a list cannot be read.
 */
export function resourceRefresh(notice: (text: string) => void): RefreshResources {
  return async (server, connection, signal) => {
    const limits = { signal, timeoutMs: Math.min(REFRESH_TIMEOUT_MS, server.def.timeoutMs) };
    const lists = await connection.request('resources/list', listResources, limits);
    return adaptServerResources(server.name, lists, notice);
  };
}

/**
 * Why a tool or prompt left the lists while its server ran, for the error a call to it gets. @internal
 *
 * @param server - The server's name.
 * @param held - Whether it is still listed, but held back until the user allows the change.
 */
export function goneReason(server: string, held: boolean): string {
  return held
    ? `its server "${server}" changed it while it ran, and it is held back until the user allows the change`
    : `its server "${server}" removed it while it ran (its list changed)`;
}

/** A URI a server sent in a notification, as the host is told it: through the URL policy. @internal */
export function shownUri(uri: string): string {
  const verdict = checkUrl(uri, { use: 'show' });
  return verdict.ok
    ? capLine(neutralizeTags(verdict.shown), LIMITS.maxFieldChars)
    : `a URI that is not shown (${verdict.code})`;
}

/**
 * Runs one server's refreshes: one at a time, notifications that arrive during a refresh fold
 * into one more refresh after it, and at most {@link MAX_REFRESHES_PER_WINDOW} start per
 * {@link REFRESH_WINDOW_MS} (later ones wait on one timer). @internal
 */
export class RefreshQueue {
  readonly #run: (signal: AbortSignal) => Promise<void>;
  readonly #signal: AbortSignal;
  readonly #logger: ManagerLogger | undefined;
  readonly #label: string;
  readonly #starts: number[] = [];
  #running = false;
  #pending = false;
  #timer: NodeJS.Timeout | undefined;

  /**
   * @param run - One refresh.
   * @param signal - Aborts when the connection ends: nothing more runs.
   * @param label - The server's name, for the log.
   */
  constructor(
    run: (signal: AbortSignal) => Promise<void>,
    signal: AbortSignal,
    label: string,
    logger: ManagerLogger | undefined,
  ) {
    this.#run = run;
    this.#signal = signal;
    this.#label = label;
    this.#logger = logger;
  }

  /** Asks for a refresh (coalesced with one running or waiting). */
  request(): void {
    if (this.#signal.aborted) return;
    if (this.#running || this.#timer !== undefined) {
      this.#pending = true;
      return;
    }
    this.#next();
  }

  #next(): void {
    if (this.#signal.aborted) return;
    const now = Date.now();
    while (this.#starts.length > 0 && (this.#starts[0] ?? 0) <= now - REFRESH_WINDOW_MS) {
      this.#starts.shift();
    }
    if (this.#starts.length >= MAX_REFRESHES_PER_WINDOW) {
      const wait = (this.#starts[0] ?? now) + REFRESH_WINDOW_MS - now;
      log(this.#logger, 'debug', `MCP server "${this.#label}": tool refreshes wait ${wait} ms`);
      // The end of the connection clears the timer; the listener lives only while it waits, so
      // an idle server's queue costs no listener on its connection's signal.
      const onAbort = () => clearTimeout(timer);
      const timer = setTimeout(() => {
        this.#signal.removeEventListener('abort', onAbort);
        this.#timer = undefined;
        this.#next();
      }, wait);
      timer.unref();
      this.#timer = timer;
      this.#signal.addEventListener('abort', onAbort, { once: true });
      return;
    }
    this.#starts.push(now);
    this.#running = true;
    this.#pending = false;
    log(this.#logger, 'debug', `MCP server "${this.#label}": listing again what changed`);
    void this.#run(this.#signal)
      .catch((error: unknown) => {
        if (this.#signal.aborted) return;
        log(
          this.#logger,
          'warn',
          `MCP server "${this.#label}": its changed list could not be read: ${oneLine(messageOf(error))}`,
        );
      })
      .finally(() => {
        this.#running = false;
        if (this.#pending) this.#next();
      });
  }
}
