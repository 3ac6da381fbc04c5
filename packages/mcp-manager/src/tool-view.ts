// The tools the model sees, across servers: byte-stable order, and one owner per name.
import { toolPrefix } from '@garuda/mcp-tools';
import type { McpTool, ServerState } from './types.js';

/** What the tool view needs of one server. @internal */
export interface ToolHolder {
  readonly name: string;
  readonly state: ServerState;
  /** The adapted tools of its last successful start. */
  readonly tools: readonly McpTool[];
}

/** Two servers offering a tool of the same name: the first keeps it. @internal */
export interface ToolClash {
  readonly name: string;
  readonly kept: string;
  readonly dropped: string;
}

/** The tools of the connected servers, in the order the model gets them. @internal */
export interface ToolView {
  readonly list: readonly McpTool[];
  readonly byName: ReadonlyMap<string, McpTool>;
  readonly clashes: readonly ToolClash[];
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The tools of every connected server, sorted by server, then tool name (so the prompt is
 * byte-stable); when two servers' tools get the same name, the server first in that order keeps
 * it. @internal
 *
 * @param servers - Every configured server.
 * @param offered - Whether a server's tool is offered (not hidden by the user); a hidden tool is
 *   in neither list nor map, so it cannot be called.
 * @returns The view.
 */
export function toolView<T extends ToolHolder>(
  servers: Iterable<T>,
  offered: (server: T, tool: McpTool) => boolean = () => true,
): ToolView {
  const list: McpTool[] = [];
  const byName = new Map<string, McpTool>();
  const clashes: ToolClash[] = [];
  const connected = [...servers]
    .filter((server) => server.state === 'connected' || server.state === 'ready')
    .sort((a, b) => byCodeUnit(a.name, b.name));
  for (const server of connected) {
    for (const tool of [...server.tools].sort((a, b) => byCodeUnit(a.name, b.name))) {
      if (!offered(server, tool)) continue;
      const holder = byName.get(tool.name);
      if (holder !== undefined) {
        clashes.push({ name: tool.name, kept: holder.server, dropped: server.name });
        continue;
      }
      byName.set(tool.name, tool);
      list.push(tool);
    }
  }
  return { list, byName, clashes };
}

/**
 * The notice about a clash. @internal
 *
 * @param clash - From {@link toolView}.
 * @returns The text for `prompter.notice`.
 */
export function clashNotice(clash: ToolClash): string {
  return `MCP tool name "${clash.name}" is offered by servers "${clash.kept}" and "${clash.dropped}": "${clash.kept}" keeps it and the tool of "${clash.dropped}" is left out. Rename one of the servers to use both.`;
}

/**
 * The server a tool name belongs to when that server is not connected: the one that listed it
 * last, or whose prefix it has (the longest name wins). @internal
 *
 * @param servers - Every configured server.
 * @param name - A tool name as the model gave it.
 * @returns That server, or `undefined`.
 */
export function ownerOf<T extends ToolHolder>(servers: Iterable<T>, name: string): T | undefined {
  let owner: T | undefined;
  for (const server of servers) {
    if (server.state === 'connected' || server.state === 'ready') continue;
    const known = server.tools.some((tool) => tool.name === name);
    const prefixed = name.startsWith(toolPrefix(server.name));
    if (!known && !prefixed) continue;
    if (owner === undefined || server.name.length > owner.name.length) owner = server;
  }
  return owner;
}
