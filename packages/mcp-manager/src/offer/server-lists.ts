// A server's prompts and resources, as it lists them: every page up to a bound, only when the
// server says it has them (its capabilities), and never fatal — a server whose prompts or
// resources cannot be read keeps its tools. What is listed here is raw: prompts go through the
// pin check (prompt-pins.ts) and both through @garuda/mcp-tools before anyone reads them.
import { log } from '@garuda/internal';
import { LIMITS } from '@garuda/mcp-tools';
import type {
  Client,
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client';
import { raceAbort } from '../common/abort.js';
import { messageOf, oneLine } from '../common/text.js';
import type { ManagerLogger } from '../types.js';

/** The most pages of one list that are read; a server that pages forever stops here. @internal */
export const MAX_LIST_PAGES = 20;

/** A server's prompts, resources and resource templates, as it listed them. @internal */
export interface ServerLists {
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
}

/** The lists of a server that offers neither prompts nor resources. @internal */
export const NO_LISTS: ServerLists = Object.freeze({ prompts: [], resources: [], templates: [] });

/** The signal and time limit of each request. @internal */
export interface ListLimits {
  readonly signal: AbortSignal;
  readonly timeout: number;
}

/**
 * Every page of one list, until the server has no more, `max` entries (one more than the adapter
 * keeps, so it can say the list was cut) or {@link MAX_LIST_PAGES} pages.
 */
async function allPages<P extends { nextCursor?: string | undefined }, T>(
  list: (params: { cursor: string } | undefined) => Promise<P>,
  itemsOf: (page: P) => readonly T[],
  max: number,
  signal: AbortSignal,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_LIST_PAGES && items.length <= max; pages++) {
    const next = await raceAbort(list(cursor === undefined ? undefined : { cursor }), signal);
    const listed = itemsOf(next);
    items.push(...(Array.isArray(listed) ? listed : []));
    cursor =
      typeof next.nextCursor === 'string' && next.nextCursor !== '' ? next.nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return items.slice(0, max + 1);
}

/**
 * The server's prompts (every page), or none when it does not offer prompts. @internal
 *
 * @throws When the server does not answer in time, the signal aborts or the list is malformed.
 */
export async function listPrompts(client: Client, limits: ListLimits): Promise<Prompt[]> {
  if (client.getServerCapabilities()?.prompts === undefined) return [];
  return allPages(
    (params) => client.listPrompts(params, limits),
    (page) => page.prompts,
    LIMITS.maxPromptsPerServer,
    limits.signal,
  );
}

/**
 * The server's resources and resource templates (every page of each), or none when it does not
 * offer resources. @internal
 *
 * @throws When the server does not answer in time, the signal aborts or a list is malformed.
 */
export async function listResources(
  client: Client,
  limits: ListLimits,
): Promise<Pick<ServerLists, 'resources' | 'templates'>> {
  if (client.getServerCapabilities()?.resources === undefined) {
    return { resources: [], templates: [] };
  }
  const resources = await allPages(
    (params) => client.listResources(params, limits),
    (page) => page.resources,
    LIMITS.maxResourcesPerServer,
    limits.signal,
  );
  const templates = await allPages(
    (params) => client.listResourceTemplates(params, limits),
    (page) => page.resourceTemplates,
    LIMITS.maxResourcesPerServer,
    limits.signal,
  );
  return { resources, templates };
}

/**
 * A server's prompts and resources at its start. A list that cannot be read is logged and left
 * empty: the server's tools stay usable. Only an abort (the start's own time limit, a
 * cancellation) is thrown. @internal
 */
export async function startLists(
  client: Client,
  server: string,
  limits: ListLimits,
  logger: ManagerLogger | undefined,
): Promise<ServerLists> {
  const tolerate = async <T>(what: string, list: () => Promise<T>, none: T): Promise<T> => {
    try {
      return await list();
    } catch (error) {
      if (limits.signal.aborted) throw error;
      log(
        logger,
        'warn',
        `MCP server "${server}": its ${what} could not be listed (${oneLine(messageOf(error))}); it is used without them`,
      );
      return none;
    }
  };
  const prompts = await tolerate('prompts', () => listPrompts(client, limits), []);
  const { resources, templates } = await tolerate(
    'resources',
    () => listResources(client, limits),
    { resources: [], templates: [] },
  );
  return { prompts, resources, templates };
}
