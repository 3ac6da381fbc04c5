// How each server's tools reach the model (its exposure mode), so that a host with many servers
// keeps the model's context small:
//   direct  every offered tool is in tools() (the default);
//   search  only the server's `directTools` are; the rest wait behind `mcp_tool_search`, and
//           each tool a search finds joins tools() for the rest of the session;
//   proxy   the rest wait behind `mcp_tool_search` and are called through `mcp_tool_call`, so
//           tools() never grows (opt-in only);
//   auto    direct, or search when the catalog has more than AUTO_SEARCH_MIN_TOOLS tools; never
//           proxy (a gateway tool that takes free-form arguments costs models accuracy on
//           structured output).
// An MCP App's app-only tools are in neither list nor catalog (see exposeTools).
// Exposure decides what the model is shown, not what may run: a held-back tool keeps its pin,
// its approval and its cleaning, and the filters (allowTools, denyTools) still decide what is
// offered at all. The one place exposure is decided.
import type { ServerConfig, ToolExposure } from '@garuda/mcp-config';
import {
  isAppOnly,
  TOOL_PROXY_NAME,
  TOOL_SEARCH_NAME,
  toolProxyTool,
  toolSearchTool,
  type ModelToolDefinition,
} from '@garuda/mcp-tools';
import { matchesToolPattern } from './tool-control.js';
import type { McpTool } from '../types.js';

/** `auto` picks `search` when the catalog (every offered tool) has more tools than this. */
export const AUTO_SEARCH_MIN_TOOLS = 40;

/** A server's exposure once `auto` is decided. */
export type ExposureMode = 'direct' | 'search' | 'proxy';

/** The `server` of the tools the manager itself offers (`mcp_tool_search`, `mcp_tool_call`). */
export const HOST_TOOL_SERVER = 'garuda';

/** What the model is shown, and what waits behind the search. @internal */
export interface ExposedTools {
  /** The model's tools: direct and promoted ones by server and name, then the host's tools. */
  readonly list: readonly McpTool[];
  /** What `mcp_tool_search` searches: every offered tool of a search or proxy server. */
  readonly catalog: readonly McpTool[];
  /** Whether `mcp_tool_call` is offered (a proxy server has tools behind it). */
  readonly gateway: boolean;
  /** Model names of the catalog's tools that a search does not promote (proxy servers'). */
  readonly proxied: ReadonlySet<string>;
  /** Each connected server's mode, by name. */
  readonly modes: ReadonlyMap<string, ExposureMode>;
}

/**
 * A server's exposure: its own `exposure`, else the host's; `auto` by the catalog's size.
 * @internal
 */
export function exposureOf(
  config: ServerConfig,
  host: ToolExposure,
  catalogSize: number,
): ExposureMode {
  const chosen = config.def.exposure ?? host;
  if (chosen === 'auto') return catalogSize > AUTO_SEARCH_MIN_TOOLS ? 'search' : 'direct';
  return chosen;
}

function hostTool(definition: ModelToolDefinition): McpTool {
  return {
    name: definition.name,
    server: HOST_TOOL_SERVER,
    tool: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    readOnly: false,
    hints: [],
  };
}

/**
 * Splits the offered tools into what the model is shown and what waits behind the search.
 * @internal
 *
 * @param offered - Every offered tool (the tool view: filters applied, clashes resolved).
 * @param configOf - A server's configuration by name.
 * @param host - The host's exposure (for servers that set none).
 * @param promoted - Model names a search promoted this session.
 */
export function exposeTools(
  offered: readonly McpTool[],
  configOf: (server: string) => ServerConfig | undefined,
  host: ToolExposure,
  promoted: ReadonlySet<string>,
): ExposedTools {
  const modes = new Map<string, ExposureMode>();
  const list: McpTool[] = [];
  const catalog: McpTool[] = [];
  const proxied = new Set<string>();
  let heldBySearch = false;
  let gateway = false;
  for (const tool of offered) {
    // An MCP App's own tool (`visibility` without `model`) is never the model's, whatever the
    // exposure: it stays callable by name (the app calls it through the host), under the same
    // approvals.
    if (isAppOnly(tool)) continue;
    let mode = modes.get(tool.server);
    const config = configOf(tool.server);
    if (mode === undefined) {
      mode = config === undefined ? 'direct' : exposureOf(config, host, offered.length);
      modes.set(tool.server, mode);
    }
    if (mode === 'direct') {
      list.push(tool);
      continue;
    }
    catalog.push(tool);
    if (mode === 'proxy') proxied.add(tool.name);
    const direct = config?.def.directTools?.some((p) => matchesToolPattern(p, tool.tool)) ?? false;
    if (direct || (mode === 'search' && promoted.has(tool.name))) {
      list.push(tool);
      continue;
    }
    if (mode === 'proxy') gateway = true;
    else heldBySearch = true;
  }
  if (heldBySearch || gateway) {
    list.push(hostTool(toolSearchTool({ proxy: gateway, promote: heldBySearch })));
    if (gateway) list.push(hostTool(toolProxyTool()));
  }
  return { list, catalog, gateway, proxied, modes };
}

/** Whether `name` is one of the manager's own tools. @internal */
export function isHostTool(
  name: unknown,
): name is typeof TOOL_SEARCH_NAME | typeof TOOL_PROXY_NAME {
  return name === TOOL_SEARCH_NAME || name === TOOL_PROXY_NAME;
}
