import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { caught, recordingLogger, waitFor } from '@garuda/test-utils';
import { afterEach, beforeEach } from 'vitest';

export { caught, recordingLogger, waitFor };

/** A fresh temporary folder, removed by the returned `cleanup`. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'garuda-trust-'));
  return { dir, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/**
 * A fresh temporary folder for each test of the calling file, removed after it. Call at the top
 * level of a test file; read `dir` inside a test.
 */
export function tempDirEachTest(): { readonly dir: string } {
  let current: { dir: string; cleanup: () => Promise<void> } | undefined;
  beforeEach(async () => {
    current = await tempDir();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return {
    get dir() {
      if (!current) throw new Error('tempDirEachTest: read dir inside a test');
      return current.dir;
    },
  };
}
