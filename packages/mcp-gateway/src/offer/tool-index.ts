// The manager's tools by the names hosts call them, for a call's lookup. `tools()` builds the
// whole list anew (the exposure, the filters), which with dozens of servers costs more than the
// rest of the gateway's part of a call, so the map is built once per list. The manager tells every
// change of `tools()` through `onChange` (the change the hosts hear as list_changed), and the
// gateway forgets the map then: a lookup never sees a list older than the one the hosts were told
// of. A name the map lacks is looked up afresh, and the manager checks the tool again when it runs
// the call, so the map only ever saves work.
import type { McpTool } from '@garuda/mcp-tools';

/** The prefix the manager gives every tool name; the gateway's names leave it out. */
const MANAGER_PREFIX = 'mcp__';

/**
 * The name the host sees for a manager tool: `<server>__<tool>` (the manager's
 * `mcp__<server>__<tool>` without `mcp__`, since hosts put their own prefix in front of a
 * server's tools). Tools of the manager's own (the tool search) keep their names.
 *
 * @param name - The manager's tool name.
 * @returns The host's tool name.
 * @example
 * hostToolName('mcp__github__create_issue'); // 'github__create_issue'
 */
export function hostToolName(name: string): string {
  return name.startsWith(MANAGER_PREFIX) ? name.slice(MANAGER_PREFIX.length) : name;
}

/** The first tool of `tools` whose host name is `name`. */
function firstNamed(tools: readonly McpTool[], name: string): McpTool | undefined {
  return tools.find((tool) => hostToolName(tool.name) === name);
}

/** The manager's tools by host name, built from `list` when first needed after a change. */
export class ToolIndex {
  readonly #list: () => readonly McpTool[];
  #byName: Map<string, McpTool> | undefined;

  /** @param list - The manager's `tools()`. */
  constructor(list: () => readonly McpTool[]) {
    this.#list = list;
  }

  /** The tool list changed (the manager's `onChange`): the next lookup builds the map anew. */
  forget(): void {
    this.#byName = undefined;
  }

  /** The tool the host calls `name`, as the first tool of `tools()` with that host name. */
  find(name: string): McpTool | undefined {
    if (this.#byName === undefined) {
      const byName = new Map<string, McpTool>();
      for (const tool of this.#list()) {
        const hostName = hostToolName(tool.name);
        if (!byName.has(hostName)) byName.set(hostName, tool);
      }
      this.#byName = byName;
    }
    return this.#byName.get(name) ?? firstNamed(this.#list(), name);
  }
}
