import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught, recordingLogger, tempDirEachTest, waitFor } from '../test/helpers.js';
import { type LockedFileError, TrustStoreError, TrustStoreErrorCode } from './errors.js';
import { withFileLock } from './file-lock.js';

const temp = tempDirEachTest();
let file: string;
beforeEach(() => {
  file = path.join(temp.dir, 'notes.json');
});

const gone = (p: string) => expect(fs.stat(p)).rejects.toMatchObject({ code: 'ENOENT' });

describe('withFileLock', () => {
  it('holds <file>.lock while the action runs, returns its value and removes the lock', async () => {
    const result = await withFileLock(file, {}, async (lock) => {
      expect(lock.file).toBe(file);
      expect(lock.lockFile).toBe(`${file}.lock`);
      expect((await fs.stat(`${file}.lock`)).isDirectory()).toBe(true);
      lock.assertHeld();
      return 42;
    });
    expect(result).toBe(42);
    await gone(`${file}.lock`);
    // The file itself is never created by the lock.
    await gone(file);
  });

  it('makes a relative path absolute', async () => {
    const relative = path.relative(process.cwd(), file);
    const lockFile = await withFileLock(relative, {}, (lock) => lock.lockFile);
    expect(lockFile).toBe(`${file}.lock`);
  });

  it('gives the lock back when the action throws, and lets the error out unchanged', async () => {
    const thrown = new Error('from the action');
    expect(
      await caught(() =>
        withFileLock(file, {}, () => {
          throw thrown;
        }),
      ),
    ).toBe(thrown);
    await gone(`${file}.lock`);
    expect(await withFileLock(file, { timeoutMs: 0 }, () => 'free again')).toBe('free again');
  });

  it('runs actions on one file one after the other', async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(file, { timeoutMs: 10_000 }, async () => {
          most = Math.max(most, ++inside);
          await new Promise((r) => setTimeout(r, 20));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it('times out with LOCK_TIMEOUT, naming the file with its label and the lock folder', async () => {
    const release = await lockfile.lock(file, { realpath: false });
    try {
      const started = performance.now();
      const error = (await caught(() =>
        withFileLock(file, { timeoutMs: 300, staleMs: 7_000, label: 'notes file' }, () => {
          throw new Error('must not run');
        }),
      )) as LockedFileError;
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_TIMEOUT' });
      expect(TrustStoreError.isInstance(error)).toBe(true);
      expect(error.code).toBe(TrustStoreErrorCode.LOCK_TIMEOUT);
      expect(error).toMatchObject({ file, path: `${file}.lock` });
      expect(error.message).toContain('within 300 ms');
      expect(error.message).toContain(`could not lock the notes file ${JSON.stringify(file)}`);
      expect(error.message).toContain('older than 7 s');
    } finally {
      await release();
    }
  });

  it('waits for a lock that is given back in time, with a debug note', async () => {
    const release = await lockfile.lock(file, { realpath: false });
    const { logger, lines } = recordingLogger();
    const pending = withFileLock(file, { logger, label: 'notes file' }, () => 'got it');
    // Given back once it is known to wait (a fixed pause could end first on a busy machine).
    await waitFor(() => lines.debug.length > 0);
    await release();
    expect(await pending).toBe('got it');
    expect(lines.debug).toEqual([`waiting for the lock on the notes file ${JSON.stringify(file)}`]);
  });

  it('takes over a lock folder left behind by a dead process', async () => {
    await fs.mkdir(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(`${file}.lock`, old, old);
    // The lock is a minute old: taken over at once (the time limit is only a safety net).
    expect(await withFileLock(file, { timeoutMs: 20_000 }, () => 'taken over')).toBe('taken over');
    await gone(`${file}.lock`);
  });

  it('a lock folder that cannot be created is LOCK_FAILED at once, not a timeout', async () => {
    const missing = path.join(temp.dir, 'no-such-folder', 'notes.json');
    // "At once" is told by the code, not the clock: a lock that waited would end in LOCK_TIMEOUT,
    // and with a time limit of an hour, a wait runs into the test's own time limit first.
    const error = (await caught(() =>
      withFileLock(missing, { timeoutMs: 3_600_000, label: 'notes file' }, () => undefined),
    )) as LockedFileError;
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_FAILED' });
    expect(error.code).toBe(TrustStoreErrorCode.LOCK_FAILED);
    expect(error).toMatchObject({ file: missing, path: `${missing}.lock` });
    expect(error.message).toContain(`could not lock the notes file ${JSON.stringify(missing)}`);
    expect(error.message).toContain('(ENOENT)');
    expect((error.cause as { code?: string }).code).toBe('ENOENT');
  });

  it('reports a lock lost while held, refuses to go on, and never removes the new lock', async () => {
    const { logger, lines } = recordingLogger();
    const error = await caught(() =>
      withFileLock(file, { staleMs: 2_000, logger, label: 'notes file' }, async (lock) => {
        await fs.rmdir(lock.lockFile);
        // The holder refreshes the lock every staleMs / 2 and notices then that it is gone
        // (the deadline is only a safety net, generous for a busy machine).
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline) {
          try {
            lock.assertHeld();
          } catch (e) {
            // Another process may have taken the lock meanwhile.
            await fs.mkdir(lock.lockFile);
            throw e;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        return 'never noticed';
      }),
    );
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_COMPROMISED' });
    expect((error as LockedFileError).code).toBe(TrustStoreErrorCode.LOCK_COMPROMISED);
    expect((error as LockedFileError).message).toContain(
      `the lock on the notes file ${JSON.stringify(file)} was lost`,
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(lines.warn.join('\n')).toContain('lost the lock on the notes file');
    // The other holder's lock folder is still there.
    expect((await fs.stat(`${file}.lock`)).isDirectory()).toBe(true);
  });

  it('checks its options', async () => {
    const never = () => {
      throw new Error('must not run');
    };
    await expect(withFileLock('', {}, never)).rejects.toMatchObject({
      name: 'TrustStoreError',
      code: 'TRUST_INVALID_OPTION',
    });
    await expect(withFileLock(file, { timeoutMs: -1 }, never)).rejects.toThrow(
      /options\.timeoutMs must be a finite number of milliseconds, at least 0, got -1/,
    );
    await expect(withFileLock(file, { staleMs: 1_000 }, never)).rejects.toThrow(/at least 2000/);
    await expect(withFileLock(file, { staleMs: Number.NaN }, never)).rejects.toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_OPTION' }),
    );
    await gone(`${file}.lock`);
  });
});
