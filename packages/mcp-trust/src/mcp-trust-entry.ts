import { isRecord, log, quote } from '@garuda/internal';
import type { TrustStoreLogger } from './logger.js';
import type { TrustStoreLike } from './trust-store-like.js';

/**
 * What the store keeps for a trusted MCP server.
 * - `def`: the hash of the server's definition (`defHash` of `@garuda/mcp-config`);
 * - `tools`: {@link hashTools} of its tool list, once it has been listed;
 * - `toolHashes`: {@link toolHashes} of that list, to say which tool changed;
 * - `at`: when trust was given, as an ISO 8601 UTC time.
 */
export type McpTrustEntry = {
  def: string;
  tools?: string;
  toolHashes?: Record<string, string>;
  at: string;
};

// Returns the reason a stored value is not an entry, or the entry.
function check(value: unknown): McpTrustEntry | string {
  if (!isRecord(value)) return 'it is not an object';
  const { def, tools, toolHashes, at } = value;
  if (typeof def !== 'string' || def === '') return '"def" is not a non-empty string';
  if (typeof at !== 'string' || at === '') return '"at" is not a non-empty string';
  if (tools !== undefined && typeof tools !== 'string') return '"tools" is not a string';
  const entry: McpTrustEntry = { def, at };
  if (tools !== undefined) entry.tools = tools;
  if (toolHashes !== undefined) {
    if (!isRecord(toolHashes)) return '"toolHashes" is not an object';
    const pins: [string, string][] = [];
    for (const [name, pin] of Object.entries(toolHashes)) {
      if (typeof pin !== 'string') return '"toolHashes" holds a value that is not a string';
      pins.push([name, pin]);
    }
    entry.toolHashes = Object.fromEntries(pins);
  }
  return entry;
}

/**
 * Reads a stored value as an MCP entry. A malformed value counts as absent (the server will be
 * asked about again, which is the safe side), and the logger says why.
 * @param value - what {@link TrustStore.get} returned
 * @param options - `logger` for the warning, `key` to name the entry in it
 * @returns a fresh entry with only the known fields, or `undefined`
 */
export function readMcpTrustEntry(
  value: unknown,
  options: { logger?: TrustStoreLogger | undefined; key?: string } = {},
): McpTrustEntry | undefined {
  if (value === undefined) return undefined;
  const result = check(value);
  if (typeof result !== 'string') return result;
  log(
    options.logger,
    'warn',
    `the trust entry${options.key === undefined ? '' : ` ${quote(options.key)}`} is not a valid ` +
      `MCP entry (${result}): it is ignored, and the server will be asked about again`,
  );
  return undefined;
}

/**
 * Reads the MCP entry under `key`, warning through the store's logger when it is malformed.
 * @param store - a {@link TrustStore} or a {@link TrustStoreLike}
 * @param key - from {@link mcpTrustKey}
 * @returns the entry, or `undefined` when absent or malformed
 * @throws what `store.get` throws (an unusable key, an unreadable file)
 */
export async function getMcpTrustEntry(
  store: TrustStoreLike,
  key: string,
): Promise<McpTrustEntry | undefined> {
  return readMcpTrustEntry(await store.get(key), { logger: store.logger, key });
}
