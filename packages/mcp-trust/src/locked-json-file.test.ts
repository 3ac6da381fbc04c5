import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { waitFor } from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught, recordingLogger, tempDirEachTest } from '../test/helpers.js';
import { type LockedFileError, TrustStoreErrorCode } from './errors.js';
import { LockedJsonFile, type LockedJsonFileOptions } from './locked-json-file.js';

const temp = tempDirEachTest();
let file: string;
beforeEach(() => {
  file = path.join(temp.dir, 'home', 'notes.json');
});

// A list of strings, as a store built on the primitive would keep it.
function notes(options: Partial<LockedJsonFileOptions<string[]>> = {}): LockedJsonFile<string[]> {
  return new LockedJsonFile<string[]>(file, {
    label: 'notes file',
    fromJson: (data) =>
      Array.isArray(data) && data.every((n) => typeof n === 'string')
        ? { ok: true, value: data as string[] }
        : { ok: false, reason: 'it is not a list of strings' },
    toJson: (value) => value,
    ...options,
  });
}

const add = (note: string) => (current: string[] | undefined) => ({
  write: [...(current ?? []), note],
  result: (current ?? []).length,
});

const stamp = () => new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 6));
const aside = () => `${file}.corrupt-2031-01-02T03-04-05-006Z`;

describe('LockedJsonFile: reading and writing', () => {
  it('a missing file reads as missing and loads as undefined, creating nothing', async () => {
    const store = notes();
    expect(await store.read()).toEqual({ kind: 'missing' });
    expect(await store.load()).toBeUndefined();
    await expect(fs.stat(path.dirname(file))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes a 0600 file in a new 0700 folder, as indented JSON, leaving nothing else', async () => {
    const store = notes();
    expect(await store.update(add('first'))).toBe(0);
    expect(await store.update(add('second'))).toBe(1);
    expect(await fs.readFile(file, 'utf8')).toBe('[\n  "first",\n  "second"\n]\n');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await fs.readdir(path.dirname(file))).toEqual(['notes.json']);
    expect(await store.read()).toEqual({ kind: 'ok', value: ['first', 'second'] });
    expect(store.file).toBe(file);
    expect(store.lockFile).toBe(`${file}.lock`);
    expect(store.label).toBe('notes file');
  });

  it('uses the given modes, and gives an existing file its mode again on write', async () => {
    const store = notes({ mode: 0o640, folderMode: 0o750 });
    await store.update(add('a'));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o750);
    await fs.chmod(file, 0o666);
    await store.update(add('b'));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
  });

  it('writes nothing when the change returns no value', async () => {
    const store = notes();
    expect(await store.update(() => ({ result: 'nothing' }))).toBe('nothing');
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.update(add('a'));
    const before = await fs.stat(file);
    await store.update((current) => ({ write: undefined, result: current }));
    expect((await fs.stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  it('a change that throws writes nothing and gives the lock back', async () => {
    const store = notes({ lockTimeoutMs: 200 });
    await store.update(add('kept'));
    const thrown = new Error('from the change');
    expect(
      await caught(() =>
        store.update(() => {
          throw thrown;
        }),
      ),
    ).toBe(thrown);
    expect(await store.load()).toEqual(['kept']);
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.update(add('next')); // would time out if the lock had been kept
  });

  it('keeps every change of one instance made at once, in order', async () => {
    const store = notes();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        store.update(async (current) => {
          await new Promise((r) => setTimeout(r, 1));
          return add(`n${i}`)(current);
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(await store.load()).toEqual(Array.from({ length: 30 }, (_, i) => `n${i}`));
  });

  it('sees every change between two reads: by rename, rewritten in place at the same size, removed', async () => {
    const store = notes();
    await store.update(add('aaaa'));
    expect(await store.load()).toEqual(['aaaa']);
    // Another writer replaces the file (a new inode).
    await fs.writeFile(`${file}.new`, '["bbbb"]\n');
    await fs.rename(`${file}.new`, file);
    expect(await store.load()).toEqual(['bbbb']);
    // An editor rewrites it in place: same inode, same size, other bytes.
    await fs.writeFile(file, '["cccc"]\n');
    expect(await store.load()).toEqual(['cccc']);
    // What a read returns is the caller's own: changing it changes nothing read later.
    const mine = await store.load();
    mine?.push('mine');
    expect(await store.load()).toEqual(['cccc']);
    await fs.rm(file);
    expect(await store.read()).toEqual({ kind: 'missing' });
  });

  it('a settled file read once is still read anew after an edit that keeps its size and times', async () => {
    const store = notes();
    await store.update(add('aaaa'));
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await fs.utimes(file, old, old);
    expect(await store.load()).toEqual(['aaaa']);
    expect(await store.load()).toEqual(['aaaa']);
    // Same inode, same size, the old times put back: only the change time tells.
    await fs.writeFile(file, '["dddd"]\n');
    await fs.utimes(file, old, old);
    expect(await store.load()).toEqual(['dddd']);
  });

  it('reads a file with a byte order mark', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '\ufeff["a"]');
    expect(await notes().load()).toEqual(['a']);
  });

  it('a file read as missing is read as soon as it exists, and a remembered one as soon as it goes', async () => {
    const store = notes();
    expect(await store.read()).toEqual({ kind: 'missing' });
    expect(await store.read()).toEqual({ kind: 'missing' });
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '["made"]\n');
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await fs.utimes(file, old, old);
    expect(await store.load()).toEqual(['made']);
    expect(await store.load()).toEqual(['made']);
    await fs.rm(file);
    expect(await store.read()).toEqual({ kind: 'missing' });
    // A folder where the file was is not "still missing": it is unreadable.
    await fs.mkdir(file);
    await expect(store.read()).rejects.toMatchObject({ code: 'TRUST_FILE_UNREADABLE' });
  });
});

describe('LockedJsonFile: corrupt files', () => {
  it.each([
    ['invalid JSON', '["a", ', 'it is not valid JSON'],
    ['an empty file', '  \n', 'it is empty'],
    ['JSON that fromJson refuses', '{"a": 1}', 'it is not a list of strings'],
  ])('read() reports %s and moves nothing', async (_, content, reason) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    expect(await notes().read()).toEqual({ kind: 'corrupt', reason });
    expect(await fs.readFile(file, 'utf8')).toBe(content);
  });

  it('load() moves a corrupt file aside under the lock, with a warning naming both paths', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"a": 1}');
    const { logger, lines } = recordingLogger();
    const store = notes({ logger, now: stamp, afterMoveAside: 'your notes start over.' });
    expect(await store.load()).toBeUndefined();
    expect(await fs.readFile(aside(), 'utf8')).toBe('{"a": 1}');
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(lines.warn).toEqual([
      `the notes file ${JSON.stringify(file)} could not be used (it is not a list of strings). ` +
        `It was moved to ${JSON.stringify(aside())} and your notes start over.`,
    ]);
  });

  it('update() moves a corrupt file aside and starts from nothing, never over an earlier one', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const { logger, lines } = recordingLogger();
    const store = notes({ logger, now: stamp });
    await fs.writeFile(file, 'first');
    expect(await store.update(add('a'))).toBe(0);
    await fs.writeFile(file, 'second');
    expect(await store.update(add('b'))).toBe(0);
    expect(await fs.readFile(aside(), 'utf8')).toBe('first');
    expect(await fs.readFile(`${aside()}-1`, 'utf8')).toBe('second');
    expect(await store.load()).toEqual(['b']);
    expect(lines.warn).toHaveLength(2);
    expect(lines.warn[0]).toContain('the store starts empty.');
  });

  it('a corrupt file that cannot be moved aside is MOVE_ASIDE_FAILED and is left alone', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'nope');
    // Every name it may move the file to is taken by a folder, which rename() cannot replace.
    await fs.mkdir(aside());
    for (let i = 1; i < 1000; i++) await fs.mkdir(`${aside()}-${i}`);
    const error = (await caught(() => notes({ now: stamp }).load())) as LockedFileError;
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_MOVE_ASIDE_FAILED' });
    expect(error.code).toBe(TrustStoreErrorCode.MOVE_ASIDE_FAILED);
    expect(error).toMatchObject({ file, path: `${aside()}-999` });
    expect(error.message).toContain(`the notes file ${JSON.stringify(file)} is corrupt`);
    expect(error.message).not.toContain('servers you trusted');
    expect(await fs.readFile(file, 'utf8')).toBe('nope');
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a clock that returns no valid date is an InvalidOptionError, and nothing moves', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'nope');
    const store = notes({ now: () => new Date(Number.NaN) });
    await expect(store.load()).rejects.toMatchObject({
      name: 'TrustStoreError',
      code: 'TRUST_INVALID_OPTION',
    });
    expect(await fs.readFile(file, 'utf8')).toBe('nope');
  });
});

describe('LockedJsonFile: permissions and failures', () => {
  it('warns once when asked to and others can read the file', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '["a"]');
    await fs.chmod(file, 0o644);
    const { logger, lines } = recordingLogger();
    const quiet = notes({ logger });
    await quiet.load();
    expect(lines.warn).toEqual([]);
    const store = notes({ logger, warnIfReadableByOthers: true });
    await store.load();
    await store.load();
    expect(lines.warn).toEqual([
      `the notes file ${JSON.stringify(file)} can be read by other users (mode 644): run chmod ` +
        `600 on it; its next change writes it with mode 600`,
    ]);
  });

  it('leaves an existing folder as it is, and warns when others can write to it', async () => {
    const folder = path.dirname(file);
    await fs.mkdir(folder, { recursive: true });
    await fs.chmod(folder, 0o777);
    const { logger, lines } = recordingLogger();
    const store = notes({ logger });
    await store.update(add('a'));
    await store.update(add('b'));
    expect((await fs.stat(folder)).mode & 0o777).toBe(0o777);
    expect(lines.warn).toEqual([
      `the folder ${JSON.stringify(folder)} of the notes file can be written by other users ` +
        `(mode 777), who could replace the notes file: run chmod 700 on it`,
    ]);
  });

  it('a folder at the file path is FILE_UNREADABLE, named with the label', async () => {
    await fs.mkdir(file, { recursive: true });
    for (const op of [() => notes().load(), () => notes().update(add('a'))]) {
      const error = (await caught(op)) as LockedFileError;
      expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_FILE_UNREADABLE' });
      expect(error.code).toBe(TrustStoreErrorCode.FILE_UNREADABLE);
      expect(error.message).toBe(
        `cannot read the notes file ${JSON.stringify(file)}: it is a folder, not a file: move it ` +
          `away or pass another path`,
      );
    }
    expect((await fs.stat(file)).isDirectory()).toBe(true);
  });

  it('a folder that cannot be created is WRITE_FAILED, naming the folder', async () => {
    await fs.writeFile(path.join(temp.dir, 'home'), 'a file, not a folder');
    const error = (await caught(() => notes().update(add('a')))) as LockedFileError;
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_WRITE_FAILED' });
    expect(error.code).toBe(TrustStoreErrorCode.WRITE_FAILED);
    expect(error).toMatchObject({ file, path: path.join(temp.dir, 'home') });
    expect(error.message).toContain(
      `could not create the folder ${JSON.stringify(path.join(temp.dir, 'home'))}`,
    );
    expect(error.message).toContain('the notes file was left as it was');
  });

  it('times out with the label when another process holds the lock', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.mkdir(`${file}.lock`);
    const error = (await caught(() =>
      notes({ lockTimeoutMs: 200, lockStaleMs: 60_000 }).update(add('a')),
    )) as LockedFileError;
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_TIMEOUT' });
    expect(error.message).toContain(
      `could not lock the notes file ${JSON.stringify(file)} within 200 ms`,
    );
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes nothing when the lock was lost during the change', async () => {
    const { logger, lines } = recordingLogger();
    const store = notes({ lockStaleMs: 2_000, logger });
    await store.update(add('kept'));
    const error = await caught(() =>
      store.update(async (current) => {
        await fs.rmdir(`${file}.lock`);
        // The lock is refreshed every lockStaleMs / 2, which finds it gone: the change goes on
        // once that is known (a fixed wait could end first on a busy machine).
        await waitFor(() => lines.warn.some((line) => line.includes('lost the lock')), {
          timeoutMs: 60_000,
        });
        return add('lost')(current);
      }),
    );
    expect(error).toMatchObject({ name: 'LockedFileError', code: 'TRUST_LOCK_COMPROMISED' });
    expect(await store.load()).toEqual(['kept']);
  });

  it('checks its options', () => {
    const fromJson = () => ({ ok: false as const, reason: 'x' });
    const toJson = (v: unknown) => v;
    expect(() => new LockedJsonFile('', { fromJson, toJson })).toThrow(
      /the trust file path must be a non-empty string/,
    );
    expect(() => new LockedJsonFile(file, { fromJson } as never)).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_OPTION' }),
    );
    expect(() => new LockedJsonFile(file, { fromJson, toJson, lockStaleMs: 10 })).toThrow(
      /options\.lockStaleMs must be a finite number of milliseconds, at least 2000, got 10/,
    );
    expect(() => new LockedJsonFile(file, { fromJson, toJson, lockTimeoutMs: -1 })).toThrow(
      /options\.lockTimeoutMs/,
    );
    expect(() => new LockedJsonFile(file, { fromJson, toJson, mode: 0o1000 })).toThrow(
      /options\.mode/,
    );
    expect(() => new LockedJsonFile(file, { fromJson, toJson, now: 1 as never })).toThrow(
      /options\.now/,
    );
  });
});
