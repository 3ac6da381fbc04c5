// The tools and prompts the model and the host see, across servers: byte-stable order, and one
// owner per name. Who owns a name that clashes is decided by `settleNames` of @garuda/mcp-tools
// (the one rule: the host's servers, then the user's, then the project's, then other clients'
// project files; only then the name), never by which server name sorts first.
import { SERVER_ORIGINS, settleNames, type ServerOrigin } from '@garuda/internal';
import { promptName, promptPrefix, toolPrefix } from '@garuda/mcp-tools';
import type { LostName, McpPrompt, McpTool, ServerState } from '../types.js';
import { quoteText } from '../common/text.js';

/** What the view needs of one server. @internal */
export interface ToolHolder {
  readonly name: string;
  readonly state: ServerState;
  /** Where its definition comes from: decides who keeps a name that clashes. */
  readonly origin: ServerOrigin;
  /** The adapted tools of its last successful start. */
  readonly tools: readonly McpTool[];
  /** Its adapted prompts (those that passed the pin check). */
  readonly prompts: readonly McpPrompt[];
}

/** The tools and prompts of the running servers, in the order the model gets them. @internal */
export interface ToolView {
  readonly list: readonly McpTool[];
  readonly byName: ReadonlyMap<string, McpTool>;
  /** The offered prompts, by server, then name. */
  readonly prompts: readonly McpPrompt[];
  /** Every tool and prompt left out because another server holds its name. */
  readonly clashes: readonly LostName[];
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a server in `state` offers its tools and prompts. */
function offering(state: ServerState): boolean {
  return state === 'connected' || state === 'ready';
}

/**
 * The tools and prompts of every offering server, sorted by server, then name (so the prompt is
 * byte-stable). A name two servers would share (compared without case, as a host may) is decided
 * by `settleNames`: a server of the user's keeps it against a project's, and a project's server
 * cannot offer a name under the prefix of a user's server even while that one is down. @internal
 *
 * @param servers - Every configured server, in any state (their prefixes are theirs).
 * @param offered - Whether a server's tool is offered (not hidden by the user); a hidden tool is
 *   in neither list nor map, so it cannot be called.
 * @param promptsOf - Whether a server's prompts are offered (default: when it offers tools).
 * @returns The view.
 */
export function toolView<T extends ToolHolder>(
  servers: Iterable<T>,
  offered: (server: T, tool: McpTool) => boolean = () => true,
  promptsOf: (server: T) => boolean = (server) => offering(server.state),
): ToolView {
  const all = [...servers].sort((a, b) => byCodeUnit(a.name, b.name));
  const running = all.filter((server) => offering(server.state));
  const tools = settleNames(
    running.flatMap((server) =>
      [...server.tools]
        .sort((a, b) => byCodeUnit(a.name, b.name))
        .filter((tool) => offered(server, tool))
        .map((tool) => ({
          name: tool.name,
          server: server.name,
          origin: server.origin,
          item: tool,
        })),
    ),
    all.map((server) => ({
      prefix: toolPrefix(server.name),
      server: server.name,
      origin: server.origin,
    })),
  );
  const prompts = settleNames(
    all.filter(promptsOf).flatMap((server) =>
      [...server.prompts]
        .sort((a, b) => byCodeUnit(a.name, b.name))
        .map((prompt) => ({
          name: promptName(server.name, prompt.name),
          server: server.name,
          origin: server.origin,
          item: prompt,
        })),
    ),
    all.map((server) => ({
      prefix: promptPrefix(server.name),
      server: server.name,
      origin: server.origin,
    })),
  );
  return {
    list: tools.kept,
    byName: new Map(tools.kept.map((tool) => [tool.name, tool])),
    prompts: prompts.kept,
    clashes: [
      ...tools.clashes.map((clash) => ({ ...clash, kind: 'tool' as const })),
      ...prompts.clashes.map((clash) => ({ ...clash, kind: 'prompt' as const })),
    ],
  };
}

/** How a notice names where a server comes from. */
const ORIGIN_WORDS: Readonly<Record<ServerOrigin, string>> = {
  host: "the host's own",
  user: 'yours',
  project: "the project's",
  imported: "the project's, from another client's file",
};

/** The most names one notice lists. */
const MAX_NAMES_SHOWN = 5;

function namesText(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_SHOWN).map((name) => quoteText(name, 100));
  const more = names.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * What a server lost to which server (`StatusRow.lostNames`), in words: one clause per server
 * that keeps names, at most five names each (server names are valid config names; the lost
 * names are quoted and cleaned).
 *
 * @param lost - The clashes of one losing server.
 * @returns E.g. `its tool "mcp__my_notes__search" is not offered: MCP server "my_notes" (yours)
 *   holds that name`.
 */
export function lostNamesText(lost: readonly LostName[]): string {
  const byKeeper = new Map<string, LostName[]>();
  for (const clash of lost) {
    const key = `${clash.keptBy}\u0000${clash.kind}`;
    byKeeper.set(key, [...(byKeeper.get(key) ?? []), clash]);
  }
  return [...byKeeper.values()]
    .map((group) => {
      const [first] = group as [LostName, ...LostName[]];
      const what = group.length === 1 ? first.kind : `${first.kind}s`;
      const holds = group.length === 1 ? 'holds that name' : 'holds those names';
      return `its ${what} ${namesText(group.map((c) => c.name))} ${group.length === 1 ? 'is' : 'are'} not offered: MCP server "${first.keptBy}" (${ORIGIN_WORDS[first.keptByOrigin]}) ${holds}`;
    })
    .join('; ');
}

/**
 * The notice for the user and the host about one server that lost names. @internal
 *
 * @param server - The losing server (a valid config name).
 * @param origin - Where it comes from.
 * @param lost - Its clashes.
 * @returns The text for `prompter.notice`.
 */
export function clashNotice(
  server: string,
  origin: ServerOrigin,
  lost: readonly LostName[],
): string {
  return `MCP server "${server}" (${ORIGIN_WORDS[origin]}) is degraded: ${lostNamesText(lost)}. Names are compared without case and a clash goes to the host's servers, then yours, then the project's; rename the server to use both.`;
}

/**
 * The note for the model about one server that lost names. @internal
 *
 * @param server - The losing server (a valid config name).
 * @param lost - Its clashes.
 * @returns E.g. `MCP server "my-notes" is degraded: its tool "…" is not offered: MCP server
 *   "my_notes" (yours) holds that name. Calls by that name go to "my_notes", not to "my-notes".`
 */
export function clashNote(server: string, lost: readonly LostName[]): string {
  return `MCP server "${server}" is degraded: ${lostNamesText(lost)}. A name it lost belongs to the server that holds it; do not use it to reach "${server}".`;
}

/**
 * The server a tool name belongs to when that server is not connected: the one that listed it
 * last, or whose prefix it has; when several match, the one whose names win a clash (by origin),
 * then the longest name. @internal
 *
 * @param servers - Every configured server.
 * @param name - A tool name as the model gave it.
 * @returns That server, or `undefined`.
 */
export function ownerOf<T extends ToolHolder>(servers: Iterable<T>, name: string): T | undefined {
  let owner: T | undefined;
  const rank = (server: T) => SERVER_ORIGINS.indexOf(server.origin);
  for (const server of servers) {
    if (offering(server.state)) continue;
    const known = server.tools.some((tool) => tool.name === name);
    const prefixed = name.startsWith(toolPrefix(server.name));
    if (!known && !prefixed) continue;
    if (
      owner === undefined ||
      rank(server) < rank(owner) ||
      (rank(server) === rank(owner) && server.name.length > owner.name.length)
    ) {
      owner = server;
    }
  }
  return owner;
}
