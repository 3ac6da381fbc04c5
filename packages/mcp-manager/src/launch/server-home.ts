// Each local server's own home: a private, persistent, writable folder (mode 0700) with `cache`,
// `data`, `config` and `state` inside, as Flatpak gives each app `~/.var/app/<id>`. The sandbox
// binds it read-write, points the XDG base folders at it, shows its `cache` at `~/.cache` too
// (Linux) and hides the other servers' homes; the user's home stays read-only.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { SERVER_HOME_VARIABLE } from '@garuda/internal';
import type { ServerSource } from '@garuda/mcp-config';
import { isWithin } from './paths.js';
import { serverPolicy } from '../start/server-policy.js';
import type { StatusRow } from '../types.js';

/** The folders inside a server's home, and the XDG variable that points at each. */
export const SERVER_HOME_FOLDERS = {
  XDG_CACHE_HOME: 'cache',
  XDG_DATA_HOME: 'data',
  XDG_CONFIG_HOME: 'config',
  XDG_STATE_HOME: 'state',
} as const;

/** How a server names its home: `${GARUDA_SERVER_HOME}` in its env and args. */
const PLACEHOLDER = `\${${SERVER_HOME_VARIABLE}}`;

/** The short hash of a project root that tells one project's server home from another's. */
function projectKey(root: string): string {
  return createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 12);
}

/**
 * Where a local server's own home is: `<dir>/<name>` for a user's server,
 * `<dir>/<name>.<hash12>` for a project's (the first 12 hex digits of the SHA-256 of the
 * project root), so the same name in two projects gets two homes. Nothing is created or read:
 * a host can show it (`garuda-mcp get`) or remove it (`garuda-mcp remove --delete-home`)
 * without a manager.
 *
 * @example
 * ```ts
 * serverHomeOf('/home/ada/.local/share/garuda-mcp/servers', { name: 'memory', source: 'user' }, root);
 * // '/home/ada/.local/share/garuda-mcp/servers/memory'
 * ```
 *
 * @param dir - The manager's `serverHomesDir`.
 * @param server - The server's name and where it was configured.
 * @param root - The project root (absolute).
 * @throws When the name would lead outside `dir` (names are checked on load; this is a guard).
 */
export function serverHomeOf(
  dir: string,
  server: { readonly name: string; readonly source: ServerSource },
  root: string,
): string {
  const refused = () =>
    new Error(`the server name ${JSON.stringify(server.name)} cannot name a folder`);
  if (server.name.length === 0 || /[/\\\0]/.test(server.name)) throw refused();
  const leaf =
    serverPolicy(server, root).home === 'by-project'
      ? `${server.name}.${projectKey(root)}`
      : server.name;
  const home = path.resolve(dir, leaf);
  if (path.dirname(home) !== path.resolve(dir) || !isWithin(home, dir)) throw refused();
  return home;
}

/** Creates `dir` and any missing parent, each made 0700 (a parent that exists keeps its mode). */
function ensurePrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by the umask: set it again on the folders this call made.
  if (created !== undefined) {
    let at = dir;
    for (;;) {
      chmodSync(at, 0o700);
      if (at === created || path.dirname(at) === at) break;
      at = path.dirname(at);
    }
  }
  chmodSync(dir, 0o700);
}

/**
 * Creates a server's home (0700) with `cache`, `data`, `config` and `state` inside (each 0700),
 * where missing. @internal
 *
 * @param home - From {@link serverHomeOf}.
 * @throws When a folder cannot be created.
 */
export function ensureServerHome(home: string): void {
  ensurePrivateDir(home);
  for (const sub of Object.values(SERVER_HOME_FOLDERS)) ensurePrivateDir(path.join(home, sub));
}

/** The XDG variables that point into a server's home. @internal */
export function serverHomeEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, sub] of Object.entries(SERVER_HOME_FOLDERS)) env[name] = path.join(home, sub);
  return env;
}

/** `value` with every `${GARUDA_SERVER_HOME}` replaced by the server's home. @internal */
export function withServerHome(value: string, home: string): string {
  return value.includes(PLACEHOLDER) ? value.split(PLACEHOLDER).join(home) : value;
}

/** A server's home as its start uses it. @internal */
export interface ServerHomeUse {
  /** The home folder (created, 0700). */
  readonly dir: string;
  /** Its `cache` folder: in the sandbox also shown at `~/.cache` (Linux). */
  readonly cache: string;
  /** The XDG variables that point into it: in the sandbox only, else none. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Creates a local server's home and says how its start uses it. The XDG variables are set in
 * the sandbox only: there the user's home is read-only, so a server that writes its cache or
 * data under `~/.cache` or `~/.local/share` could not run without them. A server started
 * without a sandbox runs with the user's own rights, as from their shell: it keeps writing
 * where it always does (moving its XDG folders would hide the settings and sign-ins it already
 * has there), and reaches its home through `${GARUDA_SERVER_HOME}` only. @internal
 *
 * @param server - The server's name and source.
 * @param where - The manager's `serverHomesDir` and the project root.
 * @param sandboxed - Whether it runs in the OS sandbox.
 * @throws When the folder cannot be created.
 */
export function prepareServerHome(
  server: { readonly name: string; readonly source: ServerSource },
  where: { readonly serverHomesDir: string; readonly root: string },
  sandboxed: boolean,
): ServerHomeUse {
  const dir = serverHomeOf(where.serverHomesDir, server, where.root);
  ensureServerHome(dir);
  return {
    dir,
    cache: path.join(dir, SERVER_HOME_FOLDERS.XDG_CACHE_HOME),
    env: sandboxed ? serverHomeEnv(dir) : {},
  };
}

/** Status rows with each local server's home. @internal */
export function withHomes(
  rows: readonly StatusRow[],
  where: { readonly serverHomesDir: string; readonly root: string },
): StatusRow[] {
  return rows.map((row) => {
    if (row.network.kind !== 'local') return row;
    try {
      return { ...row, home: serverHomeOf(where.serverHomesDir, row, where.root) };
    } catch {
      return row; // a name no folder can have: it never started
    }
  });
}
