import { mkdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { withFileLock } from './config-file-lock.js';
import { LockedFileError, TrustStoreErrorCode } from '@garuda/mcp-trust';
import { ConfigError } from './errors.js';

const dirs = tempDirs();

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('withFileLock (the config file lock)', () => {
  it("passes a held lock through as @garuda/mcp-trust's LockedFileError LOCK_TIMEOUT", async () => {
    const file = path.join(await dirs.create(), 'mcp.json');
    await mkdir(`${file}.lock`);
    const error = await rejection(withFileLock(file, 200, () => Promise.resolve('never')));
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(ConfigError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({
      code: TrustStoreErrorCode.LOCK_TIMEOUT,
      file,
      path: `${file}.lock`,
    });
    expect((error as LockedFileError).message).toContain(
      `could not lock the config file ${JSON.stringify(file)} within 200 ms`,
    );
  });

  it("passes a lock that cannot be made through as @garuda/mcp-trust's LOCK_FAILED", async () => {
    const file = path.join(await dirs.create(), 'missing', 'mcp.json');
    const error = await rejection(withFileLock(file, 1_000, () => Promise.resolve('never')));
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: TrustStoreErrorCode.LOCK_FAILED });
    expect((error as Error).message).toContain('(ENOENT)');
    expect(((error as Error).cause as { code?: string }).code).toBe('ENOENT');
  });

  it('lets what the action throws out unchanged, and gives the lock back', async () => {
    const file = path.join(await dirs.create(), 'mcp.json');
    const thrown = new Error('from the edit');
    expect(await rejection(withFileLock(file, 1_000, () => Promise.reject(thrown)))).toBe(thrown);
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a lock lost before the write is LOCK_COMPROMISED, from assertHeld', async () => {
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
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: TrustStoreErrorCode.LOCK_COMPROMISED });
    expect((error as Error).message).toContain('was lost before the change was written');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
