import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the system temp folder, removed (with its content) by `cleanup`. */
export interface TempDir {
  /** Absolute, symlink-free path (so it compares equal to what a child's `process.cwd()` says). */
  path: string;
  /** Removes the folder and everything in it; safe to call twice. */
  cleanup(): Promise<void>;
}

/**
 * Creates an empty temporary folder.
 *
 * @param prefix - start of the folder name, e.g. `'garuda-transport-'`
 * @returns the folder and its cleanup
 * @example
 * const dir = await tempDir('garuda-trust-');
 * try { ... } finally { await dir.cleanup(); }
 */
export async function tempDir(prefix = 'garuda-test-'): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { path, cleanup: () => rm(path, { recursive: true, force: true, maxRetries: 3 }) };
}

/** A throwaway user and project in a fresh temporary folder: what a run of the CLI works on. */
export interface TempUser {
  /** The temporary folder that holds them all (its `cleanup` removes them). */
  readonly dir: TempDir;
  /** The user's home folder (`<dir>/user`, the HOME of a run). */
  readonly userHome: string;
  /** Garuda's home (`<userHome>/.garuda`, made). */
  readonly home: string;
  /** The project root (`<dir>/project`, made). */
  readonly root: string;
}

/**
 * Creates a throwaway user (home folder, Garuda home) and project in a fresh temporary folder.
 *
 * @param prefix - start of the temporary folder's name, e.g. `'garuda-cli-'`
 * @returns the folders, made, and the temporary folder that holds them
 * @example
 * const user = await tempUser('garuda-cli-');
 * try { ... } finally { await user.dir.cleanup(); }
 */
export async function tempUser(prefix: string): Promise<TempUser> {
  const dir = await tempDir(prefix);
  const userHome = join(dir.path, 'user');
  const user = { dir, userHome, home: join(userHome, '.garuda'), root: join(dir.path, 'project') };
  await mkdir(user.home, { recursive: true });
  await mkdir(user.root, { recursive: true });
  return user;
}
