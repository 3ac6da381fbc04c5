// loadConfig on env and header values: refused ones, their expansion, and its budget.

import { describe, expect, it } from 'vitest';
import { itReportsEach, type BadCase } from '../test/bad-files.js';
import { fileWith, userFileLoader } from '../test/config-files.js';
import { tempDirs, writeIn } from '../test/temp-dir.js';
import { ConfigProblemCode } from './config-problem.js';
import { loadConfig } from './load-config.js';

const dirs = tempDirs();
const loadUserFile = userFileLoader(dirs);

const VALUE_FILES: readonly BadCase[] = [
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
];

describe('loadConfig on bad files', () => {
  itReportsEach(dirs, VALUE_FILES);
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
    const before = process.cpuUsage();
    const { servers, problems } = await loadConfig({
      userFile: file,
      env: { BIG: 'x'.repeat(50_000) },
    });
    // A guard against runaway expansion (4 GB if nothing stopped it), not a speed test: the CPU
    // time this process spent, which a busy machine does not stretch, with a loose bound.
    const { user, system } = process.cpuUsage(before);
    expect((user + system) / 1000).toBeLessThan(20_000);
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
