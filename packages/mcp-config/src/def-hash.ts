import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import { invalidArgument } from './errors.js';
import { isHttp } from './is-http.js';
import type { ServerDef, ServerEntry } from './server-types.js';

// Sorted keys at every level; anything that is not plain JSON data throws rather than being
// hashed in some lossy form.
const canonicalJson = configure({ deterministic: true, strict: true, circularValue: Error });

function stringList(value: unknown, what: string): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw invalidArgument(`defHash: ${what} must be a list of strings`);
  }
  return value as readonly string[];
}

function stringRecord(value: unknown, what: string): Readonly<Record<string, string>> {
  if (value === undefined) return {};
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !Object.values(value).every((v) => typeof v === 'string')
  ) {
    throw invalidArgument(`defHash: ${what} must be an object of string values`);
  }
  return value as Readonly<Record<string, string>>;
}

/**
 * The pinning hash of a server definition: SHA-256 (hex) of canonical JSON (keys sorted at every
 * level) of exactly what decides what runs, or where data goes, and with which secrets.
 *
 * - Local: `{ command, args, cwd, env, network, writePaths }`, plus `readPaths` when it is not
 *   empty, env **as written** (`${NAME}` not expanded, so secrets never enter the hash).
 *   Defaults are filled in first (`args: []`, `env: {}`, `cwd: null`, `network: false`,
 *   `writePaths: []`), so leaving a field out and writing its default hash the same. Read paths
 *   are in it because one may show the server a credential folder the sandbox hides (`~/.kube`);
 *   an empty list is left out, so a definition without read paths keeps the hash it had before
 *   they existed (and its consent).
 * - Remote: `{ type: "http", url, headers }`, url and headers as written. The headers are in
 *   it because a repository that adds `"Authorization": "Bearer ${GITHUB_TOKEN}"` to its server
 *   would send your token to its URL: that change must ask for consent again.
 *
 * Both: `capabilities` (sorted) when declared, and `batching` when it is `path_scoped`. They
 * are not what the server can do, but what its calls may do without asking: a repository that
 * declares its server read-only (so that a `balanced` approval mode runs its calls at once) must
 * ask for consent again. Left out when not set, so a definition keeps the hash it had before
 * these fields existed.
 *
 * `timeoutMs`, `startTimeoutMs`, `enabled`, `oauth` and the tool filters, exposure and result size are left out:
 * changing them does not change what the server can do with your machine or your secrets.
 *
 * @param def - A `ServerDef` from `loadConfig`, or a `ServerEntry` as written in a file.
 * @returns 64 lowercase hex characters.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` when `def` has neither a `command` nor a `url` string or
 *   a field has the wrong type (a programming error).
 * @example
 * ```ts
 * defHash({ command: 'github-mcp-server', args: ['stdio'] }) ===
 *   defHash({ command: 'github-mcp-server', args: ['stdio'], network: false, timeoutMs: 5000 }); // true
 * ```
 */
export function defHash(def: ServerDef | ServerEntry): string {
  if (typeof def !== 'object' || def === null) {
    throw invalidArgument('defHash: def must be a server definition object');
  }
  const d = def as unknown as Record<string, unknown>;
  if (d.command !== undefined && d.url !== undefined) {
    throw invalidArgument('defHash: def has both command and url; a server is one or the other');
  }
  let canonical: Record<string, unknown>;
  if (isHttp(def)) {
    if (typeof d.url !== 'string') throw invalidArgument('defHash: url must be a string');
    canonical = { type: 'http', url: d.url, headers: stringRecord(d.headers, 'headers') };
  } else {
    if (typeof d.command !== 'string') {
      throw invalidArgument('defHash: def needs a command (local) or a url (remote) string');
    }
    if (d.cwd !== undefined && typeof d.cwd !== 'string') {
      throw invalidArgument('defHash: cwd must be a string');
    }
    if (d.network !== undefined && typeof d.network !== 'boolean') {
      throw invalidArgument('defHash: network must be true or false');
    }
    const readPaths = stringList(d.readPaths, 'readPaths');
    canonical = {
      command: d.command,
      args: stringList(d.args, 'args'),
      cwd: d.cwd ?? null,
      env: stringRecord(d.env, 'env'),
      network: d.network ?? false,
      writePaths: stringList(d.writePaths, 'writePaths'),
      ...(readPaths.length > 0 ? { readPaths } : {}),
    };
  }
  const capabilities =
    d.capabilities === undefined ? undefined : stringList(d.capabilities, 'capabilities');
  if (capabilities !== undefined) canonical.capabilities = [...new Set(capabilities)].sort();
  if (d.batching !== undefined && d.batching !== 'serialized' && d.batching !== 'path_scoped') {
    throw invalidArgument('defHash: batching must be "serialized" or "path_scoped"');
  }
  if (d.batching === 'path_scoped') canonical.batching = 'path_scoped';
  const json = canonicalJson(canonical);
  return createHash('sha256').update(json, 'utf8').digest('hex');
}
