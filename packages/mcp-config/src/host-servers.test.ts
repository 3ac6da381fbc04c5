import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDefaults } from '../test/local-defaults.js';
import { tempDirs } from '../test/temp-dir.js';
import { ConfigProblemCode } from './config-problem.js';
import { ConfigError } from './errors.js';
import type { HostServers } from './host-servers.js';
import { loadConfig } from './load-config.js';

const dirs = tempDirs();
const LABEL = 'McpManager option "servers"';

function host(servers: Record<string, unknown>): HostServers {
  return { label: LABEL, servers: servers as HostServers['servers'] };
}

describe('loadConfig({ hostServers })', () => {
  it("reads the host's servers first, as the user's own, checked and expanded like a file's", async () => {
    const { file } = await dirs.file('{ "servers": { "mine": { "command": "mine-server" } } }');
    const result = await loadConfig({
      userFile: file,
      hostServers: host({
        demo: { command: 'demo-server', env: { TOKEN: '${DEMO_TOKEN}' } },
        // A user's own server may use http on loopback; a project's may not.
        local: { url: 'http://127.0.0.1:8080/mcp' },
      }),
      env: { DEMO_TOKEN: 'secret' },
    });
    expect(result.problems).toEqual([]);
    expect(result.servers.map((s) => [s.name, s.source, s.file])).toEqual([
      ['demo', 'user', LABEL],
      ['local', 'user', LABEL],
      ['mine', 'user', file],
    ]);
    const demo = result.servers[0];
    expect(demo?.kind === 'local' && demo.def).toEqual({
      ...localDefaults('demo-server'),
      env: { TOKEN: '${DEMO_TOKEN}' },
    });
    expect(demo?.kind === 'local' && demo.env.TOKEN).toEqual({
      value: 'secret',
      source: { kind: 'vars', names: ['DEMO_TOKEN'], missing: [] },
    });
  });

  it("a file's server with one of the host's names is ignored, and the message says by whom", async () => {
    const dir = await dirs.create();
    const userFile = path.join(dir, 'mcp.json');
    const projectFile = path.join(dir, 'project.json');
    const claudeFile = path.join(dir, '.mcp.json');
    await writeFile(userFile, '{ "servers": { "demo": { "command": "user-demo" } } }');
    await writeFile(projectFile, '{ "servers": { "other": { "command": "project-other" } } }');
    await writeFile(claudeFile, '{ "mcpServers": { "other": { "command": "claude-other" } } }');
    const result = await loadConfig({
      userFile,
      projectFile,
      importedProjectFiles: [{ file: claudeFile, client: 'claude' }],
      hostServers: host({ demo: { command: 'host-demo' }, other: { command: 'host-other' } }),
      env: {},
    });
    expect(result.servers.map((s) => [s.name, s.file])).toEqual([
      ['demo', LABEL],
      ['other', LABEL],
    ]);
    expect(result.problems.map((p) => [p.code, p.file, p.server, p.line])).toEqual([
      [ConfigProblemCode.NAME_CLASH, userFile, 'demo', 1],
      [ConfigProblemCode.NAME_CLASH, projectFile, 'other', 1],
      [ConfigProblemCode.NAME_CLASH, claudeFile, 'other', 1],
    ]);
    expect(result.problems[0]?.message).toBe(
      `server "demo" is also given by ${LABEL}, which comes first, so the one in this file is ` +
        'ignored; give one of them another name to use both',
    );
    for (const p of result.problems.slice(1)) {
      expect(p.message).toContain(`is also one of your own (given by ${LABEL})`);
      expect(p.message).toContain('a repository cannot replace a server you configured');
    }
  });

  it('a bad server is a problem named by the label, and the others still load', async () => {
    const result = await loadConfig({
      hostServers: host({
        good: { command: 'good-server' },
        'Bad Name': { command: 'x' },
        typo: { command: 'x', networks: true },
        both: { command: 'x', url: 'https://example.com/mcp' },
      }),
      env: {},
    });
    expect(result.servers.map((s) => s.name)).toEqual(['good']);
    expect(result.problems.map((p) => [p.code, p.file, p.server, p.field])).toEqual([
      [ConfigProblemCode.INVALID_NAME, LABEL, 'Bad Name', undefined],
      [ConfigProblemCode.UNKNOWN_KEY, LABEL, 'typo', 'networks'],
      [ConfigProblemCode.BOTH_KINDS, LABEL, 'both', undefined],
    ]);
    for (const p of result.problems) expect(p).not.toHaveProperty('line');
  });

  it('what a file could not hold is a problem, never a throw', async () => {
    const cycle: Record<string, unknown> = { command: 'x' };
    cycle.self = cycle;
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    const result = await loadConfig({
      hostServers: host({
        cycle,
        big: { command: 'x', timeoutMs: 10n },
        fn: () => 'x',
        getter: {
          get command(): string {
            throw new Error('no');
          },
        },
        deep: { command: 'x', args: deep },
        good: { command: 'good-server' },
      }),
      env: {},
    });
    expect(result.servers.map((s) => s.name)).toEqual(['good']);
    expect(result.problems.map((p) => [p.code, p.server])).toEqual([
      [ConfigProblemCode.NOT_AN_OBJECT, 'cycle'],
      [ConfigProblemCode.NOT_AN_OBJECT, 'big'],
      [ConfigProblemCode.NOT_AN_OBJECT, 'fn'],
      [ConfigProblemCode.NOT_AN_OBJECT, 'getter'],
      [ConfigProblemCode.NOT_AN_OBJECT, 'deep'],
    ]);
    expect(result.problems[0]?.message).toMatch(/^server "cycle" is not plain data \(.+\): pass/);
    expect(result.problems[4]?.message).toContain('it nests too deep');
  });

  it.each([
    ['not an object', 'servers'],
    ['no label', { servers: {} }],
    ['an empty label', { label: ' ', servers: {} }],
    ['servers as a list', { label: LABEL, servers: [] }],
  ])('hostServers %s is a programming error', async (_, hostServers) => {
    const error = await loadConfig({ hostServers: hostServers as never, env: {} }).catch(
      (e: unknown) => e,
    );
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID_ARGUMENT');
    expect((error as Error).message).toContain('hostServers must be { label, servers }');
  });
});
