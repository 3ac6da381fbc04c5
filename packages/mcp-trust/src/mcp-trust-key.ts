import * as path from 'node:path';
import { sha256Hex } from './canonical-json.js';
import { kindOf } from '@garuda/internal';
import { invalidKey } from './errors.js';
import { validateKey } from './validate-key.js';

/** Whose configuration a server comes from: the person's own, or one project's. */
export type McpTrustScope = { kind: 'user' } | { kind: 'project'; root: string };

/** Every MCP key starts with this; other users of the store (hooks, commands) use other prefixes. */
export const MCP_TRUST_PREFIX = 'mcp::';

const USER = `${MCP_TRUST_PREFIX}user::`;
const PROJECT = `${MCP_TRUST_PREFIX}project::`;
const SEPARATOR = '::';
const HASHED = '#sha256-';
// Longer encoded roots are replaced by their hash so a key stays within MAX_KEY_LENGTH.
const MAX_ROOT_LENGTH = 600;

// "%" first (so the encoding can be undone), ":" (so the root can never hold the separator), and
// controls (which keys may not hold). Ordinary paths stay readable in `trust list`.
function encodeRoot(root: string): string {
  const encoded = root.replace(
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    /[%:\u0000-\u001f\u007f-\u009f]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  // A resolved root starts with "/" or a drive letter, never "#", so the two forms cannot meet.
  return encoded.length > MAX_ROOT_LENGTH ? `${HASHED}${sha256Hex(root)}` : encoded;
}

function decodeRoot(encoded: string): string | undefined {
  if (encoded.startsWith(HASHED)) return undefined;
  return encoded.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

function checkScope(scope: unknown): McpTrustScope {
  if (typeof scope === 'object' && scope !== null) {
    const { kind, root } = scope as { kind?: unknown; root?: unknown };
    if (kind === 'user') return { kind };
    if (kind === 'project' && typeof root === 'string' && root !== '' && !root.includes('\0')) {
      return { kind, root };
    }
  }
  throw invalidKey(
    `the scope must be { kind: 'user' } or { kind: 'project', root: '<folder>' }, got ${kindOf(scope)} of another shape`,
  );
}

/**
 * The key prefix shared by the MCP entries of one scope, or of all scopes. Use it with
 * `store.entries(prefix)` to list, or to forget, one scope's servers.
 * @param scope - `{ kind: 'user' }`, `{ kind: 'project', root }`, or nothing for every MCP entry
 * @returns a prefix that only that scope's keys start with
 * @throws {@link TrustStoreError} `TRUST_INVALID_KEY` for a malformed scope
 */
export function mcpTrustPrefix(scope?: McpTrustScope): string {
  if (scope === undefined) return MCP_TRUST_PREFIX;
  const checked = checkScope(scope);
  if (checked.kind === 'user') return USER;
  return `${PROJECT}${encodeRoot(path.resolve(checked.root))}${SEPARATOR}`;
}

/**
 * The store key of one MCP server. User servers and each project's servers get distinct keys:
 * the root is made absolute and encoded so that no `::`, `%` or odd character in a path or a
 * name can make a project's key equal a user key or another project's key.
 * @param scope - `{ kind: 'user' }` or `{ kind: 'project', root }` (root resolved with `path.resolve`)
 * @param name - the server's name in its configuration
 * @returns for example `mcp::user::github` or `mcp::project::/home/ana/app::fix`
 * @throws {@link TrustStoreError} `TRUST_INVALID_KEY` for a malformed scope, an empty name or a name with control
 *   characters
 * @example
 * ```ts
 * mcpTrustKey({ kind: 'project', root: '.' }, 'fix'); // 'mcp::project::/current/folder::fix'
 * ```
 */
export function mcpTrustKey(scope: McpTrustScope, name: string): string {
  const prefix = mcpTrustPrefix(checkScope(scope));
  if (typeof name !== 'string' || name === '') {
    throw invalidKey(
      `the server name must be a non-empty string, got ${typeof name === 'string' ? 'an empty string' : kindOf(name)}`,
    );
  }
  const key = `${prefix}${name}`;
  validateKey(key);
  return key;
}

/**
 * Splits an MCP key back into its scope and name, for example to show `trust list`.
 * @param key - a key from the store
 * @returns the scope and name, with `root` undefined when the root was too long and is kept as a
 *   hash; or `undefined` when `key` is not an MCP key
 */
export function parseMcpTrustKey(
  key: string,
):
  | { kind: 'user'; name: string }
  | { kind: 'project'; root: string | undefined; name: string }
  | undefined {
  if (typeof key !== 'string') return undefined;
  if (key.startsWith(USER)) {
    const name = key.slice(USER.length);
    return name === '' ? undefined : { kind: 'user', name };
  }
  if (!key.startsWith(PROJECT)) return undefined;
  const rest = key.slice(PROJECT.length);
  const at = rest.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const name = rest.slice(at + SEPARATOR.length);
  if (name === '') return undefined;
  return { kind: 'project', root: decodeRoot(rest.slice(0, at)), name };
}
