import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildForChildren } from '../test/build-for-children.js';
import { caught, recordingLogger, tempDir, waitFor } from '../test/helpers.js';
import { type LockedFileError, TrustStoreError, TrustStoreErrorCode } from './errors.js';
import { TrustStore } from './trust-store.js';

let dir: string;
let cleanup: () => Promise<void>;
const run = promisify(execFile);
let file: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  file = path.join(dir, 'home', 'trust.json');
});
afterEach(async () => {
  await cleanup();
});

async function readJson(p: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(p, 'utf8'));
}

describe('TrustStore: get, set, delete, entries, update', () => {
  it('stores, reads, lists and removes JSON values', async () => {
    const store = new TrustStore(file);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.entries()).toEqual([]);
    await store.set('mcp::user::b', { def: 'x', n: [1, 2, { deep: true }] });
    await store.set('mcp::user::a', 'text');
    await store.set('hooks::z', null);
    expect(await store.get('mcp::user::b')).toEqual({ def: 'x', n: [1, 2, { deep: true }] });
    expect(await store.entries()).toEqual([
      ['hooks::z', null],
      ['mcp::user::a', 'text'],
      ['mcp::user::b', { def: 'x', n: [1, 2, { deep: true }] }],
    ]);
    expect((await store.entries('mcp::')).map(([k]) => k)).toEqual([
      'mcp::user::a',
      'mcp::user::b',
    ]);
    expect(await store.delete('mcp::user::a')).toBe(true);
    expect(await store.delete('mcp::user::a')).toBe(false);
    expect(await store.get('mcp::user::a')).toBeUndefined();
    // Another instance (another process, in effect) sees the same file.
    expect(await new TrustStore(file).entries()).toHaveLength(2);
  });

  it('writes { version: 1, entries } with sorted keys', async () => {
    const store = new TrustStore(file);
    await store.set('b', 2);
    await store.set('a', 1);
    const text = await fs.readFile(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ version: 1, entries: { a: 1, b: 2 } });
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"b"'));
    expect(text.endsWith('\n')).toBe(true);
  });

  it('copies a value when set, so later changes to the object are not stored', async () => {
    const store = new TrustStore(file);
    const value = { list: [1] };
    const pending = store.set('k', value);
    value.list.push(2);
    await pending;
    expect(await store.get('k')).toEqual({ list: [1] });
  });

  it('hands out copies: changing what get() or entries() returned changes no later read', async () => {
    const store = new TrustStore(file);
    await store.set('k', { list: [1] });
    // A settled file (unchanged for a while) is parsed once and kept.
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await fs.utimes(file, old, old);
    const first = (await store.get('k')) as { list: number[] };
    first.list.push(2);
    const [[, listed]] = (await store.entries()) as [[string, { list: number[] }]];
    listed.list.push(3);
    expect(await store.get('k')).toEqual({ list: [1] });
    // Another process's change is seen at once.
    await new TrustStore(file).set('k', { list: [4] });
    expect(await store.get('k')).toEqual({ list: [4] });
  });

  it('drops undefined properties as JSON does', async () => {
    const store = new TrustStore(file);
    await store.set('k', { a: 1, b: undefined });
    expect(await store.get('k')).toEqual({ a: 1 });
    expect(Object.keys((await store.get('k')) as object)).toEqual(['a']);
  });

  it('keeps a "__proto__" key and value as plain data', async () => {
    const store = new TrustStore(file);
    await store.set('__proto__', { polluted: 'yes' });
    await store.set('k', JSON.parse('{"__proto__": {"polluted": "yes"}}'));
    expect(await store.get('__proto__')).toEqual({ polluted: 'yes' });
    const v = (await store.get('k')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((await store.entries()).map(([k]) => k)).toEqual(['__proto__', 'k']);
  });

  it('update reads and writes one key; undefined deletes; an unchanged value is not rewritten', async () => {
    const store = new TrustStore(file);
    expect(await store.update('n', (old) => (old === undefined ? 1 : (old as number) + 1))).toBe(1);
    expect(await store.update('n', (old) => (old as number) + 1)).toBe(2);
    expect(await store.get('n')).toBe(2);
    const before = await fs.stat(file);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.update('n', (old) => old)).toBe(2);
    expect((await fs.stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(await store.update('n', () => undefined)).toBeUndefined();
    expect(await store.get('n')).toBeUndefined();
  });

  it('update writes a value that fn changed in place', async () => {
    const store = new TrustStore(file);
    await store.set('k', { list: [1] });
    await store.update('k', (old) => {
      (old as { list: number[] }).list.push(2);
      return old;
    });
    expect(await store.get('k')).toEqual({ list: [1, 2] });
  });

  it('update: an error from fn writes nothing, releases the lock, and comes out as it is', async () => {
    const store = new TrustStore(file, { lockTimeoutMs: 500 });
    await store.set('k', 1);
    const boom = new Error('boom');
    expect(
      await caught(() =>
        store.update('k', () => {
          throw boom;
        }),
      ),
    ).toBe(boom);
    expect(await store.get('k')).toBe(1);
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.set('k', 2); // would time out if the lock had been kept
    expect(await store.get('k')).toBe(2);
  });

  it('update refuses an async fn with a clear error', async () => {
    const store = new TrustStore(file);
    const error = await caught(() => store.update('k', (async () => 1) as never));
    expect(error).toMatchObject({ name: 'TrustStoreError', code: 'TRUST_INVALID_VALUE' });
    expect((error as Error).message).toContain('"Promise"');
  });

  it('changes from two instances in one process all land', async () => {
    const a = new TrustStore(file);
    const b = new TrustStore(file);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).set(`k${String(i).padStart(2, '0')}`, i),
      ),
    );
    expect((await a.entries()).map(([, v]) => v)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});

describe('TrustStore: keys and values', () => {
  const store = () => new TrustStore(file);

  it.each([
    ['an empty key', ''],
    ['a key over 1 000 characters', 'k'.repeat(1001)],
    ['a newline', 'a\nb'],
    ['an escape', 'a\x1b[31m'],
    ['DEL', 'a\x7f'],
    ['a C1 control', 'a\u0085'],
    ['a number', 42],
    ['undefined', undefined],
  ])('refuses %s as a key', async (_, key) => {
    for (const op of [
      () => store().get(key as string),
      () => store().set(key as string, 1),
      () => store().delete(key as string),
      () => store().update(key as string, () => 1),
    ]) {
      const error = await caught(op);
      expect(error).toMatchObject({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' });
      expect((error as TrustStoreError).code).toBe(TrustStoreErrorCode.INVALID_KEY);
    }
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('accepts a key of exactly 1 000 characters and any printable text', async () => {
    const s = store();
    await s.set('k'.repeat(1000), 1);
    await s.set('mcp::project::/home/josé/app ✓::fix', 2);
    expect(await s.get('k'.repeat(1000))).toBe(1);
    expect(await s.get('mcp::project::/home/josé/app ✓::fix')).toBe(2);
  });

  it('quotes a bad key safely: the message holds no raw control character', async () => {
    const error = (await caught(() => store().set('a\x1b]0;x\x07', 1))) as Error;
    expect(error.message).toContain('U+001B');
    expect(error.message).not.toMatch(/[\x00-\x1f]/);
  });

  it('refuses a bad prefix for entries()', async () => {
    expect(await caught(() => store().entries('a\nb'))).toMatchObject({
      name: 'TrustStoreError',
      code: 'TRUST_INVALID_KEY',
    });
    expect(await caught(() => store().entries(7 as never))).toMatchObject({
      name: 'TrustStoreError',
      code: 'TRUST_INVALID_KEY',
    });
  });

  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  let deep: unknown = 1;
  for (let i = 0; i < 101; i++) deep = [deep];

  it.each([
    ['a function', () => 1, 'a function'],
    ['a bigint', 10n, 'a bigint'],
    ['a symbol', Symbol('s'), 'a symbol'],
    ['undefined', undefined, 'undefined'],
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', { n: Infinity }, 'Infinity'],
    ['a cycle', cyclic, 'cycle'],
    ['a Date', new Date(0), '"Date"'],
    ['a Map', new Map(), '"Map"'],
    ['undefined inside an array', [1, undefined], 'undefined'],
    ['a nested function', { a: { b: [() => 1] } }, 'at $["a"]["b"][0]'],
    ['nesting deeper than 100', deep, 'deeper than 100'],
  ])('refuses %s as a value', async (_, value, says) => {
    const s = store();
    const ops: (() => Promise<unknown>)[] = [() => s.set('k', value as never)];
    // From update, undefined means "delete": that is not an error.
    if (value !== undefined) ops.push(() => s.update('k', () => value as never));
    for (const op of ops) {
      const error = (await caught(op)) as TrustStoreError;
      expect(error).toMatchObject({ name: 'TrustStoreError', code: 'TRUST_INVALID_VALUE' });
      expect(error.code).toBe(TrustStoreErrorCode.INVALID_VALUE);
      expect(error.message).toContain(says);
    }
    expect(await s.get('k')).toBeUndefined();
  });

  it('accepts a shared (not cyclic) object twice', async () => {
    const shared = { x: 1 };
    await store().set('k', { a: shared, b: shared });
    expect(await store().get('k')).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('refuses unusable options', () => {
    expect(() => new TrustStore('')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_OPTION' }),
    );
    expect(() => new TrustStore(file, { lockTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_OPTION' }),
    );
    expect(() => new TrustStore(file, { lockTimeoutMs: Number.NaN })).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_OPTION' }),
    );
    expect(() => new TrustStore(file, { lockStaleMs: 1000 })).toThrow(/at least 2000/);
    expect(() => new TrustStore(file, { now: 5 as never })).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_OPTION' }),
    );
    expect(() => new TrustStore(file, { now: () => new Date('x') }).now()).toThrow('valid Date');
  });
});

describe('TrustStore: file and folder modes', () => {
  it('creates missing folders with mode 0700 and the file with mode 0600', async () => {
    const nested = path.join(dir, 'a', 'b', 'trust.json');
    await new TrustStore(nested).set('k', 1);
    expect((await fs.stat(path.join(dir, 'a'))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(dir, 'a', 'b'))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(nested)).mode & 0o777).toBe(0o600);
  });

  it('puts a loosened file back to 0600 on the next write', async () => {
    const store = new TrustStore(file);
    await store.set('k', 1);
    await fs.chmod(file, 0o644);
    await store.set('k', 2);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('leaves an existing folder as it is, and warns when others can write to it', async () => {
    const shared = path.join(dir, 'shared');
    await fs.mkdir(shared);
    await fs.chmod(shared, 0o777);
    const { logger, lines } = recordingLogger();
    const store = new TrustStore(path.join(shared, 'trust.json'), { logger });
    await store.set('k', 1);
    await store.set('k', 2);
    expect((await fs.stat(shared)).mode & 0o777).toBe(0o777);
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain(JSON.stringify(shared));
    expect(lines.warn[0]).toContain('777');
    expect(lines.warn[0]).toContain('chmod 700');
  });

  it('says nothing about an existing private folder', async () => {
    const own = path.join(dir, 'own');
    await fs.mkdir(own, { mode: 0o700 });
    await fs.chmod(own, 0o750);
    const { logger, lines } = recordingLogger();
    await new TrustStore(path.join(own, 'trust.json'), { logger }).set('k', 1);
    expect(lines.warn).toEqual([]);
    expect((await fs.stat(own)).mode & 0o777).toBe(0o750);
  });
});

describe('TrustStore: corrupt and unreadable files', () => {
  const fixedNow = () => new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 10));
  const moved = () => `${file}.corrupt-2024-05-06T07-08-09-010Z`;

  it.each([
    ['invalid JSON', '{"version": 1, "entries": {'],
    ['an empty file', ''],
    ['an array', '[1, 2]'],
    ['no version', '{"entries": {}}'],
    ['another version', '{"version": 2, "entries": {}}'],
    ['entries that are not an object', '{"version": 1, "entries": []}'],
  ])('moves %s aside with a warning and goes on empty', async (_, content) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    const { logger, lines } = recordingLogger();
    const store = new TrustStore(file, { logger, now: fixedNow });

    expect(await store.get('k')).toBeUndefined();
    expect(await fs.readFile(moved(), 'utf8')).toBe(content);
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain(JSON.stringify(file));
    expect(lines.warn[0]).toContain(JSON.stringify(moved()));
    expect(lines.warn[0]).toContain('asked about again');

    await store.set('k', 1);
    expect(await readJson(file)).toEqual({ version: 1, entries: { k: 1 } });
    expect(lines.warn).toHaveLength(1);
  });

  it('moves a corrupt file aside on a write too, keeping the corrupt text', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'not json');
    const { logger, lines } = recordingLogger();
    await new TrustStore(file, { logger, now: fixedNow }).set('k', 1);
    expect(await fs.readFile(moved(), 'utf8')).toBe('not json');
    expect(await readJson(file)).toEqual({ version: 1, entries: { k: 1 } });
    expect(lines.warn).toHaveLength(1);
  });

  it('never replaces an earlier moved-aside file', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const store = new TrustStore(file, { now: fixedNow });
    await fs.writeFile(file, 'first');
    await store.get('k');
    await fs.writeFile(file, 'second');
    await store.get('k');
    expect(await fs.readFile(moved(), 'utf8')).toBe('first');
    expect(await fs.readFile(`${moved()}-1`, 'utf8')).toBe('second');
  });

  it('reads a file with a byte order mark', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '\ufeff{"version": 1, "entries": {"k": 1}}');
    expect(await new TrustStore(file).get('k')).toBe(1);
  });

  it('a folder at the file path is a clear error, and is left alone', async () => {
    await fs.mkdir(file, { recursive: true });
    await fs.writeFile(path.join(file, 'inside'), 'x');
    const store = new TrustStore(file);
    for (const op of [() => store.get('k'), () => store.set('k', 1), () => store.entries()]) {
      const error = (await caught(op)) as TrustStoreError;
      expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_FILE_UNREADABLE' });
      expect(error.code).toBe(TrustStoreErrorCode.FILE_UNREADABLE);
      expect(error.message).toContain(JSON.stringify(file));
      expect(error.message).toContain('is a folder');
    }
    expect((await fs.stat(file)).isDirectory()).toBe(true);
    expect(await fs.readdir(path.dirname(file))).toEqual(['trust.json']);
  });

  it('a file it may not read is a clear error, and is left alone', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"version": 1, "entries": {}}');
    await fs.chmod(file, 0o000);
    try {
      if (process.getuid?.() !== 0) {
        const error = (await caught(() => new TrustStore(file).get('k'))) as TrustStoreError;
        expect(error.code).toBe(TrustStoreErrorCode.FILE_UNREADABLE);
        expect(error.message).toContain('permission denied');
        return;
      }
      // Root reads any file, so the check runs in a child that has dropped to "nobody". It drops
      // after loading the build, which may sit in a folder that nobody cannot enter.
      for (let d = path.dirname(file); d !== path.dirname(d); d = path.dirname(d)) {
        const mode = (await fs.stat(d)).mode;
        if ((mode & 0o001) === 0) await fs.chmod(d, mode | 0o001);
      }
      const built = await buildForChildren();
      try {
        const script = `import { TrustStore } from ${JSON.stringify(built.entry)};
          process.setgroups([]); process.setgid(65534); process.setuid(65534);
          try { await new TrustStore(${JSON.stringify(file)}).get('k'); console.log('{}'); }
          catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
        const result = JSON.parse(stdout) as { code?: string; message?: string };
        expect(result.code).toBe(TrustStoreErrorCode.FILE_UNREADABLE);
        expect(result.message).toContain('permission denied');
      } finally {
        await built.cleanup();
      }
    } finally {
      await fs.chmod(file, 0o600);
    }
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ version: 1, entries: {} });
  });

  it('a logger that throws does not break the store', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'nope');
    const logger = {
      warn: () => {
        throw new Error('logger down');
      },
    };
    const store = new TrustStore(file, { logger });
    expect(await store.get('k')).toBeUndefined();
    await store.set('k', 1);
    expect(await store.get('k')).toBe(1);
  });
});

describe('TrustStore: the cross-process lock', () => {
  async function holdLock() {
    await fs.mkdir(path.dirname(file), { recursive: true });
    return lockfile.lock(file, { realpath: false });
  }

  it('times out with LOCK_TIMEOUT, naming the file, the lock folder and what to do', async () => {
    const release = await holdLock();
    try {
      const store = new TrustStore(file, { lockTimeoutMs: 300 });
      const error = (await caught(() => store.set('k', 1))) as LockedFileError;
      expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_TIMEOUT' });
      expect(TrustStoreError.isInstance(error)).toBe(true);
      expect(error.code).toBe(TrustStoreErrorCode.LOCK_TIMEOUT);
      expect(error.file).toBe(file);
      expect(error.message).toContain(JSON.stringify(file));
      expect(error.message).toContain(JSON.stringify(`${file}.lock`));
      expect(error.message).toContain('another garuda process');
      expect(error.message).toContain('older than 5 s');
      // Reads need no lock.
      expect(await store.get('k')).toBeUndefined();
    } finally {
      await release();
    }
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('waits for a lock that is given back in time', async () => {
    const release = await holdLock();
    const { logger, lines } = recordingLogger();
    const store = new TrustStore(file, { lockTimeoutMs: 10_000, logger });
    const pending = store.set('k', 1);
    // Given back once it is known to wait (a fixed pause could end first on a busy machine).
    await waitFor(() => lines.debug.some((l) => l.includes('waiting for the lock')));
    await release();
    await pending;
    expect(await store.get('k')).toBe(1);
    expect(lines.debug.some((l) => l.includes('waiting for the lock'))).toBe(true);
  });

  it('takes over a lock folder left behind by a dead process', async () => {
    await fs.mkdir(`${file}.lock`, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(`${file}.lock`, old, old);
    const store = new TrustStore(file, { lockTimeoutMs: 5_000 });
    await store.set('k', 1);
    expect(await store.get('k')).toBe(1);
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a lock path that cannot be used is LOCK_FAILED, not a timeout', async () => {
    // A stale-looking regular file where the lock folder goes: it cannot be removed as a folder.
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(`${file}.lock`, 'x');
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(`${file}.lock`, old, old);
    const store = new TrustStore(file, { lockTimeoutMs: 200 });
    const error = (await caught(() => store.set('k', 1))) as TrustStoreError;
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_FAILED' });
    expect(error.code).toBe(TrustStoreErrorCode.LOCK_FAILED);
    expect(error.message).toContain(JSON.stringify(`${file}.lock`));
    expect(error.cause).toBeDefined();
  });

  it('a folder that cannot be created is WRITE_FAILED', async () => {
    const blocker = path.join(dir, 'notadir');
    await fs.writeFile(blocker, 'x');
    const store = new TrustStore(path.join(blocker, 'trust.json'));
    const error = (await caught(() => store.set('k', 1))) as TrustStoreError;
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_WRITE_FAILED' });
    expect(error.code).toBe(TrustStoreErrorCode.WRITE_FAILED);
    expect(error.message).toContain('create the folder');
    expect(error.message).toContain(JSON.stringify(blocker));
  });
});
