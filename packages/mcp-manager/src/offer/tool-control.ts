// Which of a server's tools are offered: the user's `allowTools` and `denyTools` (deny wins),
// and this session's `enable(name)` / `disable(name)`. One place decides; the tool view, `call()`,
// `status()` and `hiddenTools()` all ask here.
import type { ServerConfig } from '@garuda/mcp-config';
import { ToolHiddenError, UnknownToolError } from '../errors.js';
import type { McpTool } from '../types.js';
import { quoteText } from '../common/text.js';

/**
 * Whether `name` matches `pattern`, where `*` stands for any run of characters (none included)
 * and everything else for itself, case-sensitively. @internal
 *
 * Written by hand rather than as a regular expression: a pattern such as `*a*a*a*a*` turned
 * into `.*a.*a.*a.*a` backtracks for a very long time on a long name, and a tool name comes from
 * the server. This walk goes back only to the last `*`, so it takes at most
 * pattern length × name length steps.
 */
export function matchesToolPattern(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = n;
      p += 1;
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p += 1;
      n += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      n = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

/** Why a tool is hidden from the model. */
export type HiddenReason =
  /** A `denyTools` pattern matches it (`enable()` cannot change that). */
  | 'denied'
  /** The server has `allowTools` and no pattern of it matches. */
  | 'not-allowed'
  /** `disable(name)` hid it for this session. */
  | 'disabled';

/** A tool the model does not get, and why (from `hiddenTools()`). */
export interface HiddenTool {
  /** The name a model would use, `mcp__<server>__<tool>`. */
  readonly name: string;
  readonly server: string;
  /** Its MCP name, as the server lists it (cleaned). */
  readonly tool: string;
  readonly reason: HiddenReason;
  /** `denied`: the `denyTools` pattern that matches (the first in the list). */
  readonly pattern?: string;
}

/** This session's `enable()` / `disable()` answers, by server, then MCP tool name. @internal */
export class ToolToggles {
  readonly #byServer = new Map<string, Map<string, boolean>>();

  /** `true`: enabled, `false`: disabled, `undefined`: as the config says. */
  get(server: string, tool: string): boolean | undefined {
    return this.#byServer.get(server)?.get(tool);
  }

  /** Records an answer; returns whether it changed anything. */
  set(server: string, tool: string, enabled: boolean): boolean {
    let tools = this.#byServer.get(server);
    if (tools === undefined) {
      tools = new Map();
      this.#byServer.set(server, tools);
    }
    if (tools.get(tool) === enabled) return false;
    tools.set(tool, enabled);
    return true;
  }
}

/**
 * Why one tool of a server is hidden, or `undefined` when it is offered. A deny wins over
 * everything; then this session's answer; then the allow list. @internal
 *
 * @param config - The server's configuration (its `allowTools` and `denyTools`).
 * @param tool - The tool's MCP name, as the server lists it.
 * @param toggles - This session's answers.
 */
export function hiddenReason(
  config: ServerConfig,
  tool: string,
  toggles: ToolToggles,
): { readonly reason: HiddenReason; readonly pattern?: string } | undefined {
  const { allowTools, denyTools } = config.def;
  const deny = denyTools?.find((pattern) => matchesToolPattern(pattern, tool));
  if (deny !== undefined) return { reason: 'denied', pattern: deny };
  const toggled = toggles.get(config.name, tool);
  if (toggled === false) return { reason: 'disabled' };
  if (toggled === true) return undefined;
  if (
    allowTools !== undefined &&
    !allowTools.some((pattern) => matchesToolPattern(pattern, tool))
  ) {
    return { reason: 'not-allowed' };
  }
  return undefined;
}

/**
 * The hidden tools among `tools` of one server. @internal
 *
 * @param config - The server's configuration.
 * @param tools - Its adapted tools.
 * @param toggles - This session's answers.
 */
export function hiddenAmong(
  config: ServerConfig,
  tools: readonly McpTool[],
  toggles: ToolToggles,
): HiddenTool[] {
  return tools.flatMap((tool) => {
    const hidden = hiddenReason(config, tool.tool, toggles);
    if (hidden === undefined) return [];
    return [{ name: tool.name, server: tool.server, tool: tool.tool, ...hidden }];
  });
}

/**
 * Why a tool is hidden, in words for the model and the user (the pattern comes from a file, so
 * it is cleaned and quoted). @internal
 */
export function hiddenText(hidden: {
  readonly reason: HiddenReason;
  readonly pattern?: string;
}): string {
  switch (hidden.reason) {
    case 'denied':
      return `the server's "denyTools" pattern ${quoteText(hidden.pattern ?? '')} hides it`;
    case 'not-allowed':
      return `the server's "allowTools" does not list it`;
    case 'disabled':
      return 'it was disabled for this session';
  }
}

/** What `enable()` and `disable()` answer. */
export interface ToolToggleResult {
  /** The model-facing name. */
  readonly name: string;
  readonly server: string;
  /** Its MCP name (cleaned). */
  readonly tool: string;
  /** Whether the model gets it now. */
  readonly offered: boolean;
  /** Whether what the model gets changed (`onChange` was told). */
  readonly changed: boolean;
}

/** What {@link toggleTool} needs of the registry. @internal */
export interface Toggling<R extends { readonly config: ServerConfig }> {
  listed(name: string): { readonly record: R; readonly tool: McpTool } | undefined;
  toggle(record: R, tool: McpTool, enabled: boolean): boolean;
  readonly toggles: ToolToggles;
}

/**
 * `enable(name)` / `disable(name)`: for this session, offers or hides one tool its server lists.
 * `enable` overrides the allow list and an earlier `disable`, not a `denyTools` pattern. @internal
 *
 * @throws {@link UnknownToolError} when no server lists `name`, {@link ToolHiddenError} when
 *   enabling a denied tool.
 */
export function toggleTool<R extends { readonly config: ServerConfig }>(
  registry: Toggling<R>,
  name: unknown,
  enabled: boolean,
): ToolToggleResult {
  const label = typeof name === 'string' ? quoteText(name) : `(${typeof name})`;
  const listed = typeof name === 'string' ? registry.listed(name) : undefined;
  if (listed === undefined) throw new UnknownToolError(String(name), label);
  const { record, tool } = listed;
  const denied = hiddenReason(record.config, tool.tool, new ToolToggles());
  if (enabled && denied?.reason === 'denied') {
    throw new ToolHiddenError(
      tool.name,
      'denied',
      `MCP tool "${tool.name}" cannot be enabled: ${hiddenText(denied)}, and a deny wins. Remove the pattern from ${quoteText(record.config.file)} to offer it.`,
    );
  }
  const changed = registry.toggle(record, tool, enabled);
  const offered = hiddenReason(record.config, tool.tool, registry.toggles) === undefined;
  return { name: tool.name, server: tool.server, tool: tool.tool, offered, changed };
}
