// What a running server's `notifications/tools/list_changed` does: its tool list is read again
// and goes through the pin check (trust-phases.ts `repin`), never around it. Refreshes are
// coalesced and bounded, so a server that floods notifications cannot spin the client.
import { log } from '@garuda/internal';
import type { ServerConfig } from '@garuda/mcp-config';
import { adaptTools } from '@garuda/mcp-tools';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConnection } from './server-connection.js';
import { serverPolicy } from './server-policy.js';
import type { StartDeps } from './start-server.js';
import { messageOf, oneLine } from './text.js';
import { trustPhases, type Repinned } from './trust-phases.js';
import type { ManagerLogger, McpTool } from './types.js';

/** Refreshes one server may start per window; more wait for the window (one timer). @internal */
export const MAX_REFRESHES_PER_WINDOW = 10;
/** The window of {@link MAX_REFRESHES_PER_WINDOW}. @internal */
export const REFRESH_WINDOW_MS = 60_000;
/** The time limit of one tools/list request of a refresh. @internal */
export const REFRESH_TIMEOUT_MS = 30_000;

/** A refreshed tool list: the raw list, and the adapted tools that may be used. @internal */
export interface RefreshedTools {
  readonly raw: readonly Tool[];
  readonly tools: readonly McpTool[];
  /** Tools (MCP names) the server lists that wait for the user's consent. */
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
export function toolRefresh(deps: StartDeps): RefreshTools {
  const { repin } = trustPhases(deps.trust);
  return async (server, connection, state, interim, signal) => {
    const raw = await connection.listTools({
      signal,
      timeoutMs: Math.min(REFRESH_TIMEOUT_MS, server.def.timeoutMs),
    });
    const seen = new Set<string>();
    const adapt = (repinned: Repinned): RefreshedTools => {
      const adapted = adaptTools(server.name, repinned.active);
      for (const notice of adapted.notices) {
        if (seen.has(notice)) continue;
        seen.add(notice);
        deps.trust.notice(notice);
      }
      return {
        raw,
        tools: adapted.tools,
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
    signal.addEventListener('abort', () => clearTimeout(this.#timer), { once: true });
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
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#next();
      }, wait);
      this.#timer.unref();
      return;
    }
    this.#starts.push(now);
    this.#running = true;
    this.#pending = false;
    log(this.#logger, 'debug', `MCP server "${this.#label}": listing its tools again`);
    void this.#run(this.#signal)
      .catch((error: unknown) => {
        if (this.#signal.aborted) return;
        log(
          this.#logger,
          'warn',
          `MCP server "${this.#label}": its changed tool list could not be read: ${oneLine(messageOf(error))}`,
        );
      })
      .finally(() => {
        this.#running = false;
        if (this.#pending) this.#next();
      });
  }
}
