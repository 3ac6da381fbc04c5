// The cache behind a lazy start: each trusted server's last pinned list (its tools and prompts as
// the server sent them), in `<home>/mcp-tool-cache.json` beside the trust store (mode 0600,
// replaced atomically under a cross-process lock). The cache is never trusted on its own: a
// cached list is used only when it hashes to the pin the trust store holds for the server's very
// definition, so an edited, stale or foreign cache is ignored and the server starts as usual.
// It keeps the raw list, not the cleaned one, because the pin is a hash of what the server sent:
// a cleaned copy could not be checked against it. Cleaning it again costs well under a
// millisecond per server.
import { LockedJsonFile, hashTools } from '@garuda/mcp-trust';
import type { Tool } from '@modelcontextprotocol/client';
import { log } from '@garuda/internal';
import { messageOf } from '../common/text.js';
import type { ManagerLogger } from '../types.js';

/** The cache file's format version. */
const CACHE_VERSION = 1;

/** At most this many servers are cached; the oldest entries give way. @internal */
export const MAX_CACHED_SERVERS = 500;

/** One server's cached list. @internal */
export interface CachedList {
  /** `defHash` of the definition the list was listed with. */
  readonly def: string;
  /** `hashTools(raw)`: what the trust store's pin must equal. */
  readonly tools: string;
  /** The pinned list (tools, then prompt pins) as the server sent it. */
  readonly raw: readonly Tool[];
  /** When it was listed, ISO 8601 UTC. */
  readonly at: string;
}

type CacheMap = Map<string, CachedList>;

function isCachedList(value: unknown): value is CachedList {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.def === 'string' &&
    typeof entry.tools === 'string' &&
    typeof entry.at === 'string' &&
    Array.isArray(entry.raw) &&
    entry.raw.every(
      (tool: unknown) =>
        typeof tool === 'object' &&
        tool !== null &&
        typeof (tool as Record<string, unknown>).name === 'string',
    )
  );
}

function fromJson(data: unknown): { ok: true; value: CacheMap } | { ok: false; reason: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, reason: 'it is not an object' };
  }
  const { version, servers } = data as Record<string, unknown>;
  if (version !== CACHE_VERSION)
    return { ok: false, reason: `its "version" is not ${CACHE_VERSION}` };
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    return { ok: false, reason: '"servers" is not an object' };
  }
  const map: CacheMap = new Map();
  // An entry of the wrong shape is left out, not the whole file: it only costs that server a
  // full start.
  for (const [key, entry] of Object.entries(servers)) if (isCachedList(entry)) map.set(key, entry);
  return { ok: true, value: map };
}

function toJson(map: CacheMap): unknown {
  return { version: CACHE_VERSION, servers: Object.fromEntries(map) };
}

/**
 * The tool-list cache of one manager. Saves are coalesced: the servers of one start are written
 * in one update of the file. A failure to read or write is logged and costs only speed. @internal
 */
export class ToolListCache {
  readonly #file: LockedJsonFile<CacheMap>;
  readonly #logger: ManagerLogger | undefined;
  readonly #pending = new Map<string, CachedList>();
  #writing: Promise<void> | undefined;

  constructor(file: string, logger: ManagerLogger | undefined) {
    this.#logger = logger;
    this.#file = new LockedJsonFile<CacheMap>(file, {
      label: 'tool-list cache',
      fromJson,
      toJson,
      logger,
      afterMoveAside: 'every server starts in full once and is cached again.',
    });
  }

  /** Every cached list (empty when the file is missing, unreadable or moved aside). */
  async load(): Promise<ReadonlyMap<string, CachedList>> {
    try {
      return (await this.#file.load()) ?? new Map();
    } catch (error) {
      log(this.#logger, 'warn', `the tool-list cache could not be read: ${messageOf(error)}`);
      return new Map();
    }
  }

  /**
   * Keeps a server's pinned list for its next lazy start (written soon, with the others).
   *
   * @param key - The server's trust key.
   * @param def - `defHash` of its definition.
   * @param raw - The pinned list it listed.
   */
  save(key: string, def: string, raw: readonly Tool[]): void {
    this.#pending.set(key, { def, tools: hashTools(raw), raw, at: new Date().toISOString() });
    this.#writing ??= Promise.resolve().then(() => this.#write());
  }

  /** Waits for the pending writes, at most `ms`. */
  async flush(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ms);
    });
    try {
      // A write that ends with saves pending starts the next one: wait for that too.
      while (this.#writing !== undefined) {
        if ((await Promise.race([this.#writing, late])) === 'late') return;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async #write(): Promise<void> {
    const batch = new Map(this.#pending);
    this.#pending.clear();
    try {
      await this.#file.update((current) => {
        const next: CacheMap = new Map(current ?? []);
        let changed = false;
        for (const [key, entry] of batch) {
          const known = next.get(key);
          if (known?.def === entry.def && known.tools === entry.tools) continue;
          next.delete(key);
          next.set(key, entry);
          changed = true;
        }
        while (next.size > MAX_CACHED_SERVERS) next.delete(next.keys().next().value as string);
        return { write: changed ? next : undefined, result: undefined };
      });
    } catch (error) {
      log(this.#logger, 'warn', `the tool-list cache could not be written: ${messageOf(error)}`);
    } finally {
      this.#writing = undefined;
      if (this.#pending.size > 0) this.#writing = this.#write();
    }
  }
}
