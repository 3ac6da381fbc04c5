import path from 'node:path';
import { invalidArgument } from './errors.js';
import { hostById } from './hosts/index.js';
import {
  IMPORT_CLIENTS,
  type ImportClient,
  type ImportLocationOptions,
  type ImportSourceFile,
} from './import-types.js';
import type { ServerSource } from './server-types.js';

type Paths = typeof path.posix;

/** Each client's files, as its descriptor names them (see the README for the list). */
function clientFiles(
  client: ImportClient,
  scope: ServerSource,
  at: { userHome: string; root: string; platform: string; appData: string; configHome: string },
  p: Paths,
): readonly string[] {
  // The folder where desktop apps keep their settings on this platform.
  const appFolder = (name: string): string =>
    at.platform === 'darwin'
      ? p.join(at.userHome, 'Library', 'Application Support', name)
      : at.platform === 'win32'
        ? p.join(at.appData, name)
        : p.join(at.configHome, name);
  return hostById(client).files(scope, { userHome: at.userHome, root: at.root, appFolder }, p);
}

function checkFolder(what: string, value: unknown, p: Paths): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.includes('\0') || !p.isAbsolute(value)) {
    throw invalidArgument(
      `importSourceFiles: ${what} must be an absolute folder path without NUL characters`,
    );
  }
}

/** The options checked, with defaults. @internal */
export function importLocations(options: ImportLocationOptions): {
  readonly userHome: string;
  readonly root: string;
  readonly platform: string;
  readonly clients: readonly ImportClient[];
  readonly scopes: readonly ServerSource[];
  readonly paths: Paths;
  readonly files: readonly ImportSourceFile[];
} {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('importSourceFiles: pass { userHome, root, platform }');
  }
  const { platform } = options;
  if (typeof platform !== 'string' || platform === '') {
    throw invalidArgument('importSourceFiles: platform must be a string such as process.platform');
  }
  // Windows paths are built with Windows rules whatever this machine is, so the list is the
  // same wherever it is computed.
  const p: Paths = platform === 'win32' ? (path.win32 as Paths) : path.posix;
  checkFolder('userHome', options.userHome, p);
  checkFolder('root', options.root, p);
  const userHome = p.normalize(options.userHome);
  const root = p.normalize(options.root);
  for (const key of ['appData', 'configHome'] as const) {
    if (options[key] !== undefined) checkFolder(key, options[key], p);
  }
  const appData = options.appData ?? p.join(userHome, 'AppData', 'Roaming');
  const configHome = options.configHome ?? p.join(userHome, '.config');

  const clients = options.clients ?? IMPORT_CLIENTS;
  if (!Array.isArray(clients) || clients.some((c) => !IMPORT_CLIENTS.includes(c))) {
    throw invalidArgument(
      `importSourceFiles: clients must be a list of ${IMPORT_CLIENTS.join(', ')}`,
    );
  }
  const scopes = options.scopes ?? ['user', 'project'];
  if (!Array.isArray(scopes) || scopes.some((s) => s !== 'user' && s !== 'project')) {
    throw invalidArgument('importSourceFiles: scopes must be a list of user, project');
  }

  const at = { userHome, root, platform, appData, configHome };
  const files: ImportSourceFile[] = [];
  const seen = new Set<string>();
  // User files first, as Garuda lists the user's servers first; then the project's. Within a
  // scope, clients in IMPORT_CLIENTS order. A path listed twice (a project whose root is the
  // home folder: `~/.cursor/mcp.json` is both) is read once, as the user's.
  for (const scope of ['user', 'project'] as const) {
    if (!scopes.includes(scope)) continue;
    for (const client of IMPORT_CLIENTS) {
      if (!clients.includes(client)) continue;
      for (const file of clientFiles(client, scope, at, p)) {
        if (seen.has(file)) continue;
        seen.add(file);
        files.push({ client, scope, file });
      }
    }
  }
  return { userHome, root, platform, clients, scopes, paths: p, files };
}

/**
 * The files where other MCP clients keep their servers, for this user, project and platform,
 * whether they exist or not. Pure: nothing is read.
 *
 * @param options - `userHome`, `root`, `platform`, and optionally `appData` (Windows),
 *   `configHome` (Linux), `clients` and `scopes` to narrow the list.
 * @returns The files in reading order: user files first, then the project's.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` when a folder is not an absolute path, or a client or
 *   scope is unknown.
 * @example
 * ```ts
 * importSourceFiles({ userHome: '/home/me', root: '/work/repo', platform: 'linux', clients: ['cursor'] });
 * // [{ client: 'cursor', scope: 'user', file: '/home/me/.cursor/mcp.json' },
 * //  { client: 'cursor', scope: 'project', file: '/work/repo/.cursor/mcp.json' }]
 * ```
 */
export function importSourceFiles(options: ImportLocationOptions): readonly ImportSourceFile[] {
  return importLocations(options).files;
}
