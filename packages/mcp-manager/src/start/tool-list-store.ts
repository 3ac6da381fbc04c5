// The SDK client's response cache, cut down to what a connection needs: its tools/list.
//
// The SDK keeps every list and read result it fetched as JSON text (a per-client in-memory store),
// whether the server let it be reused or not (`ttlMs` 0 is stored, never served). The manager
// keeps the adapted prompts and resources itself and lists them again on every change, so those
// copies only cost memory per server. The tools/list entry stays: the SDK checks a call's
// structured result against the tool's output schema from it.
import type {
  CacheEntry,
  CacheKey,
  CacheScope,
  ResponseCacheStore,
} from '@modelcontextprotocol/client';

const KEPT_METHOD = 'tools/list';

/**
 * A response cache that keeps the `tools/list` entries (one per partition) and forgets every
 * other result: a read of those always goes to the server. Stamps still count every write, as
 * the SDK's own store does. @internal
 */
export class ToolListStore implements ResponseCacheStore {
  /** By partition (a JSON pair the SDK derives; `params` is always `''` for a list). */
  readonly #entries = new Map<string, CacheEntry>();
  #stamp = 0;

  get(key: CacheKey): CacheEntry | undefined {
    return key.method === KEPT_METHOD ? this.#entries.get(keyOf(key)) : undefined;
  }

  set(
    key: CacheKey,
    entry: { value: string; expiresAt?: number; scope?: CacheScope },
  ): number {
    const stamp = ++this.#stamp;
    if (key.method === KEPT_METHOD) this.#entries.set(keyOf(key), { ...entry, stamp });
    return stamp;
  }

  delete(key: CacheKey): void {
    if (key.method === KEPT_METHOD) this.#entries.delete(keyOf(key));
  }

  evict(method: string): void {
    if (method === KEPT_METHOD) this.#entries.clear();
  }

  clear(): void {
    this.#entries.clear();
  }
}

function keyOf(key: CacheKey): string {
  // Looked up twice on every call (the SDK reads the tool's definition and its output schema):
  // the partition's length in front keeps any two pairs apart, as JSON of the pair did, without
  // serialising an array each time.
  const partition = key.partition ?? '';
  return `${String(partition.length)}:${partition}${key.params ?? ''}`;
}
