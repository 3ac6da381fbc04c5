// loadConfig on files that are not valid JSON, cannot be read, write a key twice or have an
// odd top level; and how many problems one file may report.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { itReportsEach, type BadCase } from '../test/bad-files.js';
import { fileWith, GOOD, userFileLoader } from '../test/config-files.js';
import { positionOfText, tempDirs, writeIn } from '../test/temp-dir.js';
import { ConfigProblemCode } from './config-problem.js';
import { loadConfig } from './load-config.js';

const dirs = tempDirs();
const loadUserFile = userFileLoader(dirs);

const SYNTAX_FILES: readonly BadCase[] = [
  // JSON syntax
  {
    name: 'a trailing comma',
    content: '{\n  "servers": {\n    "a": { "command": "x" },\n  }\n}\n',
    code: ConfigProblemCode.INVALID_JSON,
    at: '}\n}',
    goodLoads: false,
    says: 'trailing comma',
  },
  {
    name: 'a missing comma',
    content: '{"servers": {"good": {"command": "x"} "b": {"command": "y"}}}',
    code: ConfigProblemCode.INVALID_JSON,
    at: '"b"',
    goodLoads: false,
    says: 'a "," was expected',
  },
  {
    name: 'a comment',
    content: '{\n  // my servers\n  "servers": {}\n}',
    code: ConfigProblemCode.INVALID_JSON,
    at: '// my',
    goodLoads: false,
    says: 'comments are not allowed',
  },
  {
    name: 'an unclosed string',
    content: '{"servers": {"a": {"command": "x}}}',
    code: ConfigProblemCode.INVALID_JSON,
    goodLoads: false,
  },
  { name: 'an empty file', content: '', code: ConfigProblemCode.INVALID_JSON, goodLoads: false },
  {
    name: 'only whitespace',
    content: ' \n\t\n',
    code: ConfigProblemCode.INVALID_JSON,
    goodLoads: false,
    says: '"servers"',
  },
  {
    name: 'a top-level array',
    content: '[{"servers": {}}]',
    code: ConfigProblemCode.NOT_AN_OBJECT,
    at: '[',
    goodLoads: false,
  },
  {
    name: 'a top-level string',
    content: '"servers"',
    code: ConfigProblemCode.NOT_AN_OBJECT,
    goodLoads: false,
  },
  {
    name: '"servers" as an array',
    content: '{\n  "servers": [{ "command": "x" }]\n}',
    code: ConfigProblemCode.NOT_AN_OBJECT,
    field: 'servers',
    at: '[',
    goodLoads: false,
  },
  {
    name: 'nesting 10 000 levels deep',
    content: `{"servers": {"a": {"command": "x", "args": ${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`,
    code: ConfigProblemCode.TOO_DEEP,
    goodLoads: false,
  },
  {
    name: 'invalid UTF-8',
    content: Buffer.concat([
      Buffer.from('{"servers": {"a": {"command": "'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}}'),
    ]),
    code: ConfigProblemCode.FILE_NOT_TEXT,
    goodLoads: false,
  },
  {
    name: 'a 10 MB file',
    content: `{"servers": {${GOOD}}, "$schema": "${'x'.repeat(10 * 1024 * 1024)}"}`,
    code: ConfigProblemCode.FILE_TOO_LARGE,
    goodLoads: false,
    says: 'larger than 1 MiB',
  },
  {
    name: 'a file that is a directory',
    content: async (file) => {
      await mkdir(file, { recursive: true });
    },
    code: ConfigProblemCode.FILE_UNREADABLE,
    goodLoads: false,
    says: 'folder',
  },
  {
    name: 'a path through a file (ENOTDIR)',
    content: async (file) => {
      // The configured path is <file>/mcp.json; the test reads that, below a regular file.
      await writeFile(file, '{}');
    },
    code: ConfigProblemCode.FILE_UNREADABLE,
    goodLoads: false,
  },
  // duplicate keys
  {
    name: 'a server written twice',
    content: fileWith('"twice": { "command": "a" },\n    "twice": { "command": "b" }'),
    code: ConfigProblemCode.DUPLICATE_KEY,
    server: 'twice',
    at: '"twice": { "command": "b"',
    goodLoads: true,
    says: 'keep one',
  },
  {
    name: 'a field written twice',
    content: fileWith('"bad": { "command": "a", "command": "b" }'),
    code: ConfigProblemCode.DUPLICATE_KEY,
    server: 'bad',
    field: 'command',
    at: '"command": "b"',
    goodLoads: true,
  },
  {
    name: 'an env name written twice',
    content: fileWith('"bad": { "command": "a", "env": { "T": "1", "T": "2" } }'),
    code: ConfigProblemCode.DUPLICATE_KEY,
    server: 'bad',
    field: 'env.T',
    at: '"T": "2"',
    goodLoads: true,
  },
  {
    name: '"servers" written twice',
    content: `{\n  "servers": { ${GOOD} },\n  "servers": {}\n}`,
    code: ConfigProblemCode.DUPLICATE_KEY,
    field: 'servers',
    at: '"servers": {}',
    goodLoads: false,
  },
  // top level
  {
    name: 'an unknown top-level key',
    content: `{\n  "servers": { ${GOOD} },\n  "mcp_servers": {}\n}`,
    code: ConfigProblemCode.UNKNOWN_KEY,
    field: 'mcp_servers',
    at: '"mcp_servers"',
    goodLoads: true,
  },
  {
    name: 'a "$schema" that is not a string',
    content: `{\n  "$schema": 1,\n  "servers": { ${GOOD} }\n}`,
    code: ConfigProblemCode.INVALID_VALUE,
    field: '$schema',
    goodLoads: true,
  },
];

describe('loadConfig on bad files', () => {
  itReportsEach(dirs, SYNTAX_FILES);

  it('reports an unreadable file (EACCES) when not running as root', async () => {
    const dir = await dirs.create();
    const file = await writeIn(dir, 'mcp.json', `{ "servers": { ${GOOD} } }`);
    const { chmod } = await import('node:fs/promises');
    await chmod(file, 0o000);
    const result = await loadConfig({ userFile: file, env: {} });
    if (process.getuid?.() === 0) {
      // root reads it anyway; the child-process test in add-server.spawn.test.ts covers EACCES.
      expect(result.servers.map((s) => s.name)).toEqual(['good']);
    } else {
      expect(result.problems).toMatchObject([
        {
          code: ConfigProblemCode.FILE_UNREADABLE,
          file,
          message: expect.stringContaining('EACCES'),
        },
      ]);
      expect(result.servers).toEqual([]);
    }
  });

  it('refuses a FIFO at the path without waiting for a writer', async () => {
    const dir = await dirs.create();
    const file = path.join(dir, 'mcp.json');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [file]);
    const result = await loadConfig({ userFile: file, env: {} });
    expect(result.problems).toMatchObject([
      {
        code: ConfigProblemCode.FILE_UNREADABLE,
        file,
        message: expect.stringContaining('not a regular file'),
      },
    ]);
  });

  it('reports every bad server and still loads all good ones', async () => {
    const dir = await dirs.create();
    const text = `{
  "servers": {
    "one": { "command": "a" },
    "Bad": { "command": "b" },
    "two": { "url": "https://example.com/mcp" },
    "three": { "command": 1 },
    "four": { "command": "d", "env": { "A": "$(x)" } },
    "five": { "command": "e" }
  }
}`;
    const file = await writeIn(dir, 'mcp.json', text);
    const { servers, problems } = await loadConfig({ userFile: file, env: {} });
    expect(servers.map((s) => s.name)).toEqual(['one', 'two', 'five']);
    expect(problems.map((p) => [p.code, p.server, p.line])).toEqual([
      [ConfigProblemCode.INVALID_NAME, 'Bad', 4],
      [ConfigProblemCode.INVALID_VALUE, 'three', 6],
      [ConfigProblemCode.VALUE_REJECTED, 'four', 7],
    ]);
  });

  it('lists at most 100 problems per file and counts the rest', async () => {
    const bad = Array.from({ length: 300 }, (_, i) => `"bad${i}": { "command": ${i} }`);
    const { file, servers, problems } = await loadUserFile(fileWith(bad.join(',\n    ')));
    expect(servers.map((s) => s.name)).toEqual(['good']);
    expect(problems).toHaveLength(100);
    expect(problems[99]).toMatchObject({
      code: ConfigProblemCode.TOO_MANY_PROBLEMS,
      file,
      message: expect.stringContaining('201 more problems'),
    });
  });

  it('reports several syntax errors, each with its line and column', async () => {
    const text =
      '{\n  "servers": {\n    "a": { "command": \'x\' },\n    "b": { "command": "y" } "c": 1\n  }\n}';
    const { problems } = await loadUserFile(text);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.length).toBeLessThanOrEqual(5);
    expect(problems[0]).toMatchObject({
      code: ConfigProblemCode.INVALID_JSON,
      ...positionOfText(text, "'x'"),
    });
    expect(problems.some((p) => p.line === 4)).toBe(true);
  });
});
