// Remembered "always allow this tool" answers, each bound to what the user approved: the
// server's definition, the capabilities the user declared for it, and the tool's full input
// schema. A grant whose binding no longer matches is not used, and says what changed, so a
// privilege change in the config or a new schema from the server asks again.
import { isRecord, kindOf } from '@garuda/internal';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import { invalidKey, invalidValue } from './errors.js';
import { MCP_TRUST_PREFIX } from './mcp-trust-key.js';
import type { StoredValue } from './json-value.js';
import type { TrustStoreLike } from './trust-store-like.js';

/** What every grant key starts with (next to, never under, {@link MCP_TRUST_PREFIX}). */
export const MCP_GRANT_PREFIX = 'mcp-grant::';

/** The most grants kept for one server; an older one gives way to a new one. */
export const MAX_GRANTS_PER_SERVER = 500;

/** What a grant is bound to. */
export interface ToolGrantBinding {
  /** The server's definition hash (`defHash` of `@garuda/mcp-config`). */
  readonly def: string;
  /** The capabilities the user declared for the server; `undefined` when undeclared. */
  readonly capabilities: readonly string[] | undefined;
  /** The tool's input schema as the server listed it (hashed here, canonical JSON). */
  readonly inputSchema: unknown;
}

/** A grant as stored (a type, not an interface, so that it is a JSON value). */
export type ToolGrant = {
  readonly def: string;
  /** Sorted; `null` when undeclared. */
  readonly capabilities: readonly string[] | null;
  /** SHA-256 of the input schema's canonical JSON. */
  readonly schema: string;
  /** When it was given, ISO 8601 UTC. */
  readonly at: string;
};

/** The stored value of a server's grants. */
function grantsValue(grants: Iterable<readonly [string, ToolGrant]>): StoredValue {
  // fromEntries defines own properties: a tool named "__proto__" stays an ordinary key.
  return { tools: Object.fromEntries(grants) };
}

/** What {@link checkToolGrant} found. */
export type ToolGrantCheck =
  | { readonly state: 'granted'; readonly at: string }
  | { readonly state: 'none' }
  /** A grant exists, but for another binding: `changed` says what differs. */
  | {
      readonly state: 'stale';
      readonly changed: readonly ('capabilities' | 'definition' | 'schema')[];
    };

/**
 * The grant key of a server, from its trust key: `mcp::user::fx` → `mcp-grant::user::fx`.
 *
 * @param trustKey - From `mcpTrustKey`.
 * @returns The key its grants are kept under.
 * @throws {@link TrustStoreError} (`TRUST_INVALID_KEY`) when `trustKey` is not an MCP trust key.
 */
export function mcpGrantKey(trustKey: string): string {
  if (typeof trustKey !== 'string' || !trustKey.startsWith(MCP_TRUST_PREFIX)) {
    throw invalidKey(`an MCP trust key (from mcpTrustKey) is needed, got ${kindOf(trustKey)}`);
  }
  return `${MCP_GRANT_PREFIX}${trustKey.slice(MCP_TRUST_PREFIX.length)}`;
}

/** SHA-256 of a tool's input schema as canonical JSON (key order does not count). */
export function schemaHash(inputSchema: unknown): string {
  return sha256Hex(canonicalJson(inputSchema ?? null));
}

function sortedCapabilities(capabilities: readonly string[] | undefined): string[] | null {
  if (capabilities === undefined) return null;
  if (!Array.isArray(capabilities) || capabilities.some((c) => typeof c !== 'string')) {
    throw invalidValue(`"capabilities" must be a list of strings, got ${kindOf(capabilities)}`);
  }
  return [...new Set(capabilities)].sort();
}

function readGrant(value: unknown): ToolGrant | undefined {
  if (!isRecord(value)) return undefined;
  const { def, capabilities, schema, at } = value;
  if (typeof def !== 'string' || typeof schema !== 'string' || typeof at !== 'string') {
    return undefined;
  }
  if (capabilities === null) return { def, capabilities: null, schema, at };
  if (!Array.isArray(capabilities) || capabilities.some((c) => typeof c !== 'string')) {
    return undefined;
  }
  return { def, capabilities: capabilities as string[], schema, at };
}

/**
 * The grants of one server as stored, by tool name. A malformed value or grant counts as absent
 * (the tool asks again: the safe side).
 *
 * @param value - What the store holds under {@link mcpGrantKey}.
 * @returns Tool name → grant (a map, so any tool name is a plain key).
 */
export function readToolGrants(value: unknown): Map<string, ToolGrant> {
  const grants = new Map<string, ToolGrant>();
  if (!isRecord(value) || !isRecord(value.tools)) return grants;
  for (const [name, raw] of Object.entries(value.tools)) {
    const grant = readGrant(raw);
    if (grant !== undefined) grants.set(name, grant);
  }
  return grants;
}

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/**
 * Whether the user's "always allow" for one tool still holds: the grant must have been given
 * for this very definition, these declared capabilities and this input schema.
 *
 * @param store - The trust store.
 * @param trustKey - The server's trust key (`mcpTrustKey`).
 * @param tool - The tool's name as the server lists it.
 * @param binding - What the call is bound to now.
 * @returns `granted`, `none`, or `stale` with what changed.
 * @throws What `store.get` throws.
 */
export async function checkToolGrant(
  store: TrustStoreLike,
  trustKey: string,
  tool: string,
  binding: ToolGrantBinding,
): Promise<ToolGrantCheck> {
  const grant = readToolGrants(await store.get(mcpGrantKey(trustKey))).get(tool);
  if (grant === undefined) return { state: 'none' };
  const changed: ('capabilities' | 'definition' | 'schema')[] = [];
  if (!sameList(grant.capabilities, sortedCapabilities(binding.capabilities))) {
    changed.push('capabilities');
  } else if (grant.def !== binding.def) {
    // Declared capabilities are part of the definition hash: name the more telling one only.
    changed.push('definition');
  }
  if (grant.schema !== schemaHash(binding.inputSchema)) changed.push('schema');
  return changed.length === 0 ? { state: 'granted', at: grant.at } : { state: 'stale', changed };
}

/**
 * Remembers "always allow this tool", bound to `binding` (replacing an older grant of the tool).
 * At most {@link MAX_GRANTS_PER_SERVER} per server: the oldest gives way.
 *
 * @param store - The trust store.
 * @param trustKey - The server's trust key.
 * @param tool - The tool's name as the server lists it.
 * @param binding - The definition, declared capabilities and input schema the user approved.
 * @returns The grant as stored.
 * @throws What `store.update` throws; {@link TrustStoreError} for a bad binding.
 */
export async function rememberToolGrant(
  store: TrustStoreLike,
  trustKey: string,
  tool: string,
  binding: ToolGrantBinding,
): Promise<ToolGrant> {
  if (typeof tool !== 'string' || tool === '') {
    throw invalidValue(`the tool name must be a non-empty string, got ${kindOf(tool)}`);
  }
  if (typeof binding?.def !== 'string' || binding.def === '') {
    throw invalidValue(`"def" must be a non-empty string, got ${kindOf(binding?.def)}`);
  }
  const date: unknown = typeof store.now === 'function' ? store.now() : new Date();
  const at = date instanceof Date && !Number.isNaN(date.getTime()) ? date : new Date();
  const grant: ToolGrant = {
    def: binding.def,
    capabilities: sortedCapabilities(binding.capabilities),
    schema: schemaHash(binding.inputSchema),
    at: at.toISOString(),
  };
  await store.update(mcpGrantKey(trustKey), (current) => {
    const grants = readToolGrants(current);
    grants.delete(tool);
    const kept = [...grants].sort((a, b) => (a[1].at < b[1].at ? -1 : a[1].at > b[1].at ? 1 : 0));
    const tools = kept.slice(Math.max(0, kept.length - (MAX_GRANTS_PER_SERVER - 1)));
    tools.push([tool, grant]);
    return grantsValue(tools);
  });
  return grant;
}

/**
 * Forgets the grants of one server (all of them, or one tool's).
 *
 * @param store - The trust store.
 * @param trustKey - The server's trust key.
 * @param tool - Only this tool's grant; every grant of the server when absent.
 * @returns Whether anything was forgotten.
 */
export async function forgetToolGrants(
  store: TrustStoreLike,
  trustKey: string,
  tool?: string,
): Promise<boolean> {
  const key = mcpGrantKey(trustKey);
  if (tool === undefined) return store.delete(key);
  let removed = false;
  await store.update(key, (current) => {
    const grants = readToolGrants(current);
    removed = grants.delete(tool);
    if (!removed) return current;
    return grants.size === 0 ? undefined : grantsValue(grants);
  });
  return removed;
}
