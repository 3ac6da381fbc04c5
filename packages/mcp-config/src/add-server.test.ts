import { caught } from '@garuda/test-utils';
import { chmod, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../test/fingerprint.js';
import { ODD_END, oddStart } from '../test/odd-file.js';
import { tempDirs } from '../test/temp-dir.js';
import { addServer } from './add-server.js';
import { ConfigProblemCode } from './config-problem.js';
import { LockedFileError, TrustStoreErrorCode } from '@garuda/mcp-trust';
import { ConfigErrorCode, FileUnusableError, InvalidServerError } from './errors.js';
import { loadConfig } from './load-config.js';
import { MCP_CONFIG_SCHEMA_URL } from './json-schema.js';
import type { ServerEntry } from './server-types.js';

const dirs = tempDirs();

const PREFIX = oddStart('alpha', 'beta');
const SUFFIX = ODD_END;

/** Replaces the server "fs" of a user file with `def`, keeping the old entry's other fields. */
function replaceKeeping(file: string, def: ServerEntry): ReturnType<typeof addServer> {
  return addServer({ file, name: 'fs', def, source: 'user', replace: true, keepOtherFields: true });
}

describe('addServer', () => {
  it('creates a missing user file and folder, private, with the entry', async () => {
    const dir = await dirs.create();
    const file = path.join(dir, 'home', 'nested', 'mcp.json');
    const result = await addServer({
      file,
      name: 'github',
      def: { command: 'github-mcp-server', args: ['stdio'], env: { T: '${GITHUB_TOKEN}' } },
      source: 'user',
    });
    expect(result).toEqual({
      file,
      name: 'github',
      action: 'added',
      createdFile: true,
      def: {
        kind: 'local',
        command: 'github-mcp-server',
        args: ['stdio'],
        env: { T: '${GITHUB_TOKEN}' },
        network: false,
        writePaths: [],
        readPaths: [],
        timeoutMs: 60_000,
        enabled: true,
      },
      kept: [],
      dropped: [],
    });
    expect(await readFile(file, 'utf8')).toBe(
      '{\n  "$schema": "https://unpkg.com/@garuda/mcp-config/mcp.schema.json",\n  "servers": {\n    "github": {\n      "command": "github-mcp-server",\n      "args": [\n        "stdio"\n      ],\n      "env": {\n        "T": "${GITHUB_TOKEN}"\n      }\n    }\n  }\n}\n',
    );
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dir, 'home'))).mode & 0o777).toBe(0o700);
    const loaded = await loadConfig({ userFile: file, env: { GITHUB_TOKEN: 't' } });
    expect(loaded.problems).toEqual([]);
    expect(loaded.servers[0]?.def).toEqual(result.def);
  });

  it('creates a project file with the default mode', async () => {
    const dir = await dirs.create();
    const reference = path.join(dir, 'reference');
    await writeFile(reference, '');
    const file = path.join(dir, 'repo', '.garuda', 'mcp.json');
    await addServer({
      file,
      name: 'docs',
      def: { url: 'https://mcp.example.com/mcp' },
      source: 'project',
    });
    const mode = (await stat(file)).mode & 0o777;
    expect(mode).toBe((await stat(reference)).mode & 0o777);
    expect((await stat(path.dirname(file))).mode & 0o777).not.toBe(0o700);
  });

  it('adds after the last server and keeps every other byte', async () => {
    const { file } = await dirs.file(PREFIX + SUFFIX);
    const result = await addServer({
      file,
      name: 'gamma',
      def: { command: 'g', env: { A: 'b' } },
      source: 'user',
    });
    expect(result.action).toBe('added');
    expect(result.createdFile).toBe(false);
    const after = await readFile(file, 'utf8');
    expect(after).toBe(
      `${PREFIX},\n    "gamma": {\n      "command": "g",\n      "env": {\n        "A": "b"\n      }\n    }${SUFFIX}`,
    );
    const loaded = await loadConfig({ userFile: file, env: {} });
    expect(loaded.servers.map((s) => s.name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('follows the file’s tabs, CRLF line ends and byte order mark', async () => {
    const { file } = await dirs.file();
    const before = '\ufeff{\r\n\t"servers": {\r\n\t\t"a": {"command": "x"}\r\n\t}\r\n}\r\n';
    await writeFile(file, before);
    await addServer({ file, name: 'b', def: { command: 'y', args: ['1'] }, source: 'user' });
    expect(await readFile(file, 'utf8')).toBe(
      '\ufeff{\r\n\t"servers": {\r\n\t\t"a": {"command": "x"},\r\n\t\t"b": {\r\n\t\t\t"command": "y",\r\n\t\t\t"args": [\r\n\t\t\t\t"1"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('adds "servers" where it is missing or empty', async () => {
    const dir = await dirs.create();
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['{}', '{\n  "servers": {\n    "n": {\n      "command": "x"\n    }\n  }\n}'],
      ['{}\n', '{\n  "servers": {\n    "n": {\n      "command": "x"\n    }\n  }\n}\n'],
      [
        '{\n  "$schema": "s"\n}\n',
        '{\n  "$schema": "s",\n  "servers": {\n    "n": {\n      "command": "x"\n    }\n  }\n}\n',
      ],
      [
        '{\n  "servers": {}\n}\n',
        '{\n  "servers": {\n    "n": {\n      "command": "x"\n    }\n  }\n}\n',
      ],
      ['{"servers":{}}', '{"servers":{ "n": {"command":"x"} }}'],
      [
        '{"servers":{"a":{"command":"y"}}}',
        '{"servers":{"a":{"command":"y"}, "n": {"command":"x"}}}',
      ],
      ['{"$schema":"s"}', '{"$schema":"s", "servers": {"n":{"command":"x"}}}'],
    ];
    for (const [before, expected] of cases) {
      const file = path.join(dir, 'mcp.json');
      await writeFile(file, before);
      await addServer({ file, name: 'n', def: { command: 'x' }, source: 'user' });
      expect(await readFile(file, 'utf8'), before).toBe(expected);
    }
  });

  it('refuses an existing name unless replace is true, then changes only that entry', async () => {
    const { file } = await dirs.file(PREFIX + SUFFIX);
    const before = await fingerprint(file);
    const error = await caught(
      addServer({ file, name: 'alpha', def: { command: 'new' }, source: 'user' }),
    );
    expect(error).toMatchObject({ name: 'ServerEntryError', code: 'CONFIG_SERVER_EXISTS' });
    expect(error).toMatchObject({ code: ConfigErrorCode.SERVER_EXISTS, server: 'alpha' });
    expect(await fingerprint(file)).toEqual(before);

    const result = await addServer({
      file,
      name: 'alpha',
      def: { url: 'https://new.example/mcp' },
      source: 'user',
      replace: true,
    });
    expect(result.action).toBe('replaced');
    expect(result.kept).toEqual([]);
    expect(result.dropped).toEqual([]);
    const oldEntry = '{ "command": "a",   "args": ["x"] }';
    const at = PREFIX.indexOf(oldEntry);
    expect(await readFile(file, 'utf8')).toBe(
      `${PREFIX.slice(0, at)}{\n      "url": "https://new.example/mcp"\n    }${PREFIX.slice(at + oldEntry.length)}${SUFFIX}`,
    );
  });

  it('replace without keepOtherFields writes def as it is and names every old field it drops', async () => {
    const { file } = await dirs.file(
      '{"servers": {"fs": {"command": "old", "args": ["a"], "env": {"A": "1"}, "enabled": false, "writePaths": ["/data"], "readPaths": ["~/.kube"]}}}',
    );
    const result = await addServer({
      file,
      name: 'fs',
      def: { command: 'new', env: { B: '2' } },
      source: 'user',
      replace: true,
    });
    expect(result.kept).toEqual([]);
    expect(result.dropped).toEqual([
      { field: 'enabled', reason: 'not-given' },
      { field: 'writePaths', reason: 'not-given' },
      { field: 'readPaths', reason: 'not-given' },
    ]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      servers: { fs: { command: 'new', env: { B: '2' } } },
    });
  });

  it('keepOtherFields keeps what def leaves out, in place; the command line always comes from def', async () => {
    const { file } = await dirs.file();
    const other = '    "other": { "url": "https://o.example/mcp" }';
    await writeFile(
      file,
      `{\n  "servers": {\n${other},\n    "fs": {\n      "type": "stdio",\n      "command": "old",\n      "args": ["--old"],\n      "enabled": false,\n      "env": { "A": "\${A_TOKEN}" },\n      "writePaths": ["/data"],\n      "readPaths": ["~/.kube"],\n      "timeoutMs": 5000,\n      "cwd": "sub"\n    }\n  }\n}\n`,
    );
    const result = await replaceKeeping(file, { command: 'new', args: ['--new'], timeoutMs: 9000 });
    expect(result.action).toBe('replaced');
    expect(result.kept).toEqual(['enabled', 'env', 'writePaths', 'readPaths', 'cwd']);
    expect(result.dropped).toEqual([]);
    expect(result.def).toMatchObject({
      command: 'new',
      args: ['--new'],
      env: { A: '${A_TOKEN}' },
      writePaths: ['/data'],
      readPaths: ['~/.kube'],
      cwd: 'sub',
      timeoutMs: 9000,
      enabled: false,
    });
    const text = await readFile(file, 'utf8');
    // The other server's bytes stay; the entry is written in the schema's order, without "type".
    expect(text).toContain(
      `${other},\n    "fs": {\n      "command": "new",\n      "args": [\n        "--new"\n      ],\n      "env": {`,
    );
    expect(JSON.parse(text).servers.fs).toEqual({
      command: 'new',
      args: ['--new'],
      env: { A: '${A_TOKEN}' },
      cwd: 'sub',
      writePaths: ['/data'],
      readPaths: ['~/.kube'],
      timeoutMs: 9000,
      enabled: false,
    });
  });

  it('keepOtherFields drops what the new kind cannot have and what would not load, and says why', async () => {
    const { file } = await dirs.file(
      JSON.stringify({
        servers: {
          fs: {
            command: 'old',
            env: { A: '1' },
            network: true,
            readPaths: ['~/.kube'],
            timeoutMs: 5,
            enabled: false,
            extra: 1,
          },
        },
      }),
    );
    const result = await replaceKeeping(file, { url: 'https://new.example/mcp' });
    expect(result.kept).toEqual(['enabled']);
    expect(result.dropped).toEqual([
      { field: 'env', reason: 'other-kind' },
      { field: 'network', reason: 'other-kind' },
      { field: 'readPaths', reason: 'other-kind' },
      { field: 'timeoutMs', reason: 'invalid' },
      { field: 'extra', reason: 'unknown' },
    ]);
    expect(JSON.parse(await readFile(file, 'utf8')).servers.fs).toEqual({
      url: 'https://new.example/mcp',
      enabled: false,
    });
    const loaded = await loadConfig({ userFile: file, env: {} });
    expect(loaded.problems).toEqual([]);
    expect(loaded.servers[0]?.def).toEqual(result.def);
  });

  it('keepOtherFields judges old fields beside the new entry, also when the old entry was broken', async () => {
    const { file } = await dirs.file();
    // Both "command" and "url": the old entry never loaded, and its timeoutMs was never checked.
    await writeFile(
      file,
      JSON.stringify({
        servers: { fs: { command: 'a', url: 'https://a.example', timeoutMs: 5, network: true } },
      }),
    );
    const result = await replaceKeeping(file, { command: 'b' });
    expect(result.kept).toEqual(['network']);
    expect(result.dropped).toEqual([{ field: 'timeoutMs', reason: 'invalid' }]);
    expect(JSON.parse(await readFile(file, 'utf8')).servers.fs).toEqual({
      command: 'b',
      network: true,
    });
  });

  it('refuses an invalid entry with the messages loadConfig gives', async () => {
    const { dir, file } = await dirs.file();
    const cases: ReadonlyArray<readonly [string, unknown, 'user' | 'project']> = [
      ['My Server', { command: 'x' }, 'user'],
      ['a'.repeat(33), { command: 'x' }, 'user'],
      ['ok', { command: 'x', url: 'https://a.example' }, 'user'],
      ['ok', { args: ['x'] }, 'user'],
      ['ok', { command: 'x', args: ['a', 3], timeoutMs: 10, extra: true }, 'user'],
      ['ok', { command: 'x', env: { T: '$(cat ~/.ssh/id_rsa)', 'BAD-NAME': 'x' } }, 'user'],
      ['ok', { url: 'http://localhost:3000/mcp' }, 'project'],
      ['ok', { url: 'https://10.0.0.1/mcp', headers: { Host: 'x', A: '`id`' } }, 'project'],
      ['ok', { url: 'https://a.example', oauth: { clientId: '', other: 1 } }, 'user'],
      ['ok', 'github-mcp-server', 'user'],
    ];
    for (const [name, def, source] of cases) {
      const error = await caught(addServer({ file, name, def: def as ServerEntry, source }));
      expect(error, JSON.stringify(def)).toBeInstanceOf(InvalidServerError);
      const problems = (error as InvalidServerError).problems;
      expect(problems.length).toBeGreaterThan(0);

      const probe = path.join(dir, `probe-${source}.json`);
      await writeFile(probe, JSON.stringify({ servers: { [name]: def } }));
      const loaded = await loadConfig(
        source === 'user' ? { userFile: probe, env: {} } : { projectFile: probe, env: {} },
      );
      // loadConfig lists problems in file order; the set must be the same.
      const key = (p: { code: string; server?: string; field?: string; message: string }): string =>
        JSON.stringify([p.code, p.server, p.field, p.message]);
      expect(problems.map(key).sort()).toEqual(loaded.problems.map(key).sort());
      for (const p of problems) expect(p.file).toBe(file);
      expect((error as Error).message).toContain(problems[0]?.message);
    }
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('lets a user file use http on localhost', async () => {
    const { file } = await dirs.file();
    const result = await addServer({
      file,
      name: 'dev',
      def: { url: 'http://localhost:3000/mcp' },
      source: 'user',
    });
    expect(result.def).toMatchObject({ kind: 'remote', url: 'http://localhost:3000/mcp' });
  });

  it('never touches a file that does not parse, is too large or holds the name twice', async () => {
    const dir = await dirs.create();
    const cases: ReadonlyArray<readonly [string, string | Buffer, ConfigProblemCode]> = [
      ['broken.json', '{"servers": {"a": {"command": "x"},}}', ConfigProblemCode.INVALID_JSON],
      ['comment.json', '// mine\n{"servers": {}}', ConfigProblemCode.INVALID_JSON],
      ['array.json', '[]', ConfigProblemCode.NOT_AN_OBJECT],
      ['servers.json', '{"servers": []}', ConfigProblemCode.NOT_AN_OBJECT],
      ['empty.json', '', ConfigProblemCode.INVALID_JSON],
      ['binary.json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), ConfigProblemCode.FILE_NOT_TEXT],
      [
        'large.json',
        `{"servers": {}, "$schema": "${'x'.repeat(1024 * 1024)}"}`,
        ConfigProblemCode.FILE_TOO_LARGE,
      ],
      [
        'twice.json',
        '{"servers": {"n": {"command": "a"}, "n": {"command": "b"}}}',
        ConfigProblemCode.DUPLICATE_KEY,
      ],
      [
        'deep.json',
        `{"servers": {}, "x": ${'['.repeat(100)}${']'.repeat(100)}}`,
        ConfigProblemCode.TOO_DEEP,
      ],
    ];
    for (const [name, content, code] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, content);
      const before = await fingerprint(file);
      const error = await caught(
        addServer({ file, name: 'n', def: { command: 'x' }, source: 'user', replace: true }),
      );
      expect(error, name).toBeInstanceOf(FileUnusableError);
      expect((error as FileUnusableError).problems.map((p) => p.code)).toContain(code);
      expect((error as FileUnusableError).message).toContain('was not changed');
      expect(await fingerprint(file), name).toEqual(before);
      await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });

  it('refuses a folder at the file path', async () => {
    const { file } = await dirs.file();
    await mkdir(file);
    const error = await caught(
      addServer({ file, name: 'n', def: { command: 'x' }, source: 'user' }),
    );
    expect(error).toBeInstanceOf(FileUnusableError);
    expect((error as FileUnusableError).problems[0]?.code).toBe(ConfigProblemCode.FILE_UNREADABLE);
  });

  it('keeps the mode of an existing file', async () => {
    const { file } = await dirs.file('{"servers": {}}');
    await chmod(file, 0o640);
    await addServer({ file, name: 'n', def: { command: 'x' }, source: 'user' });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('waits for a held lock, then gives up with LOCK_TIMEOUT and writes nothing', async () => {
    const { file } = await dirs.file('{"servers": {}}');
    await mkdir(`${file}.lock`);
    const before = await fingerprint(file);
    const started = performance.now();
    const error = await caught(
      addServer({ file, name: 'n', def: { command: 'x' }, source: 'user', lockTimeoutMs: 300 }),
    );
    const waited = performance.now() - started;
    // The lock's own error, from @garuda/mcp-trust, passed through.
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: TrustStoreErrorCode.LOCK_TIMEOUT, file });
    // It waited the given 300 ms, not the default 10 s: said by the error rather than measured
    // from above (a busy machine adds to any wait; only the lower bound holds whatever the load).
    expect((error as Error).message).toContain('within 300 ms');
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(await fingerprint(file)).toEqual(before);
  });

  it('takes over a lock left behind by a process that died', async () => {
    const { file } = await dirs.file('{"servers": {}}');
    await mkdir(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    await addServer({ file, name: 'n', def: { command: 'x' }, source: 'user', lockTimeoutMs: 300 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ servers: { n: { command: 'x' } } });
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a folder that cannot be created as WRITE_FAILED', async () => {
    const dir = await dirs.create();
    await writeFile(path.join(dir, 'blocker'), '');
    const error = await caught(
      addServer({
        file: path.join(dir, 'blocker', 'mcp.json'),
        name: 'n',
        def: { command: 'x' },
        source: 'user',
      }),
    );
    expect(error).toMatchObject({ name: 'ConfigError', code: 'CONFIG_WRITE_FAILED' });
    expect(error).toMatchObject({ code: ConfigErrorCode.WRITE_FAILED });
  });

  it('writes a plain copy of what it checked', async () => {
    const { file } = await dirs.file();
    const def = Object.create({ network: true }) as Record<string, unknown>;
    def.command = 'x';
    await addServer({ file, name: 'n', def: def as never, source: 'user' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      $schema: MCP_CONFIG_SCHEMA_URL,
      servers: { n: { command: 'x' } },
    });
  });

  it('checks its options', async () => {
    const { file } = await dirs.file();
    const ok = { file, name: 'n', def: { command: 'x' }, source: 'user' } as const;
    await expect(addServer(undefined as never)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'CONFIG_INVALID_ARGUMENT',
    });
    await expect(addServer({ ...ok, file: '' })).rejects.toThrow(/file/);
    await expect(addServer({ ...ok, name: 1 as never })).rejects.toThrow(/name/);
    await expect(addServer({ ...ok, source: 'x' as never })).rejects.toThrow(/source/);
    await expect(addServer({ ...ok, replace: 'yes' as never })).rejects.toThrow(/replace/);
    await expect(addServer({ ...ok, lockTimeoutMs: -1 })).rejects.toThrow(/lockTimeoutMs/);
    await expect(addServer({ ...ok, def: { command: 'x', n: 10n } as never })).rejects.toThrow(
      /plain JSON/,
    );
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
