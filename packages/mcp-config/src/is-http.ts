import type { RemoteServerDef, RemoteServerEntry, ServerDef, ServerEntry } from './server-types.js';

/**
 * Whether a server definition (validated, or an entry as written) is a remote server reached
 * over HTTP, rather than a local program.
 *
 * @param def - A `ServerDef` from `loadConfig`, or a `ServerEntry` as written in a file.
 * @returns `true` for a remote server (one with `url`).
 * @throws Never.
 * @example
 * ```ts
 * isHttp({ url: 'https://mcp.example.com/mcp' }); // true
 * isHttp({ command: 'github-mcp-server' }); // false
 * ```
 */
export function isHttp(def: ServerDef | ServerEntry): def is RemoteServerDef | RemoteServerEntry {
  if (typeof def !== 'object' || def === null) return false;
  if ('kind' in def) return def.kind === 'remote';
  return typeof (def as { url?: unknown }).url === 'string';
}
