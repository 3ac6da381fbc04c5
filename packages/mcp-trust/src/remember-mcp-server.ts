import { kindOf } from '@garuda/internal';
import { invalidOption, invalidValue } from './errors.js';
import { hashTools, toolHashes, type PinnedToolShape } from './hash-tools.js';
import { readMcpTrustEntry, type McpTrustEntry } from './mcp-trust-entry.js';
import { MCP_TRUST_PREFIX } from './mcp-trust-key.js';
import { forgetToolGrants } from './tool-grants.js';
import type { TrustStoreLike } from './trust-store-like.js';

function nowIso(store: TrustStoreLike): string {
  const date: unknown = typeof store.now === 'function' ? store.now() : new Date();
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw invalidOption('the store clock must return a valid Date');
  }
  return date.toISOString();
}

/**
 * Records that the person trusts a server ("remember" in the consent), under the store's lock.
 * - With `tools`: stores `def`, `tools` ({@link hashTools}), `toolHashes` and `at`.
 * - Without `tools` (consent given before the server was started): stores `def` and `at`, and
 *   keeps the old tool pins only when the old entry has the same `def`; a new definition starts
 *   without tool pins, and they are added after the server lists its tools.
 * @param store - a {@link TrustStore} or a {@link TrustStoreLike}
 * @param key - from {@link mcpTrustKey}
 * @param trusted - `def` (the definition hash) and, once listed, the server's `tools`
 * @returns the stored entry
 * @throws {@link TrustStoreError} `TRUST_INVALID_VALUE` when `def` is not a non-empty string; what the store throws
 * @example
 * ```ts
 * await rememberMcpServer(store, key, { def });          // at consent
 * await rememberMcpServer(store, key, { def, tools });   // after connect + listTools
 * ```
 */
export async function rememberMcpServer(
  store: TrustStoreLike,
  key: string,
  trusted: { def: string; tools?: readonly PinnedToolShape[] },
): Promise<McpTrustEntry> {
  const def: unknown = trusted?.def;
  if (typeof def !== 'string' || def === '') {
    throw invalidValue(`"def" must be a non-empty string, got ${kindOf(def)}`);
  }
  // Hash before taking the lock: the lock is held only for the read-modify-write itself.
  const pins =
    trusted.tools === undefined
      ? undefined
      : { tools: hashTools(trusted.tools), toolHashes: toolHashes(trusted.tools) };
  let stored: McpTrustEntry | undefined;
  await store.update(key, (current) => {
    const at = nowIso(store);
    if (pins) {
      stored = { def, ...pins, at };
    } else {
      const old = readMcpTrustEntry(current);
      stored = { def, at };
      if (old?.def === def && old.tools !== undefined) {
        stored.tools = old.tools;
        if (old.toolHashes !== undefined) stored.toolHashes = old.toolHashes;
      }
    }
    return stored;
  });
  return stored as McpTrustEntry;
}

/**
 * Stores the `entry` that {@link checkToolPins} returned for an unchanged list (the old entry
 * with `toolHashes` added), but only if the stored entry is still the one that was checked:
 * same `def`, same `tools`, and still no `toolHashes`. So a change another process made in the
 * meantime is never overwritten.
 * @param store - a {@link TrustStore} or a {@link TrustStoreLike}
 * @param key - from {@link mcpTrustKey}
 * @param entry - `checkToolPins(...).entry`
 * @returns whether the entry was written
 */
export async function upgradeMcpTrustEntry(
  store: TrustStoreLike,
  key: string,
  entry: McpTrustEntry,
): Promise<boolean> {
  let written = false;
  await store.update(key, (current) => {
    const old = readMcpTrustEntry(current);
    if (
      old === undefined ||
      old.def !== entry.def ||
      old.tools !== entry.tools ||
      old.toolHashes !== undefined
    ) {
      return current;
    }
    written = true;
    return { ...old, toolHashes: entry.toolHashes };
  });
  return written;
}

/**
 * Forgets a server: its consent and pins, and every "always allow" grant of its tools. The next
 * start asks about it again, and so does each call.
 * @param store - a {@link TrustStore} or a {@link TrustStoreLike}
 * @param key - from {@link mcpTrustKey}
 * @returns whether there was an entry or a grant to forget
 */
export async function forgetMcpServer(store: TrustStoreLike, key: string): Promise<boolean> {
  const entry = await store.delete(key);
  const grants = key.startsWith(MCP_TRUST_PREFIX) ? await forgetToolGrants(store, key) : false;
  return entry || grants;
}
