// A lazy start (`tools.startMode: 'lazy'`): a server whose definition is trusted and whose tools are
// pinned offers its cached tools at once, and starts on its first use. Nothing here decides
// trust anew: the cached list is used only when the trust store already trusts this very
// definition without a question and pins exactly that list. Everything else (no pins yet, a
// changed definition, a project server not allowed yet, a cache that does not match) starts as
// an eager start does, asking what it asks.
import { defHash, type ServerConfig } from '@garuda/mcp-config';
import { getMcpTrustEntry, hashTools, toolHashes, type TrustStoreLike } from '@garuda/mcp-trust';
import type { Tool } from '@modelcontextprotocol/client';
import { adaptOffer } from '../offer/offer-view.js';
import { serverPolicy } from './server-policy.js';
import type { CachedList } from './tool-cache.js';
import type { McpPrompt, McpTool } from '../types.js';

/** What a server offers before it runs: its cached list, checked and cleaned. @internal */
export interface ReadyOffer {
  readonly tools: readonly McpTool[];
  readonly prompts: readonly McpPrompt[];
  /** The pinned list as the server sent it (the baseline of the first start's comparison). */
  readonly raw: readonly Tool[];
}

/** What the check of a cached list needs. @internal */
export interface ReadyDeps {
  readonly root: string;
  readonly store: TrustStoreLike;
  readonly notice: (text: string) => void;
}

/**
 * The offer of a server from the cache, or `undefined` when it must start now: it is disabled,
 * nothing is cached for its trust key, the cache was made for another definition, the trust
 * store does not hold this definition with pins (or cannot be read), or the cached list does
 * not hash to those pins. @internal
 */
export async function readyFromCache(
  server: ServerConfig,
  cached: ReadonlyMap<string, CachedList>,
  deps: ReadyDeps,
): Promise<ReadyOffer | undefined> {
  if (!server.def.enabled) return undefined;
  const { trustKey } = serverPolicy(server, deps.root);
  const entry = cached.get(trustKey);
  const def = defHash(server.def);
  if (entry === undefined || entry.def !== def) return undefined;
  let pinned;
  try {
    pinned = await getMcpTrustEntry(deps.store, trustKey);
  } catch {
    // An unreadable store: the eager start says so and decides, as it always does.
    return undefined;
  }
  if (pinned?.def !== def || pinned.tools === undefined) return undefined;
  // The integrity check: the list must be exactly what the user's pins say, recomputed here
  // (the hash the cache file carries is not trusted).
  if (hashTools(entry.raw) !== pinned.tools) return undefined;
  return { ...adaptOffer(server.name, entry.raw, deps.notice), raw: entry.raw };
}

/**
 * Whether a tool's definition is the same in two lists (by its pin: description side and
 * schema side). A tool missing from either list is not the same. @internal
 */
export function sameTool(name: string, before: readonly Tool[], after: readonly Tool[]): boolean {
  const find = (list: readonly Tool[]) => list.filter((tool) => tool.name === name);
  const a = find(before);
  const b = find(after);
  if (a.length === 0 || b.length === 0) return false;
  return toolHashes(a)[name] === toolHashes(b)[name];
}
