import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  ancestors,
  depth,
  isDirectory,
  isWithin,
  nearestExisting,
  resolveExisting,
} from './path-utils.js';

/**
 * What each credential path is, for when it does not exist yet (see {@link HiddenPath}'s `guard`):
 * - `folder`, `file`: an empty read-only folder or an empty file keeps it from being created.
 * - `file, no placeholder`: the tool also reads another file under another name, and an empty
 *   placeholder would change which one it reads (cargo prefers `credentials` to
 *   `credentials.toml` when both exist, and warns about it on every command). Only its folder is
 *   kept from being created, when that is missing too.
 */
type CredentialKind = 'folder' | 'file' | 'file, no placeholder';

/**
 * The one list of credential paths under the user's home folder, with what each one is. The
 * order is the order of {@link HIDDEN_HOME_PATHS}.
 */
const HOME_CREDENTIALS: Readonly<Record<string, CredentialKind>> = Object.freeze({
  // Keys and tokens of ssh, AWS, gpg, the GitHub CLI, netrc, npm and Docker.
  '.ssh': 'folder',
  '.aws': 'folder',
  '.gnupg': 'folder',
  '.config/gh': 'folder',
  '.netrc': 'file',
  '.npmrc': 'file',
  '.docker/config.json': 'file',
  // Cloud and cluster credentials.
  '.config/gcloud': 'folder',
  '.kube': 'folder',
  '.azure': 'folder',
  // Package registry and git credential stores.
  '.git-credentials': 'file',
  '.config/git/credentials': 'file',
  '.pypirc': 'file',
  '.cargo/credentials.toml': 'file, no placeholder',
  '.cargo/credentials': 'file, no placeholder',
  // Password managers and the Secret Service keyrings (GNOME, KDE) that the OS keychain of
  // Linux keeps on disk (where a token store such as @napi-rs/keyring puts tokens).
  '.password-store': 'folder',
  '.local/share/keyrings': 'folder',
  '.local/share/kwalletd': 'folder',
  // Other MCP clients' server lists, which carry tokens in their env (the tool-poisoning
  // write-ups exfiltrate Cursor's).
  '.cursor/mcp.json': 'file',
  '.claude.json': 'file',
  '.config/Claude/claude_desktop_config.json': 'file',
  '.config/Code/User/mcp.json': 'file',
  '.gemini/settings.json': 'file',
  '.codex/config.toml': 'file',
  // Claude Code's and Codex's own sign-ins, and Docker's legacy credentials file.
  '.claude/.credentials.json': 'file',
  '.codex/auth.json': 'file',
  '.dockercfg': 'file',
  // Shell and REPL histories: commands typed with a token or password in them.
  '.bash_history': 'file',
  '.zsh_history': 'file',
  '.sh_history': 'file',
  '.local/share/fish/fish_history': 'file',
  '.python_history': 'file',
  '.node_repl_history': 'file',
  '.psql_history': 'file',
  '.mysql_history': 'file',
  '.sqlite_history': 'file',
  '.lesshst': 'file',
});

/**
 * Credential files and folders, relative to the user's home folder, that a sandboxed server
 * never sees (besides Garuda's own `garudaHome`): keys, cloud, cluster and registry credentials,
 * git credential stores, password stores and keyrings, other MCP clients' server lists, and
 * shell and REPL histories. On Linux a folder is replaced by an empty read-only one and a file by
 * an empty one; on macOS reads and writes are denied. Where the server may write the home folder
 * (the root or a write path is or contains it), a missing one cannot be created either.
 *
 * @example
 * ```ts
 * HIDDEN_HOME_PATHS.includes('.ssh'); // true
 * ```
 */
export const HIDDEN_HOME_PATHS: readonly string[] = Object.freeze(Object.keys(HOME_CREDENTIALS));

/**
 * Credential files of the home folder at places only macOS has, hidden by the Seatbelt profile
 * besides {@link HIDDEN_HOME_PATHS}: where Claude Desktop and VS Code keep their MCP server lists
 * on macOS (the list above names their Linux places). A read path does not reveal them. @internal
 */
export const HIDDEN_MACOS_HOME_PATHS: readonly string[] = Object.freeze([
  'Library/Application Support/Claude/claude_desktop_config.json',
  'Library/Application Support/Code/User/mcp.json',
]);

/**
 * Places on Linux that hold Unix sockets which would let a server act outside the sandbox: the
 * per-user runtime folders (session D-Bus, `systemd --user`, gpg and ssh agents), the system
 * D-Bus, systemd's private socket, and container and VM engines (Docker, containerd, Podman,
 * CRI-O, snapd, libvirt). A read-only mount does not stop `connect()` to a socket, and a private
 * network namespace does not cover sockets on the file system, so they are hidden like credential
 * folders. This is a list of known places, not a filter: any other socket on the file system
 * stays reachable (no seccomp filter). On macOS, Unix sockets are network operations and are
 * denied by the profile instead.
 *
 * @example
 * ```ts
 * HIDDEN_SYSTEM_PATHS.includes('/run/docker.sock'); // true
 * ```
 */
export const HIDDEN_SYSTEM_PATHS: readonly string[] = Object.freeze([
  '/run/user',
  '/run/dbus',
  '/run/systemd/private',
  '/run/docker.sock',
  '/run/docker',
  '/var/run/docker.sock',
  '/run/containerd',
  '/run/podman',
  '/run/crio',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/run/libvirt',
]);

/**
 * One path to hide. `missing`: it does not exist (yet). @internal
 *
 * - `list`: where it comes from: `garudaHome`, the credential paths under the home folder
 *   (`home`), or the Linux socket places (`system`). Only a `home` one can be shown to a server
 *   (a read path that names it).
 * - `guard`: for a missing credential path, the placeholder that would keep it from being
 *   created where the server may write (Linux; only the bubblewrap plan decides whether that is
 *   so): the path itself as an empty folder or file, or, for a file whose folder is missing too,
 *   that folder (an empty folder is less surprising on this machine than an empty config file).
 *   `existing` is the nearest existing folder above it, a real path. Absent when nothing fits:
 *   something above it is a file, or the home folder does not exist.
 * - `links`: the symbolic links on the way to the path (or the path itself), each named by its
 *   real folder and its name. A server that may write such a folder could replace the link.
 */
export interface HiddenPath {
  readonly path: string;
  readonly type: 'directory' | 'file' | 'missing';
  readonly list: 'garudaHome' | 'home' | 'system';
  readonly guard?: {
    readonly path: string;
    readonly type: 'directory' | 'file';
    readonly existing: string;
  };
  readonly links: readonly string[];
}

/** The symbolic links at or above `file`, each as its real folder plus its name. */
function linksOnTheWay(file: string): string[] {
  const links: string[] = [];
  for (const step of [...ancestors(file), file]) {
    let isLink: boolean;
    try {
      isLink = lstatSync(step).isSymbolicLink();
    } catch {
      break; // Nothing exists below a missing step.
    }
    if (isLink) links.push(path.join(resolveExisting(path.dirname(step)), path.basename(step)));
  }
  return links;
}

function guardFor(
  real: string,
  missing: readonly string[],
  kind: CredentialKind,
): HiddenPath['guard'] {
  if (missing.length === 0 || !isDirectory(real)) return undefined;
  const file = path.join(real, ...missing);
  if (kind === 'folder') return { path: file, type: 'directory', existing: real };
  if (missing.length > 1) return { path: path.dirname(file), type: 'directory', existing: real };
  return kind === 'file' ? { path: file, type: 'file', existing: real } : undefined;
}

function describeHidden(
  file: string,
  kind: CredentialKind | undefined,
  mayGuard: boolean,
  list: HiddenPath['list'],
): HiddenPath | undefined {
  const links = kind === undefined ? [] : linksOnTheWay(file);
  const missing = (): HiddenPath | undefined => {
    if (kind === undefined) return undefined;
    const { real, missing: names } = nearestExisting(file);
    const guard = mayGuard ? guardFor(real, names, kind) : undefined;
    return {
      path: resolveExisting(file),
      type: 'missing',
      list,
      links,
      ...(guard ? { guard } : {}),
    };
  };
  try {
    lstatSync(file);
  } catch {
    return missing();
  }
  let real: string;
  let isDir: boolean;
  try {
    // A link to a credential folder is hidden at its target: the link itself stays visible
    // inside, and leads to the hidden target.
    real = realpathSync.native(file);
    isDir = statSync(real).isDirectory();
  } catch {
    // A dangling link: nothing to read behind it.
    return missing();
  }
  return { path: real, type: isDir ? 'directory' : 'file', list, links };
}

/**
 * The paths to hide for a policy: `garudaHome` and the {@link HIDDEN_HOME_PATHS} under `home`,
 * existing or not, on Linux the {@link HIDDEN_SYSTEM_PATHS} that exist, and on macOS the
 * {@link HIDDEN_MACOS_HOME_PATHS}. Real paths (as far as
 * they exist), without duplicates (the first list wins: `garudaHome`, then the home folder's),
 * parents before children, and without paths inside another hidden folder (already hidden), or
 * with them when `nested` is set (for what a revealed folder must hide again). @internal
 *
 * @param policy - The home folder and `garudaHome` (real or not: they are resolved here).
 * @param options - `system`: include the Linux socket places; `macos`: include the macOS-only
 *   credential places; `nested`: keep the paths inside another hidden folder.
 * @returns The paths to hide.
 */
export function hiddenPaths(
  policy: { readonly home: string; readonly garudaHome: string },
  options: { readonly system: boolean; readonly macos?: boolean; readonly nested?: boolean },
): HiddenPath[] {
  // No home folder, no credentials in it, and nothing to make placeholders in.
  const homeExists = isDirectory(policy.home);
  const wanted: [string, CredentialKind | undefined, boolean, HiddenPath['list']][] = [
    [policy.garudaHome, 'folder', true, 'garudaHome'],
    ...Object.entries(HOME_CREDENTIALS).map(
      ([relative, kind]): [string, CredentialKind, boolean, 'home'] => [
        path.join(policy.home, relative),
        kind,
        homeExists,
        'home',
      ],
    ),
    // Seatbelt needs no placeholder (its rules name paths), so these never have a guard.
    ...(options.macos === true
      ? HIDDEN_MACOS_HOME_PATHS.map((relative): [string, CredentialKind, boolean, 'home'] => [
          path.join(policy.home, relative),
          'file',
          false,
          'home',
        ])
      : []),
    ...(options.system
      ? HIDDEN_SYSTEM_PATHS.map((file): [string, undefined, boolean, 'system'] => [
          file,
          undefined,
          false,
          'system',
        ])
      : []),
  ];
  const found = new Map<string, HiddenPath>();
  for (const [file, kind, mayGuard, list] of wanted) {
    const hidden = describeHidden(file, kind, mayGuard, list);
    if (hidden && !found.has(hidden.path)) found.set(hidden.path, hidden);
  }
  const sorted = [...found.values()].sort((a, b) => depth(a.path) - depth(b.path));
  if (options.nested === true) return sorted;
  const kept: HiddenPath[] = [];
  for (const hidden of sorted) {
    const covered = kept.some(
      (outer) =>
        outer.type !== 'file' && hidden.path !== outer.path && isWithin(hidden.path, outer.path),
    );
    if (!covered) kept.push(hidden);
  }
  return kept;
}
