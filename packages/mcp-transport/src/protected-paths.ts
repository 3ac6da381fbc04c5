import { lstatSync, openSync, readSync, closeSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { InvalidPolicyError, UnprotectablePathError, quote } from './errors.js';
import { gitConfigPaths } from './git-config-paths.js';
import { depth, isWithin, resolveExisting } from './path-utils.js';
import type { ResolvedPolicy } from './sandbox-policy.js';

/**
 * How one path inside a writable folder is kept from being changed. @internal
 *
 * - `pin`: the folder stays writable inside, but cannot be renamed or removed. Used for `.git`:
 *   without it, a server could `mv .git .git-old` and create a new `.git` with its own `config`
 *   and hooks, and the read-only mounts inside the old one would protect nothing (on Linux a
 *   mount point cannot be renamed or removed: EBUSY).
 * - `read-only`: an existing file or folder, read-only inside.
 * - `missing-directory` / `missing-file`: does not exist yet; must not be created by the server.
 */
export interface Protection {
  readonly path: string;
  readonly kind: 'pin' | 'read-only' | 'missing-directory' | 'missing-file';
}

/** Largest `.git/config` read for hooks and include paths; git configs are a few KiB. */
const MAX_GIT_CONFIG_BYTES = 1024 * 1024;

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new InvalidPolicyError(
      'root',
      `cannot check ${quote(file)} (${code ?? 'unknown error'}), so it cannot be protected.`,
      { cause: error },
    );
  }
}

function readHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(MAX_GIT_CONFIG_BYTES);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

class ProtectionList {
  readonly #byPath = new Map<string, Protection>();

  constructor(readonly writableDirs: readonly string[]) {}

  /** Adds an existing-or-missing path; a symbolic link cannot be protected. */
  add(
    file: string,
    missingKind: 'missing-directory' | 'missing-file' | undefined,
  ): Stats | undefined {
    const stats = lstatOrUndefined(file);
    if (stats?.isSymbolicLink()) throw new UnprotectablePathError(file);
    if (!stats) {
      if (missingKind) this.#set({ path: file, kind: missingKind });
      return undefined;
    }
    this.#set({ path: file, kind: 'read-only' });
    return stats;
  }

  pin(file: string): void {
    this.#set({ path: file, kind: 'pin' });
  }

  /** A path named by git config: protected only when it lies inside a writable folder. */
  addNamed(named: string, missingKind: 'missing-directory' | 'missing-file'): void {
    const leaf = lstatOrUndefined(named);
    if (leaf?.isSymbolicLink()) {
      if (this.writableDirs.some((dir) => isWithin(named, dir)))
        throw new UnprotectablePathError(named);
      return;
    }
    // Resolve links in the folders above it, so the check and the mount name the real place.
    const real = leaf ? realpathSync.native(named) : resolveExisting(named);
    if (!this.writableDirs.some((dir) => isWithin(real, dir))) return;
    this.add(real, missingKind);
  }

  #set(protection: Protection): void {
    const existing = this.#byPath.get(protection.path);
    // A pin and a read-only mount at the same place: read-only is the stronger one.
    if (existing?.kind === 'read-only' && protection.kind === 'pin') return;
    this.#byPath.set(protection.path, protection);
  }

  sorted(): Protection[] {
    // Parents first: `.git` is pinned before `.git/hooks` is mounted inside it.
    return [...this.#byPath.values()].sort((a, b) => depth(a.path) - depth(b.path));
  }
}

function protectGit(list: ProtectionList, dir: string, home: string): void {
  const gitDir = path.join(dir, '.git');
  const git = lstatOrUndefined(gitDir);
  if (!git) return;
  if (git.isSymbolicLink()) throw new UnprotectablePathError(gitDir);
  if (!git.isDirectory()) {
    // A worktree or submodule: `.git` is a file naming the real git folder. Rewritten, it
    // could point git at a folder the server controls, so it is read-only.
    list.add(gitDir, undefined);
    return;
  }
  list.pin(gitDir);
  // Hooks run on the next commit, checkout or merge, outside the sandbox.
  list.add(path.join(gitDir, 'hooks'), 'missing-directory');
  // A writable config could set core.hooksPath or core.fsmonitor (a command git runs on
  // `git status`) and so run code outside the sandbox on the user's next git command.
  const configFile = path.join(gitDir, 'config');
  const config = list.add(configFile, 'missing-file');
  if (!config?.isFile()) return;

  let text: string;
  try {
    text = readHead(configFile);
  } catch {
    return; // Unreadable for us means unreadable for git run by the same user.
  }
  const named = gitConfigPaths(text);
  const expand = (value: string, base: string): string =>
    value === '~' || value.startsWith('~/')
      ? path.join(home, value.slice(1))
      : path.resolve(base, value);
  // Relative hooks paths are relative to the top of the working tree, includes to the config file.
  for (const value of named.hooksPaths) list.addNamed(expand(value, dir), 'missing-directory');
  for (const value of named.includePaths) list.addNamed(expand(value, gitDir), 'missing-file');
}

/**
 * The paths inside writable folders that stay read-only: in the root, `.garuda` (created empty
 * on Linux when missing), `.git` pinned, `.git/hooks`, `.git/config` (created when missing) and
 * the hooks folder and include files that `.git/config` names when they lie in a writable folder.
 * In a directory write path, the same for `.git`, and `.garuda` only when it exists. @internal
 *
 * @param policy - The resolved policy (real paths).
 * @returns The protections, parents before children.
 * @throws {@link UnprotectablePathError} when one of these paths is a symbolic link.
 */
export function protectedPaths(policy: ResolvedPolicy): Protection[] {
  const writableDirs = [
    policy.root,
    ...policy.writePaths.filter((entry) => entry.isDirectory).map((entry) => entry.path),
  ];
  const list = new ProtectionList(writableDirs);
  for (const dir of writableDirs) {
    const isRoot = dir === policy.root;
    // Garuda reads the project's servers from <root>/.garuda/mcp.json; a server must not add
    // or change servers, nor plant a folder there to be filled later.
    list.add(path.join(dir, '.garuda'), isRoot ? 'missing-directory' : undefined);
    protectGit(list, dir, policy.home);
  }
  return list.sorted();
}
