import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh temporary folder, removed by the returned `cleanup`. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'garuda-trust-'));
  return { dir, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** A logger that keeps what it is told, by level. */
export function recordingLogger() {
  const lines = {
    debug: [] as string[],
    info: [] as string[],
    warn: [] as string[],
    error: [] as string[],
  };
  return {
    lines,
    logger: {
      debug: (m: string) => void lines.debug.push(m),
      info: (m: string) => void lines.info.push(m),
      warn: (m: string) => void lines.warn.push(m),
      error: (m: string) => void lines.error.push(m),
    },
  };
}

/** Calls `fn` and returns what it threw (or rejected with); fails when it did not throw. */
export async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
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
