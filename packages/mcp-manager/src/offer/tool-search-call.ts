// The manager's own tools, as `call()` runs them: `mcp_tool_search` ranks the held-back tools
// (BM25 over their cleaned names and descriptions, from @garuda/mcp-tools) and promotes what it
// found on search servers; `mcp_tool_call` calls a tool by name, as `call()` calls any tool
// (approval, pins, batching, cleaning and the audit log included).
import { isRecord } from '@garuda/internal';
import {
  createToolIndex,
  formatToolSearchResult,
  TOOL_PROXY_NAME,
  TOOL_SEARCH_NAME,
  type ToolIndex,
} from '@garuda/mcp-tools';
import type { ServerConfig, ToolExposure } from '@garuda/mcp-config';
import { InvalidArgumentsError, UnknownToolError } from '../errors.js';
import { exposeTools, isHostTool, type ExposedTools } from './tool-exposure.js';
import type { ToolView } from './tool-view.js';
import type { ManagerCallResult, ServerChange } from '../types.js';
import { quoteText } from '../common/text.js';

/** How a search ran (on its result: no server was asked, so nobody needed to approve it). */
const SEARCH_APPROVAL = { asked: false, why: 'mcp_tool_search calls no server' } as const;

/**
 * Runs `mcp_tool_search`: the hits among the held-back tools, each hit of a search server
 * promoted (`promote` gets their model names), and the text the model reads. A missing or empty
 * `query` is a result with `isError` that says to search with words. @internal
 *
 * @param exposed - What the model is shown and what waits.
 * @param args - `{ query, limit? }` as the model sent them.
 * @param promote - Adds model names to the session's promoted tools.
 * @param index - The index of `exposed.catalog` (built here when not given).
 */
export function searchTools(
  exposed: ExposedTools,
  args: unknown,
  promote: (names: readonly string[]) => void,
  index: ToolIndex = createToolIndex(exposed.catalog),
): ManagerCallResult {
  if (args !== undefined && !isRecord(args)) {
    throw new InvalidArgumentsError(
      TOOL_SEARCH_NAME,
      Array.isArray(args) ? 'an array' : typeof args,
    );
  }
  const query = args?.query;
  const usable = typeof query === 'string' && query.trim() !== '';
  const hits = usable
    ? index.search(query, { limit: typeof args?.limit === 'number' ? args.limit : undefined })
    : [];
  const promotable = hits.filter((hit) => !exposed.proxied.has(hit.name));
  promote(promotable.map((hit) => hit.name));
  const text = formatToolSearchResult(hits, index.get, {
    ...(usable ? { query } : {}),
    proxy: exposed.gateway,
    // Found tools of a proxy server stay behind the gateway: promise only what happens.
    promote: promotable.length === hits.length,
  });
  return {
    text,
    isError: !usable,
    content: [{ type: 'text', text }],
    approval: SEARCH_APPROVAL,
  };
}

/**
 * The tool name and arguments of an `mcp_tool_call`. @internal
 *
 * @throws {@link InvalidArgumentsError} when they are not an object, {@link UnknownToolError}
 *   when `name` is not a string or names one of the manager's own tools.
 */
export function gatewayTarget(args: unknown): { readonly name: string; readonly args: unknown } {
  if (!isRecord(args)) {
    throw new InvalidArgumentsError(
      TOOL_PROXY_NAME,
      Array.isArray(args) ? 'an array' : typeof args,
    );
  }
  if (typeof args.name !== 'string' || isHostTool(args.name)) {
    // Not a name of a server's tool (the gateway never calls itself or the search).
    const given = typeof args.name === 'string' ? quoteText(args.name) : '(none: give "name")';
    throw new UnknownToolError(String(args.name), given);
  }
  return { name: args.name, args: args.arguments };
}

/** What {@link ExposureSession} reads of the manager's servers. @internal */
export interface ExposureSource {
  view(): ToolView;
  readonly records: ReadonlyMap<string, { readonly config: ServerConfig }>;
}

/**
 * One manager's exposure: what the model is shown of the offered tools, the tools a search
 * promoted (for the rest of the session), and the search index, built again only when the tool
 * view changed (the catalog follows from the view: a server's state, tools, filters or config
 * changed it). @internal
 */
export class ExposureSession {
  readonly #source: ExposureSource;
  readonly #host: ToolExposure;
  readonly #changed: (change: ServerChange) => void;
  readonly #promoted = new Set<string>();
  #index: { readonly view: ToolView; readonly index: ToolIndex } | undefined;

  constructor(source: ExposureSource, host: ToolExposure, changed: (change: ServerChange) => void) {
    this.#source = source;
    this.#host = host;
    this.#changed = changed;
  }

  /** What the model is shown of the offered tools, by each server's exposure. */
  exposed(): ExposedTools {
    const { records } = this.#source;
    return exposeTools(
      this.#source.view().list,
      (server) => records.get(server)?.config,
      this.#host,
      this.#promoted,
    );
  }

  /** Runs `mcp_tool_search` (see {@link searchTools}); `onChange` hears of promoted tools. */
  search(exposed: ExposedTools, args: unknown): ManagerCallResult {
    const view = this.#source.view();
    if (this.#index?.view !== view) {
      this.#index = { view, index: createToolIndex(exposed.catalog) };
    }
    return searchTools(exposed, args, (names) => this.#promote(names), this.#index.index);
  }

  #promote(names: readonly string[]): void {
    const servers = new Set<string>();
    for (const name of names) {
      if (this.#promoted.has(name)) continue;
      this.#promoted.add(name);
      const server = this.#source.view().byName.get(name)?.server;
      if (server !== undefined) servers.add(server);
    }
    for (const server of servers) this.#changed({ server, kind: 'tools' });
  }
}
