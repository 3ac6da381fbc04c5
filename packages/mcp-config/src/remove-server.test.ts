import { caught } from '@garuda/test-utils';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNotFound } from '../test/expect-not-found.js';
import { fingerprint } from '../test/fingerprint.js';
import { tempDirs } from '../test/temp-dir.js';
import { ConfigProblemCode } from './config-problem.js';
import { FileUnusableError } from './errors.js';
import { loadConfig } from './load-config.js';
import { removeServer } from './remove-server.js';

const dirs = tempDirs();

const TEXT = `{
  "$schema": "https://example.com/schema.json",
  "servers": {
    "first":  { "command": "a" },
    "My Server": { "command": "b" },
    "middle": {
      "url": "https://m.example/mcp"
    },
    "last": {"command": "z",   "args": []}
  },
  "other": true
}
`;

describe('removeServer', () => {
  it('removes one entry and one comma, and keeps every other byte', async () => {
    const { file } = await dirs.file();
    const expected: Record<string, string> = {
      first: TEXT.replace('"first":  { "command": "a" },\n    ', ''),
      middle: TEXT.replace('"middle": {\n      "url": "https://m.example/mcp"\n    },\n    ', ''),
      last: TEXT.replace(',\n    "last": {"command": "z",   "args": []}', ''),
      'My Server': TEXT.replace('"My Server": { "command": "b" },\n    ', ''),
    };
    for (const [name, after] of Object.entries(expected)) {
      await writeFile(file, TEXT);
      expect(await removeServer({ file, name })).toEqual({ file, name, action: 'removed' });
      expect(await readFile(file, 'utf8'), name).toBe(after);
    }
  });

  it('leaves an empty "servers" object after the last one', async () => {
    const { file } = await dirs.file(
      '{\n  "servers": {\n    "only": { "command": "x" }\n  },\n  "$schema": "s"\n}\n',
    );
    await removeServer({ file, name: 'only' });
    expect(await readFile(file, 'utf8')).toBe('{\n  "servers": {},\n  "$schema": "s"\n}\n');
    expect(await loadConfig({ userFile: file, env: {} })).toEqual({ servers: [], problems: [] });
  });

  it('removes every server one by one, the file staying valid', async () => {
    const { file } = await dirs.file(TEXT);
    for (const name of ['middle', 'first', 'last', 'My Server']) {
      await removeServer({ file, name });
      const { problems } = await loadConfig({ userFile: file, env: {} });
      expect(problems.map((p) => p.code)).not.toContain(ConfigProblemCode.INVALID_JSON);
    }
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      $schema: 'https://example.com/schema.json',
      servers: {},
      other: true,
    });
  });

  it('says NOT_FOUND for a missing server, file or folder, and creates nothing', async () => {
    const errors = await expectNotFound(await dirs.file(TEXT), 'first', (file, name) =>
      removeServer({ file, name }),
    );
    for (const [name, error] of errors) {
      expect((error as Error).message).toContain(`there is no server ${JSON.stringify(name)}`);
    }
  });

  it('never touches a file that does not parse or holds the name twice', async () => {
    const dir = await dirs.create();
    for (const [name, content] of [
      ['broken.json', '{"servers": {"first": {"command": "x"},}}'],
      ['twice.json', '{"servers": {"first": {"command": "a"}, "first": {"command": "b"}}}'],
    ] as const) {
      const file = path.join(dir, name);
      await writeFile(file, content);
      const before = await fingerprint(file);
      const error = await caught(removeServer({ file, name: 'first' }));
      expect(error, name).toBeInstanceOf(FileUnusableError);
      expect(await fingerprint(file)).toBe(before);
    }
  });

  it('keeps the file mode', async () => {
    const { file } = await dirs.file(TEXT);
    await chmod(file, 0o604);
    await removeServer({ file, name: 'first' });
    expect((await stat(file)).mode & 0o777).toBe(0o604);
  });

  it('checks its options', async () => {
    await expect(removeServer(null as never)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'CONFIG_INVALID_ARGUMENT',
    });
    await expect(removeServer({ file: '/x', name: '' })).rejects.toThrow(/name/);
    await expect(removeServer({ file: 5 as never, name: 'a' })).rejects.toThrow(/file/);
  });
});
