import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

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
