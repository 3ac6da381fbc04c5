import { mkdtemp, realpath, rm } from 'node:fs/promises';
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
