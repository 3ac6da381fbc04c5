import { caught } from '@garuda/test-utils';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNotFound } from '../test/expect-not-found.js';
import { fingerprint } from '../test/fingerprint.js';
import { ODD_END, oddStart } from '../test/odd-file.js';
import { tempDirs } from '../test/temp-dir.js';
import { ConfigProblemCode } from './config-problem.js';
import { LockedFileError, TrustStoreErrorCode } from '@garuda/mcp-trust';
import { FileUnusableError } from './errors.js';
import { loadConfig } from './load-config.js';
import { setServerEnabled } from './set-server-enabled.js';

const dirs = tempDirs();

const TEXT = `${oddStart('inline', 'multi')},
    "off": {
      "command": "c",
      "enabled": false,
      "timeoutMs": 5000
    },
    "empty": {},
    "My Server": { "command": "d", "timeoutMs": 5 }${ODD_END}`;

describe('setServerEnabled', () => {
  it('disables by adding "enabled": false after the last field; every other byte stays', async () => {
    const { file } = await dirs.file();
    const cases: Record<string, [before: string, after: string]> = {
      inline: [
        '{ "command": "a",   "args": ["x"] }',
        '{ "command": "a",   "args": ["x"], "enabled": false }',
      ],
      multi: [
        '"headers": {"X-A": "1"}\n    }',
        '"headers": {"X-A": "1"},\n        "enabled": false\n    }',
      ],
      empty: ['"empty": {}', '"empty": {\n      "enabled": false\n    }'],
    };
    for (const [name, [before, after]] of Object.entries(cases)) {
      await writeFile(file, TEXT);
      const result = await setServerEnabled({ file, name, enabled: false });
      expect(result).toEqual({ file, name, enabled: false, changed: true });
      expect(await readFile(file, 'utf8'), name).toBe(TEXT.replace(before, after));
      const { servers } = await loadConfig({ userFile: file, env: {} });
      const def = servers.find((s) => s.name === name)?.def;
      if (name !== 'empty') expect(def?.enabled, name).toBe(false);
    }
  });

  it('replaces the value of an existing "enabled" in place, both ways', async () => {
    const { file } = await dirs.file(TEXT);
    expect(await setServerEnabled({ file, name: 'off', enabled: true })).toMatchObject({
      changed: true,
      enabled: true,
    });
    const on = TEXT.replace('"enabled": false,', '"enabled": true,');
    expect(await readFile(file, 'utf8')).toBe(on);
    const { servers } = await loadConfig({ userFile: file, env: {} });
    expect(servers.find((s) => s.name === 'off')?.def.enabled).toBe(true);
    await setServerEnabled({ file, name: 'off', enabled: false });
    expect(await readFile(file, 'utf8')).toBe(TEXT);
  });

  it('writes nothing when the server already is so (enabled left out counts as true)', async () => {
    const { file } = await dirs.file(TEXT);
    const before = await fingerprint(file);
    for (const [name, enabled] of [
      ['inline', true],
      ['off', false],
    ] as const) {
      expect(await setServerEnabled({ file, name, enabled })).toEqual({
        file,
        name,
        enabled,
        changed: false,
      });
    }
    expect(await fingerprint(file)).toBe(before);
  });

  it('also disables an entry that does not load (a bad name, a bad field), which still reports its problem', async () => {
    const { file } = await dirs.file(TEXT);
    await setServerEnabled({ file, name: 'My Server', enabled: false });
    expect(await readFile(file, 'utf8')).toBe(
      TEXT.replace(
        '"My Server": { "command": "d", "timeoutMs": 5 }',
        '"My Server": { "command": "d", "timeoutMs": 5, "enabled": false }',
      ),
    );
    const { problems } = await loadConfig({ userFile: file, env: {} });
    const own = problems.filter((p) => p.server === 'My Server');
    expect(own.map((p) => [p.server, p.code])).toEqual([
      ['My Server', ConfigProblemCode.INVALID_NAME],
      ['My Server', ConfigProblemCode.INVALID_VALUE],
    ]);
  });

  it('follows tabs, CRLF and a byte order mark, and edits a file that says "mcpServers"', async () => {
    const { file } = await dirs.file(
      '\ufeff{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "x"\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
    await setServerEnabled({ file, name: 'a', enabled: false });
    expect(await readFile(file, 'utf8')).toBe(
      '\ufeff{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "x",\r\n\t\t\t"enabled": false\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('says NOT_FOUND for a missing server, file or folder, and creates nothing', async () => {
    const made = await dirs.file(TEXT);
    await expectNotFound(made, 'inline', (file, name) =>
      setServerEnabled({ file, name, enabled: false }),
    );
    await expect(stat(`${made.file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never touches a file that does not parse (comments included), holds the name or "enabled" twice, or whose entry is not an object', async () => {
    const dir = await dirs.create();
    const cases: ReadonlyArray<readonly [string, string, ConfigProblemCode]> = [
      ['broken.json', '{"servers": {"a": {"command": "x"},}}', ConfigProblemCode.INVALID_JSON],
      [
        'comment.json',
        '{\n  // my server\n  "servers": {"a": {"command": "x"}}\n}',
        ConfigProblemCode.INVALID_JSON,
      ],
      [
        'twice.json',
        '{"servers": {"a": {"command": "x"}, "a": {"command": "y"}}}',
        ConfigProblemCode.DUPLICATE_KEY,
      ],
      [
        'enabled-twice.json',
        '{"servers": {"a": {"command": "x", "enabled": true, "enabled": true}}}',
        ConfigProblemCode.DUPLICATE_KEY,
      ],
      ['string.json', '{"servers": {"a": "x"}}', ConfigProblemCode.NOT_AN_OBJECT],
    ];
    for (const [name, content, code] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, content);
      const before = await fingerprint(file);
      const error = await caught(setServerEnabled({ file, name: 'a', enabled: false }));
      expect(error, name).toBeInstanceOf(FileUnusableError);
      const problems = (error as FileUnusableError).problems;
      expect(
        problems.map((p) => p.code),
        name,
      ).toContain(code);
      for (const p of problems) expect(p.line, name).toBeGreaterThan(0);
      expect(await fingerprint(file), name).toBe(before);
    }
  });

  it('keeps the file mode', async () => {
    const { file } = await dirs.file(TEXT);
    await chmod(file, 0o604);
    await setServerEnabled({ file, name: 'inline', enabled: false });
    expect((await stat(file)).mode & 0o777).toBe(0o604);
  });

  it('waits for a held lock, then gives up with LOCK_TIMEOUT and writes nothing', async () => {
    const { file } = await dirs.file(TEXT);
    await mkdir(`${file}.lock`);
    const before = await fingerprint(file);
    const error = await caught(
      setServerEnabled({ file, name: 'inline', enabled: false, lockTimeoutMs: 200 }),
    );
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: TrustStoreErrorCode.LOCK_TIMEOUT });
    expect(await fingerprint(file)).toBe(before);
  });

  it('checks its options', async () => {
    await expect(setServerEnabled(null as never)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'CONFIG_INVALID_ARGUMENT',
    });
    await expect(setServerEnabled({ file: '/x', name: '', enabled: true })).rejects.toThrow(/name/);
    await expect(
      setServerEnabled({ file: '/x', name: 'a', enabled: 'no' as never }),
    ).rejects.toThrow(/enabled must be true or false/);
    await expect(setServerEnabled({ file: 5 as never, name: 'a', enabled: true })).rejects.toThrow(
      /file/,
    );
  });
});
