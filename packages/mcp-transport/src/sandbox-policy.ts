import { isRecord } from '@garuda/internal';
import { realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { InvalidPolicyError, quote } from './errors.js';
import { hiddenPathOf, neverShown } from './hidden-path-of.js';
import { isWithin } from './path-utils.js';

/**
 * What a sandboxed server may do. Paths are absolute paths on this machine; the caller passes
 * everything (this package reads no environment variables and no home folder by itself).
 *
 * @example
 * ```ts
 * const policy: SandboxPolicy = {
 *   root: '/home/ada/project',
 *   writePaths: [],
 *   network: false,
 *   env: { GITHUB_TOKEN: token },
 *   baseEnv: process.env,
 *   home: os.homedir(),
 *   garudaHome: path.join(os.homedir(), '.garuda'),
 *   tempDirs: [],
 * };
 * ```
 */
export interface SandboxPolicy {
  /** The project folder: writable (except `.garuda` and git's hooks and config), and the default working folder. Must exist. */
  readonly root: string;
  /** More files or folders the server may write (the config's `writePaths`). Each must exist. */
  readonly writePaths?: readonly string[];
  /** `true` gives the server the host's whole network (default `false`: no network at all). */
  readonly network?: boolean;
  /** The server's own environment variables, already expanded; they win over `baseEnv`. */
  readonly env?: Readonly<Record<string, string>>;
  /** The caller's environment (e.g. `process.env`): only the allowlist is taken from it. */
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  /** The user's home folder; the usual credential files under it are hidden. */
  readonly home: string;
  /** Garuda's own folder (e.g. `~/.garuda`, with tokens and trust): hidden. */
  readonly garudaHome: string;
  /**
   * Temp folders the server gets fresh and private, besides `/tmp` (Linux: an empty in-memory
   * folder each; macOS: writable, but shared with this machine). Each must exist.
   */
  readonly tempDirs?: readonly string[];
  /**
   * Files or folders the server may read although the sandbox would keep them from it, always
   * read-only. Each must exist.
   *
   * - **Under a temp folder** the sandbox replaces (Linux: `/tmp` and `tempDirs` are fresh and
   *   empty inside), e.g. a server installed under `/tmp`: bound read-only. Everything outside
   *   the temp and hidden paths is readable anyway.
   * - **At or inside a hidden credential path** of {@link HIDDEN_HOME_PATHS} (`~/.kube`,
   *   `~/.kube/config`, `~/.config/gcloud`): shown to this server, read-only, never writable
   *   (also inside the root or a write path). The user names it explicitly; a consent screen
   *   should say so. Only a path written at or inside the credential path reveals it, not a
   *   link elsewhere that leads into one. Hidden paths inside it (a credential folder linked
   *   into it) stay hidden.
   * - A read path that **holds** hidden paths (the home folder) shows none of them.
   * - `garudaHome` (tokens and trust) and the {@link HIDDEN_SYSTEM_PATHS} can never be shown: a
   *   read path at or inside them is an {@link InvalidPolicyError}.
   */
  readonly readPaths?: readonly string[];
  /** The server's working folder (default `root`). Must exist and be visible inside. */
  readonly cwd?: string;
  /** The platform the server runs on (default `process.platform`). */
  readonly platform?: NodeJS.Platform;
  /**
   * The Unix socket of a container engine (e.g. `/var/run/docker.sock`) that a server which is a
   * container engine's command line (`docker run -i …`) may connect to, although it lies in a
   * hidden socket place: **whoever reaches it can run anything as root on this machine**, so
   * give it only to the engine's own command, whose options you have checked (the engine, not
   * the sandbox, then isolates the container). Shown read-only (connecting needs no write). Not
   * under the home folder or `garudaHome`. When nothing is there (no engine running), nothing is
   * shown; a file that is not a socket is an {@link InvalidPolicyError}.
   */
  readonly engineSocket?: string;
  /**
   * The server's own home, as a manager gives each local server one (a private, persistent
   * folder): writable, like a write path, and the only one of its kind the server sees.
   *
   * - `dir`: the server's home. Must exist.
   * - `homesDir`: the folder that holds every server's home (`dir` lies inside it). The other
   *   homes in it are hidden, as credential paths are (one server's browser profile or data is
   *   not another's to read). Linux: an empty read-only folder with `dir` inside; macOS: deny
   *   rules, with `dir` allowed after them.
   * - `cache` (optional): a folder inside `dir`, shown at `<home>/.cache` instead of the user's
   *   own cache, writable: a program that builds `~/.cache/<name>` from the home folder, not from
   *   `XDG_CACHE_HOME`, then writes into the server's home rather than failing on the read-only
   *   home folder. A missing `<home>/.cache` is created (0700, empty) as its mount point. Linux
   *   only (Seatbelt names paths and cannot show one folder at another's place: on macOS
   *   `~/.cache` stays the user's, read-only); left out when `dir` lies inside `<home>/.cache`
   *   (it is visible and writable at its own place then) or the home folder does not exist.
   */
  readonly serverHome?: {
    readonly dir: string;
    readonly homesDir: string;
    readonly cache?: string;
  };
}

/** A policy after validation: real paths (symbolic links resolved), defaults filled in. @internal */
export interface ResolvedPolicy {
  readonly root: string;
  /** Real paths of `writePaths`, without duplicates and without `root`. */
  readonly writePaths: readonly { readonly path: string; readonly isDirectory: boolean }[];
  readonly network: boolean;
  readonly env: Readonly<Record<string, string>>;
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly garudaHome: string;
  /** Real paths of `tempDirs`, without duplicates. */
  readonly tempDirs: readonly string[];
  /**
   * Real paths of `readPaths` (files or folders), without duplicates, each with the path as
   * given (normalised, links not followed).
   */
  readonly readPaths: readonly {
    readonly path: string;
    readonly isDirectory: boolean;
    readonly given: string;
  }[];
  readonly cwd: string;
  readonly platform: NodeJS.Platform;
  /** The real path of `engineSocket`, when a socket is there. */
  readonly engineSocket?: string;
  /** Real paths of `serverHome` (its `dir` is among `writePaths` too). */
  readonly serverHome?: {
    readonly dir: string;
    readonly homesDir: string;
    readonly cache?: string;
  };
}

/** Checks that `value` is a usable absolute path and returns it normalised. @internal */
export function checkAbsolutePath(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidPolicyError(field, 'must be a non-empty string (an absolute path).');
  }
  if (value.includes('\0')) {
    throw new InvalidPolicyError(field, 'contains a NUL character, which no path can hold.');
  }
  if (!path.isAbsolute(value)) {
    throw new InvalidPolicyError(field, `must be an absolute path, not ${quote(value)}.`);
  }
  return path.resolve(value);
}

function statOrThrow(field: string, file: string): Stats {
  try {
    return statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'does not exist'
        : `cannot be read (${code ?? 'unknown error'})`;
    throw new InvalidPolicyError(field, `${quote(file)} ${what}: create it or fix the path.`, {
      cause: error,
    });
  }
}

function realPath(field: string, file: string): string {
  try {
    return realpathSync.native(file);
  } catch (error) {
    throw new InvalidPolicyError(field, `${quote(file)} cannot be resolved.`, { cause: error });
  }
}

function existingDirectory(field: string, value: unknown): string {
  const file = checkAbsolutePath(field, value);
  if (!statOrThrow(field, file).isDirectory()) {
    throw new InvalidPolicyError(field, `${quote(file)} is not a folder.`);
  }
  return realPath(field, file);
}

function pathList(field: string, value: unknown): readonly unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new InvalidPolicyError(field, 'must be an array of absolute paths.');
  return value;
}

/**
 * Validates a {@link SandboxPolicy} and resolves every path to its real path, so that mounts and
 * profile rules name the folders the kernel will actually see (bubblewrap cannot mount onto a
 * path that goes through a symbolic link, and Seatbelt matches resolved paths). @internal
 *
 * @param policy - The policy as the caller wrote it.
 * @returns The resolved policy.
 * @throws {@link InvalidPolicyError} for any unusable field.
 */
export function resolvePolicy(policy: SandboxPolicy): ResolvedPolicy {
  if (!isRecord(policy)) throw new InvalidPolicyError('policy', 'must be an object.');
  const platform = policy.platform ?? process.platform;
  if (typeof platform !== 'string' || (platform as string) === '') {
    throw new InvalidPolicyError('platform', 'must be a platform name such as "linux".');
  }

  const root = existingDirectory('root', policy.root);
  if (root === path.parse(root).root) {
    throw new InvalidPolicyError(
      'root',
      'must not be the file system root: that would make every file writable. Use the project folder.',
    );
  }

  const writePaths: { path: string; isDirectory: boolean }[] = [];
  const seen = new Set<string>([root]);
  pathList('writePaths', policy.writePaths).forEach((entry, index) => {
    const field = `writePaths[${index}]`;
    const file = checkAbsolutePath(field, entry);
    const stats = statOrThrow(field, file);
    const real = realPath(field, file);
    if (real === path.parse(real).root) {
      throw new InvalidPolicyError(field, 'must not be the file system root.');
    }
    if (seen.has(real)) return;
    seen.add(real);
    writePaths.push({ path: real, isDirectory: stats.isDirectory() });
  });

  const tempDirs: string[] = [];
  pathList('tempDirs', policy.tempDirs).forEach((entry, index) => {
    const real = existingDirectory(`tempDirs[${index}]`, entry);
    if (real === path.parse(real).root) {
      throw new InvalidPolicyError(`tempDirs[${index}]`, 'must not be the file system root.');
    }
    if (!tempDirs.includes(real)) tempDirs.push(real);
  });

  const home = checkAbsolutePath('home', policy.home);
  const garudaHome = checkAbsolutePath('garudaHome', policy.garudaHome);
  const readPaths: { path: string; isDirectory: boolean; given: string }[] = [];
  pathList('readPaths', policy.readPaths).forEach((entry, index) => {
    const field = `readPaths[${index}]`;
    const file = checkAbsolutePath(field, entry);
    // Before it is looked at, so the reason comes first; hiddenPathOf compares the real path too
    // (a link to Garuda's folder, or one inside it).
    const refused = neverShown(file, { home, garudaHome });
    if (refused !== undefined) throw new InvalidPolicyError(field, refused);
    const stats = statOrThrow(field, file);
    const real = realPath(field, file);
    if (!readPaths.some((seen) => seen.path === real)) {
      readPaths.push({ path: real, isDirectory: stats.isDirectory(), given: file });
    }
  });

  if (policy.network !== undefined && typeof policy.network !== 'boolean') {
    throw new InvalidPolicyError('network', 'must be true or false.');
  }
  if (!isRecord(policy.baseEnv)) {
    throw new InvalidPolicyError('baseEnv', "must be an object (the caller's environment).");
  }
  if (policy.env !== undefined && !isRecord(policy.env)) {
    throw new InvalidPolicyError('env', 'must be an object of strings.');
  }

  const cwd = policy.cwd === undefined ? root : existingDirectory('cwd', policy.cwd);
  const engineSocket =
    policy.engineSocket === undefined
      ? undefined
      : checkEngineSocket(policy.engineSocket, home, garudaHome);

  const serverHome =
    policy.serverHome === undefined
      ? undefined
      : checkServerHome(policy.serverHome, { home, garudaHome });
  if (serverHome !== undefined && !seen.has(serverHome.dir)) {
    seen.add(serverHome.dir);
    writePaths.push({ path: serverHome.dir, isDirectory: true });
  }

  return {
    root,
    writePaths,
    network: policy.network === true,
    env: (policy.env ?? {}) as Record<string, string>,
    baseEnv: policy.baseEnv,
    home,
    garudaHome,
    tempDirs,
    readPaths,
    cwd,
    platform,
    ...(engineSocket === undefined ? {} : { engineSocket }),
    ...(serverHome === undefined ? {} : { serverHome }),
  };
}

/** `serverHome` in real paths: `dir` inside `homesDir`, `cache` inside `dir`, none hidden. */
function checkServerHome(
  value: unknown,
  where: { readonly home: string; readonly garudaHome: string },
): NonNullable<ResolvedPolicy['serverHome']> {
  if (!isRecord(value)) {
    throw new InvalidPolicyError('serverHome', 'must be an object: { dir, homesDir, cache? }.');
  }
  const homesDir = existingDirectory('serverHome.homesDir', value.homesDir);
  const dir = existingDirectory('serverHome.dir', value.dir);
  if (dir === homesDir || !isWithin(dir, homesDir)) {
    throw new InvalidPolicyError(
      'serverHome.dir',
      `${quote(dir)} must lie inside serverHome.homesDir (${quote(homesDir)}).`,
    );
  }
  for (const [field, file] of [
    ['serverHome.homesDir', homesDir],
    ['serverHome.dir', dir],
  ] as const) {
    // No folder above it may be hidden either: hiding wins, so the home would not be there.
    const kind = hiddenPathOf(file, where)?.kind;
    if (kind === 'credential' || kind === 'garudaHome') {
      throw new InvalidPolicyError(
        field,
        `${quote(file)} is inside ${kind === 'garudaHome' ? "Garuda's home" : 'a hidden credential path'}; keep server homes elsewhere.`,
      );
    }
  }
  if (value.cache === undefined) return { dir, homesDir };
  const cache = existingDirectory('serverHome.cache', value.cache);
  if (!isWithin(cache, dir)) {
    throw new InvalidPolicyError(
      'serverHome.cache',
      `${quote(cache)} must lie inside serverHome.dir (${quote(dir)}).`,
    );
  }
  return { dir, homesDir, cache };
}

/** `engineSocket`'s real path, `undefined` when nothing is there. */
function checkEngineSocket(value: unknown, home: string, garudaHome: string): string | undefined {
  const file = checkAbsolutePath('engineSocket', value);
  let real: string;
  let stats: Stats;
  try {
    real = realpathSync.native(file);
    stats = statSync(real);
  } catch {
    return undefined;
  }
  if (!stats.isSocket()) {
    throw new InvalidPolicyError('engineSocket', `${quote(file)} is not a Unix socket.`);
  }
  // Docker Desktop's socket is under the home folder (`~/.docker/run`); a credential path or
  // Garuda's home is never a socket to hand out.
  const kind =
    hiddenPathOf(real, { home, garudaHome })?.kind ??
    hiddenPathOf(file, { home, garudaHome })?.kind;
  if (kind === 'credential' || kind === 'garudaHome') {
    throw new InvalidPolicyError(
      'engineSocket',
      `${quote(file)} is inside ${kind === 'garudaHome' ? "Garuda's home" : 'a hidden credential path'}, which is never shown that way.`,
    );
  }
  return real;
}
