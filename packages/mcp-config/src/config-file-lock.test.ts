import { mkdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { withFileLock } from './config-file-lock.js';
import { ConfigError, ConfigErrorCode, LockFailedError, LockTimeoutError } from './errors.js';

const dirs = tempDirs();

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('withFileLock (the config file lock)', () => {
  it("reports a held lock as this package's LockTimeoutError", async () => {
    const file = path.join(await dirs.create(), 'mcp.json');
    await mkdir(`${file}.lock`);
    const error = await rejection(withFileLock(file, 200, () => Promise.resolve('never')));
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as LockTimeoutError).message).toBe(
      `${JSON.stringify(file)} is being changed by another process (its lock ` +
        `${JSON.stringify(`${file}.lock`)} was held for more than 200 ms): nothing was written; ` +
        'try again',
    );
  });

  it("reports a lock that cannot be made as this package's LockFailedError", async () => {
    const file = path.join(await dirs.create(), 'missing', 'mcp.json');
    const error = await rejection(withFileLock(file, 1_000, () => Promise.resolve('never')));
    expect(error).toBeInstanceOf(LockFailedError);
    expect(error).toMatchObject({ code: ConfigErrorCode.LOCK_FAILED });
    expect((error as Error).message).toContain('(ENOENT)');
    expect(((error as Error).cause as { code?: string }).code).toBe('ENOENT');
  });

  it('lets what the action throws out unchanged, and gives the lock back', async () => {
    const file = path.join(await dirs.create(), 'mcp.json');
    const thrown = new Error('from the edit');
    expect(await rejection(withFileLock(file, 1_000, () => Promise.reject(thrown)))).toBe(thrown);
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a lock lost before the write is LockFailedError, from assertHeld', async () => {
    const file = path.join(await dirs.create(), 'mcp.json');
    const error = await rejection(
      withFileLock(file, 1_000, async (assertHeld) => {
        assertHeld();
        await rmdir(`${file}.lock`);
        // The lock is refreshed every 5 s (half its stale time), which finds it gone: wait for
        // assertHeld to say so, not for a time a busy machine may delay that refresh past. The
        // deadline is only a safety net (a loss never noticed ends the action without error).
        const deadline = Date.now() + 40_000;
        while (Date.now() < deadline) {
          assertHeld();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );
    expect(error).toBeInstanceOf(LockFailedError);
    expect((error as Error).message).toContain('(the lock was lost while held)');
    expect((error as Error).cause).toBeInstanceOf(Error);
  }, 60_000);
});
