import { mkdir, symlink, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { positionOfText, tempDirs } from '../test/temp-dir.js';
import { loadConfig } from './load-config.js';
import { validateServer } from './validate-server.js';

const dirs = tempDirs();

async function files(): Promise<{
  userFile: string;
  projectFile: string;
  mcpJson: string;
  dir: string;
}> {
  const dir = await dirs.create();
  const userFile = path.join(dir, 'home', 'mcp.json');
  const projectFile = path.join(dir, 'repo', '.garuda', 'mcp.json');
  const mcpJson = path.join(dir, 'repo', '.mcp.json');
  await mkdir(path.dirname(userFile), { recursive: true });
  await mkdir(path.dirname(projectFile), { recursive: true });
  return { userFile, projectFile, mcpJson, dir };
}

const CLAUDE_FILE = `{
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}" }
    },
    "docs": { "type": "http", "url": "https://mcp.example.com/mcp" },
    "mine": { "command": "theirs" },
    "fmt": { "command": "fmt-mcp" },
    "argvar": { "command": "x", "args": ["--key", "\${API_KEY}"] },
    "dflt": { "command": "x", "env": { "LEVEL": "\${LEVEL:-info}" } },
    "legacy": { "type": "sse", "url": "https://old.example.com/sse" },
    "helper": { "type": "http", "url": "https://h.example.com/mcp", "headersHelper": "get-headers" }
  }
}
`;

describe('loadConfig({ importedProjectFiles })', () => {
  it("reads Claude Code's .mcp.json in place as a project source, after the project's own servers", async () => {
    const f = await files();
    await writeFile(f.userFile, JSON.stringify({ servers: { mine: { command: 'my-own' } } }));
    await writeFile(
      f.projectFile,
      JSON.stringify({ servers: { fmt: { command: 'fmt-garuda' }, lint: { command: 'lint' } } }),
    );
    await writeFile(f.mcpJson, CLAUDE_FILE);
    const result = await loadConfig({
      userFile: f.userFile,
      projectFile: f.projectFile,
      importedProjectFiles: [{ file: f.mcpJson, client: 'claude' }],
      env: { GITHUB_TOKEN: 'gh-secret' },
    });
    expect(result.servers.map((s) => [s.source, s.name, path.basename(s.file)])).toEqual([
      ['user', 'mine', 'mcp.json'],
      ['project', 'fmt', 'mcp.json'],
      ['project', 'lint', 'mcp.json'],
      ['project', 'github', '.mcp.json'],
      ['project', 'docs', '.mcp.json'],
    ]);
    const github = result.servers[3];
    expect(github?.kind === 'local' && github.env.GITHUB_PERSONAL_ACCESS_TOKEN?.source).toEqual({
      kind: 'vars',
      names: ['GITHUB_TOKEN'],
      missing: [],
    });
    const problems = result.problems.map((p) => [p.code, p.server, p.field]);
    expect(problems).toEqual([
      ['NAME_CLASH', 'mine', undefined],
      ['NAME_CLASH', 'fmt', undefined],
      ['INVALID_VALUE', 'argvar', 'args[1]'],
      ['BAD_REFERENCE', 'dflt', 'env.LEVEL'],
      ['INVALID_VALUE', 'legacy', 'type'],
      ['UNKNOWN_KEY', 'helper', 'headersHelper'],
    ]);
    for (const p of result.problems) expect(p.file).toBe(f.mcpJson);
    expect(result.problems[0]).toMatchObject(positionOfText(CLAUDE_FILE, '"mine"'));
    expect(result.problems[0]?.message).toContain(
      'a repository cannot replace a server you configured',
    );
    expect(result.problems[1]?.message).toContain("the project's own configuration");
    expect(result.problems[2]).toMatchObject(positionOfText(CLAUDE_FILE, '"${API_KEY}"'));
    expect(result.problems[2]?.message).toContain('Claude Code expands there');
    expect(result.problems[3]?.message).toContain('${NAME:-default}');
    // One message per field: the Claude-specific one replaces the ordinary one.
    expect(result.problems.filter((p) => p.server === 'dflt')).toHaveLength(1);
  });

  it("a project server's name in a broken user file still cannot be taken; a missing or broken .mcp.json is the usual problem", async () => {
    const f = await files();
    await writeFile(f.userFile, '{ "servers": { "github": { "command": "x" }, } }');
    await writeFile(f.mcpJson, CLAUDE_FILE);
    const result = await loadConfig({
      userFile: f.userFile,
      importedProjectFiles: [{ file: f.mcpJson, client: 'claude' }],
      env: {},
    });
    expect(result.servers.map((s) => s.name)).not.toContain('github');
    expect(result.problems.find((p) => p.server === 'github')?.code).toBe('NAME_CLASH');

    const missing = await loadConfig({
      importedProjectFiles: [{ file: path.join(f.dir, 'nope', '.mcp.json'), client: 'claude' }],
      env: {},
    });
    expect(missing).toEqual({ servers: [], problems: [] });

    await writeFile(f.mcpJson, '{ "mcpServers": { "a": { "command": "x" } ');
    const broken = await loadConfig({
      importedProjectFiles: [{ file: f.mcpJson, client: 'claude' }],
      env: {},
    });
    expect(broken.servers).toEqual([]);
    expect(broken.problems[0]).toMatchObject({ code: 'INVALID_JSON', file: f.mcpJson, line: 1 });
  });

  it('reads a file once when it is also the user or project file, or listed twice', async () => {
    const f = await files();
    await writeFile(f.projectFile, JSON.stringify({ servers: { a: { command: 'a' } } }));
    await symlink(f.projectFile, f.mcpJson);
    const result = await loadConfig({
      projectFile: f.projectFile,
      importedProjectFiles: [
        { file: f.projectFile, client: 'claude' },
        { file: f.mcpJson, client: 'claude' },
        { file: f.mcpJson, client: 'claude' },
      ],
      env: {},
    });
    expect(result).toMatchObject({ servers: [{ name: 'a', file: f.projectFile }], problems: [] });
  });

  it('leaves loadConfig as it was without the option, and refuses a wrong option', async () => {
    const f = await files();
    await writeFile(f.mcpJson, CLAUDE_FILE);
    expect(await loadConfig({ env: {} })).toEqual({ servers: [], problems: [] });
    for (const bad of [
      {},
      [{ file: f.mcpJson }],
      [{ file: '', client: 'claude' }],
      [{ file: f.mcpJson, client: 'cursor' }],
    ]) {
      await expect(loadConfig({ env: {}, importedProjectFiles: bad as never })).rejects.toThrow(
        expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
      );
    }
  });
});

describe(
  'loadConfig({ importedProjectFiles }) never throws (property)',
  { timeout: 240_000 },
  () => {
    it('whatever .mcp.json holds, and loads only valid project servers', async () => {
      const f = await files();
      await writeFile(f.userFile, JSON.stringify({ servers: { mine: { command: 'x' } } }));
      const value = fc.oneof(
        fc.constantFrom(
          'x',
          '${A}',
          '${A:-b}',
          '$(id)',
          'https://a.example/mcp',
          'sse',
          'stdio',
          'http',
        ),
        fc.jsonValue({ maxDepth: 2 }),
      );
      const entry = fc.dictionary(
        fc.constantFrom('type', 'command', 'args', 'env', 'url', 'headers', 'headersHelper', 'cwd'),
        fc.oneof(
          value,
          fc.array(value, { maxLength: 3 }),
          fc.dictionary(fc.string({ maxLength: 6 }), value),
        ),
        { maxKeys: 5 },
      );
      const document = fc.oneof(
        fc
          .record({
            mcpServers: fc.dictionary(
              fc.oneof(fc.constantFrom('mine', 'a', 'B'), fc.string()),
              entry,
            ),
          })
          .map((d) => JSON.stringify(d, null, 2)),
        fc.string(),
      );
      await fc.assert(
        fc.asyncProperty(document, async (text) => {
          await writeFile(f.mcpJson, text);
          const result = await loadConfig({
            userFile: f.userFile,
            importedProjectFiles: [{ file: f.mcpJson, client: 'claude' }],
            env: { A: 'a' },
          });
          for (const server of result.servers.filter((s) => s.file === f.mcpJson)) {
            expect(server.source).toBe('project');
            expect(server.name).not.toBe('mine');
            expect(
              validateServer(server.name, JSON.parse(text).mcpServers[server.name], 'project')
                .issues,
            ).toEqual([]);
          }
          for (const problem of result.problems)
            expect([f.userFile, f.mcpJson]).toContain(problem.file);
        }),
        { numRuns: 200 },
      );
    });
  },
);
