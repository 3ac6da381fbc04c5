// A prompt is instructions a server wrote for the model, so its definition is pinned like a
// tool's: each listed prompt joins the server's pinned list as an entry of its own, and a
// changed, added or removed prompt is a change of that list (announced for a user's server,
// asked about and held back for a project's). Existing pins of a server without prompts stay
// valid: its list is the same.
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import { APP_PIN, isAppPin } from './app-pins.js';

/**
 * What starts the pinned name of a prompt. No tool can have a name that starts with it: a tool
 * name must be what tag neutralisation leaves unchanged, and `<mcp_prompt` is a neutralised tag
 * (the tool-list filter drops any other tool). @internal
 */
export const PROMPT_PIN = '<mcp_prompt>';

/** The pinned form of one prompt: its name, title, description and arguments. */
function promptPin(prompt: Prompt): Tool {
  return {
    name: `${PROMPT_PIN}${prompt.name}`,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    // The arguments are the prompt's "schema": a change of them is shown as one.
    inputSchema: { type: 'object', arguments: prompt.arguments ?? [] },
  } as Tool;
}

/**
 * A server's tools and prompts as one list for the pin check. @internal
 *
 * @param tools - Its tools, as listed.
 * @param prompts - Its prompts, as listed.
 * @returns The tools, then each prompt's pinned entry.
 */
export function pinnedList(tools: readonly Tool[], prompts: readonly Prompt[]): Tool[] {
  return [...tools, ...prompts.map(promptPin)];
}

/** Whether a pinned name is a prompt's. @internal */
export function isPromptPin(name: string): boolean {
  return name.startsWith(PROMPT_PIN);
}

/**
 * A pinned list split back into tools and prompts (as the adapters of @garuda/mcp-tools read
 * them). @internal
 */
export function splitPinned(list: readonly Tool[]): { tools: Tool[]; prompts: Prompt[] } {
  const tools: Tool[] = [];
  const prompts: Prompt[] = [];
  for (const entry of list) {
    // An app's entry is neither (see app-pins.ts).
    if (isAppPin(entry.name)) continue;
    if (!isPromptPin(entry.name)) {
      tools.push(entry);
      continue;
    }
    const schema = entry.inputSchema as { arguments?: unknown };
    prompts.push({
      name: entry.name.slice(PROMPT_PIN.length),
      ...(entry.title === undefined ? {} : { title: entry.title }),
      ...(entry.description === undefined ? {} : { description: entry.description }),
      arguments: Array.isArray(schema.arguments) ? (schema.arguments as Prompt['arguments']) : [],
    } as Prompt);
  }
  return { tools, prompts };
}

/**
 * A pinned name as a person reads it: a tool's name as it is, a prompt's as `prompt <name>`, an
 * MCP App's as `app <ui:// URI>`. @internal
 */
export function pinLabel(name: string): string {
  if (isAppPin(name)) return `app ${name.slice(APP_PIN.length)}`;
  return isPromptPin(name) ? `prompt ${name.slice(PROMPT_PIN.length)}` : name;
}

/** How many tools and prompts a server's pins hold (see {@link pinCounts}). */
export interface PinCounts {
  readonly tools: number;
  readonly prompts: number;
  /** MCP Apps (`ui://` resources a tool names), pinned by their content hash. */
  readonly apps: number;
}

/**
 * Counts a server's pinned tools, prompts and apps apart: its pins are one list, where each
 * prompt and each MCP App is an entry of its own next to the tools. Other resources are not pinned.
 *
 * @param names - The pinned names: the keys of a trust entry's `toolHashes` (`@garuda/mcp-trust`).
 * @returns The tools, the prompts and the apps among them.
 * @example
 * ```ts
 * const entry = await getMcpTrustEntry(store, key);
 * const { tools, prompts } = pinCounts(Object.keys(entry?.toolHashes ?? {}));
 * ```
 */
export function pinCounts(names: Iterable<string>): PinCounts {
  let tools = 0;
  let prompts = 0;
  let apps = 0;
  for (const name of names) {
    if (isPromptPin(name)) prompts += 1;
    else if (isAppPin(name)) apps += 1;
    else tools += 1;
  }
  return { tools, prompts, apps };
}
