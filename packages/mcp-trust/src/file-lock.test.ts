import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger, tempDir } from '../test/helpers.js';
import { acquireLock } from './file-lock.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

describe('acquireLock', () => {
  it('creates <file>.lock while held and removes it on release', async () => {
    const file = path.join(dir, 'trust.json');
    const lockFile = `${file}.lock`;
    const lock = await acquireLock(file, {
      lockFile,
      timeoutMs: 1000,
      staleMs: 2000,
      logger: undefined,
    });
    expect((await fs.stat(lockFile)).isDirectory()).toBe(true);
    expect(lock.compromised()).toBeUndefined();
    await lock.release();
    await expect(fs.stat(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a lock lost while held instead of crashing the process', async () => {
    const file = path.join(dir, 'trust.json');
    const lockFile = `${file}.lock`;
    const { logger, lines } = recordingLogger();
    const lock = await acquireLock(file, { lockFile, timeoutMs: 1000, staleMs: 2000, logger });
    await fs.rmdir(lockFile);
    // The holder refreshes the lock every staleMs / 2 and notices then that it is gone.
    const deadline = Date.now() + 10_000;
    while (lock.compromised() === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(lock.compromised()).toBeInstanceOf(Error);
    expect(lines.warn.join('\n')).toContain('lost the lock');
    await lock.release(); // no throw
  });
});
