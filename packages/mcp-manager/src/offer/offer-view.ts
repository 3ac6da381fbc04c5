// What a server offers besides tools, adapted for the model and the host: its prompts (from the
// pinned list, so only what passed the pin check) and its resources. The adapters of
// @garuda/mcp-tools clean and cap; this file only says which list goes where.
import {
  adaptPrompts,
  adaptResourceTemplates,
  adaptResources,
  adaptTools,
} from '@garuda/mcp-tools';
import type { Tool } from '@modelcontextprotocol/client';
import { log } from '@garuda/internal';
import { splitPinned } from './prompt-pins.js';
import type { ServerLists } from './server-lists.js';
import type {
  ManagerLogger,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
} from '../types.js';

/** A server's adapted resources and templates. @internal */
export interface AdaptedResources {
  readonly resources: readonly McpResource[];
  readonly templates: readonly McpResourceTemplate[];
}

/** No resources. @internal */
export const NO_RESOURCES: AdaptedResources = Object.freeze({ resources: [], templates: [] });

/**
 * The tools and prompts of a pinned list (the part of it that may be used), adapted; each
 * notice (a skipped entry) is told once through `notice`; a tool's MCP Apps metadata that was
 * dropped goes to `logger` (`debug`). @internal
 */
export function adaptOffer(
  server: string,
  active: readonly Tool[],
  notice: (text: string) => void,
  logger?: ManagerLogger,
): { readonly tools: readonly McpTool[]; readonly prompts: readonly McpPrompt[] } {
  const { tools, prompts } = splitPinned(active);
  const adapted = adaptTools(server, tools);
  for (const text of adapted.notices) notice(text);
  for (const text of adapted.uiDropped) log(logger, 'debug', text);
  const listed = adaptPrompts(server, prompts);
  for (const text of listed.skipped) notice(text);
  return { tools: adapted.tools, prompts: listed.prompts };
}

/** A server's resources and templates, adapted; skipped entries are told through `notice`. @internal */
export function adaptServerResources(
  server: string,
  lists: Pick<ServerLists, 'resources' | 'templates'>,
  notice: (text: string) => void,
): AdaptedResources {
  const resources = adaptResources(server, lists.resources);
  const templates = adaptResourceTemplates(server, lists.templates);
  for (const text of [...resources.skipped, ...templates.skipped]) notice(text);
  return { resources: resources.resources, templates: templates.resourceTemplates };
}
