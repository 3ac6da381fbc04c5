// The folders of a package-runner test: a project, a user's home with Garuda's home and cache in
// it, and a bin folder for shims, under /var/tmp (bubblewrap gives every server an empty /tmp of
// its own, so a server installed under /tmp would not be seen).
import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Where a package-runner test keeps its project, homes, cache and shims. */
export interface RunnerDirs {
  readonly base: string;
  readonly root: string;
  readonly userHome: string;
  readonly home: string;
  readonly cacheDir: string;
  readonly bin: string;
}

/**
 * Makes the folders (the project's `.garuda`, Garuda's home and an empty bin).
 *
 * @param prefix - The name the base folder starts with under /var/tmp.
 * @returns Their paths; the caller removes `base` when done.
 */
export async function makeRunnerDirs(prefix: string): Promise<RunnerDirs> {
  const base = realpathSync(mkdtempSync(path.join('/var/tmp', prefix)));
  const userHome = path.join(base, 'user');
  const dirs: RunnerDirs = {
    base,
    root: path.join(base, 'project'),
    userHome,
    home: path.join(userHome, '.garuda'),
    cacheDir: path.join(userHome, '.cache', 'garuda-mcp'),
    bin: path.join(base, 'bin'),
  };
  await mkdir(path.join(dirs.root, '.garuda'), { recursive: true });
  await mkdir(dirs.home, { recursive: true });
  await mkdir(dirs.bin);
  return dirs;
}
