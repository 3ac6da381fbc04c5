// Real processes against one real file: what the lock and the atomic writes are for.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { runTogether } from '@garuda/test-utils';
import { useChildScript } from '@garuda/test-utils/build-for-children';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../src/file-lock.js';
import { TrustStore } from '../src/trust-store.js';
import { CHILD_SCRIPT, packageDir } from './build-for-children.js';
import { tempDirEachTest } from './helpers.js';

const temp = tempDirEachTest();
// Registered after the folder's hooks, so its children are killed before the folder goes.
const children = useChildScript(packageDir, CHILD_SCRIPT);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts one child per argument list, lets them all go at once (so their read-modify-writes
 * race each other) and checks that every one ended cleanly.
 */
async function runAll(...argLists: string[][]): Promise<void> {
  for (const { code, stderr } of await runTogether(argLists.map((a) => children.start(a)))) {
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  }
}

describe('two processes writing at once', () => {
  it('keeps all 400 keys that two processes wrote at the same time', async () => {
    const file = path.join(temp.dir, 'home', 'trust.json');
    await runAll(['writer', file, 'a', '200'], ['writer', file, 'b', '200']);

    const entries = await new TrustStore(file).entries();
    const expected = ['a', 'b']
      .flatMap((p) => Array.from({ length: 200 }, (_, i) => [`${p}-${i}`, i] as [string, number]))
      .sort(([x], [y]) => (x < y ? -1 : 1));
    expect(entries).toHaveLength(400);
    expect(entries).toEqual(expected);
  }, 180_000);
});

describe('a process killed while writing', () => {
  const SIZE = 256 * 1024;

  // The file parses, has the right shape, and every value is one whole value from one write.
  async function expectIntact(file: string): Promise<Record<string, unknown>> {
    const data = JSON.parse(await fs.readFile(file, 'utf8')) as {
      version: number;
      entries: Record<string, unknown>;
    };
    expect(data.version).toBe(1);
    for (const [key, value] of Object.entries(data.entries)) {
      if (!key.startsWith('big-')) continue;
      const v = value as { data: string; digest: string };
      expect(v.data).toHaveLength(SIZE);
      expect(createHash('sha256').update(v.data).digest('hex')).toBe(v.digest);
    }
    return data.entries;
  }

  it('leaves the old or the new file, and the store works afterwards', async () => {
    const file = path.join(temp.dir, 'trust.json');
    const store = new TrustStore(file, { lockTimeoutMs: 30_000, lockStaleMs: 2_000 });
    await store.set('seed', 'kept');

    for (let round = 0; round < 3; round++) {
      const child = children.start(['hammer', file, String(SIZE)]);
      await child.line(/^wrote \d+$/);
      await sleep(Math.floor(Math.random() * 120));
      child.proc.kill('SIGKILL');
      expect((await child.exit).signal).toBe('SIGKILL');

      const entries = await expectIntact(file);
      expect(entries.seed).toBe('kept');
      // The lock the dead child may have left is taken over once stale.
      await store.set(`after-${round}`, round);
      expect(await store.get(`after-${round}`)).toBe(round);
      await expectIntact(file);
    }

    // Last round: killed for certain while holding the lock, in the middle of a change.
    const holder = children.start(['hold', file, String(SIZE)]);
    await holder.line(/^held$/);
    holder.proc.kill('SIGKILL');
    await holder.exit;
    expect((await fs.stat(`${file}.lock`)).isDirectory()).toBe(true);
    await store.set('after-hold', true);
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });

    const entries = await expectIntact(file);
    expect(entries).toMatchObject({
      seed: 'kept',
      'after-0': 0,
      'after-1': 1,
      'after-2': 2,
      'after-hold': true,
    });
    // The value the holder was writing never landed.
    expect((entries['big-0'] as { seq?: number } | undefined)?.seq).not.toBe(-1);
  });
});

describe('LockedJsonFile and withFileLock across processes', () => {
  it('two processes adding one at a time to the same number lose no update', async () => {
    const file = path.join(temp.dir, 'home', 'count.json');
    await runAll(['count', file, '150'], ['count', file, '150']);
    expect(await fs.readFile(file, 'utf8')).toBe('300\n');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(path.dirname(file))).toEqual(['count.json']);
  }, 120_000);

  it('a lock held by a process that was killed is taken over once stale', async () => {
    const file = path.join(temp.dir, 'count.json');
    const holder = children.start(['hold-lock', file]);
    await holder.line(/^held$/);
    // While the holder lives, its lock is refreshed (every 2 s) and never stale. Asked to wait
    // longer than it counts a lock as stale, this taker would take over a lock that was not
    // refreshed; the 4 s between the holder's refreshes and that stale time are room for a
    // busy machine, which may delay a refresh.
    await expect(
      withFileLock(file, { timeoutMs: 8_000, staleMs: 6_000 }, () => 'too early'),
    ).rejects.toMatchObject({ code: 'TRUST_LOCK_TIMEOUT' });
    holder.proc.kill('SIGKILL');
    await holder.exit;
    expect((await fs.stat(`${file}.lock`)).isDirectory()).toBe(true);
    // Stale 2 s after its last refresh: the time limit is only a safety net.
    expect(
      await withFileLock(file, { timeoutMs: 30_000, staleMs: 2_000 }, () => 'taken over'),
    ).toBe('taken over');
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a store that remembers what it read', () => {
  // Run a child that changes one key through its own store (lock, write, rename) and exits.
  async function setInChild(file: string, key: string, value: unknown): Promise<void> {
    const child = children.start(['set', file, key, JSON.stringify(value)]);
    expect((await child.exit).code).toBe(0);
  }

  it("sees another process's change at its very next read, with no wait", async () => {
    const file = path.join(temp.dir, 'home', 'trust.json');
    const store = new TrustStore(file);
    // Missing, and remembered as missing: another process creating it is seen at once.
    expect(await store.get('grant')).toBeUndefined();
    expect(await store.get('grant')).toBeUndefined();
    await setInChild(file, 'grant', 1);
    expect(await store.get('grant')).toBe(1);
    // A settled file is remembered (read once, then only checked): the child's write replaces
    // it, and the next read sees the new value, then the removal.
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await fs.utimes(file, old, old);
    expect(await store.get('grant')).toBe(1);
    expect(await store.get('grant')).toBe(1);
    await setInChild(file, 'grant', 2);
    expect(await store.get('grant')).toBe(2);
    await fs.utimes(file, old, old);
    expect(await store.get('grant')).toBe(2);
    await setInChild(file, 'grant', null);
    expect(await store.get('grant')).toBeUndefined();
    await fs.rm(file);
    expect(await store.get('grant')).toBeUndefined();
  }, 120_000);
});
