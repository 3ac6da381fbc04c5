import { afterEach, beforeEach } from 'vitest';
import { tempDir, type TempDir } from './temp-dir.js';

/** The folder of the test that runs now, from {@link useTempDir}. */
export interface TestTempDir {
  /** Absolute, symlink-free path; read it inside a test or a hook, not when the file loads. */
  readonly path: string;
}

/**
 * A fresh temporary folder for each test of the file (or `describe`) that calls it: made before
 * each test, removed with its content after it. vitest runs `afterEach` hooks in reverse order,
 * so a helper whose clean-up must come first (killing children that write in the folder) is
 * registered after this one.
 *
 * @param prefix - start of the folder name, e.g. `'garuda-audit-'`
 * @returns the current test's folder
 * @example
 * const tmp = useTempDir('garuda-audit-');
 * it('writes', async () => writeFile(path.join(tmp.path, 'a.txt'), 'a'));
 */
export function useTempDir(prefix?: string): TestTempDir {
  let current: TempDir | undefined;
  beforeEach(async () => {
    current = await tempDir(prefix);
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return {
    get path(): string {
      if (current === undefined) throw new Error('useTempDir: the folder exists only in a test');
      return current.path;
    },
  };
}
