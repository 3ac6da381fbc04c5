// garuda-mcp import: other MCP clients' files, read and written into Garuda's, without a terminal.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE_SERVER } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { worldPerTest, type CliWorld } from './cli-support.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('import', () => {
  const SECRET = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

  async function otherClients(): Promise<void> {
    // Claude Code: a repository's .mcp.json and the user's ~/.claude.json; Cursor: an SSE one.
    await writeFile(
      path.join(world.root, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          'repo-notes': {
            type: 'stdio',
            command: process.execPath,
            args: [FIXTURE_SERVER, 'normal'],
          },
        },
      }),
    );
    await writeFile(
      path.join(world.userHome, '.claude.json'),
      JSON.stringify({
        numStartups: 3,
        mcpServers: {
          github: {
            type: 'stdio',
            command: 'github-mcp-server',
            args: ['stdio'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET },
          },
        },
      }),
    );
    await mkdir(path.join(world.userHome, '.cursor'), { recursive: true });
    await writeFile(
      path.join(world.userHome, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { legacy: { url: 'https://example.com/sse' } } }),
    );
  }

  it('shows what other clients configure and writes nothing without --all or --only', async () => {
    await otherClients();
    const shown = await world.run(['import']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^\s+repo-notes\s+claude\s+project\s/m);
    expect(shown.stdout).toMatch(/^\s+github\s+claude\s+user\s+github-mcp-server stdio$/m);
    expect(shown.stdout).toMatch(/^\s+legacy\s+cursor\s+-\s+cannot be imported$/m);
    expect(shown.stdout).toContain('GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(shown.stdout).toMatch(/legacy.*SSE|SSE.*legacy/i);
    expect(shown.stdout).toContain('Nothing was written. Write them with --all');
    expect(await readFile(path.join(world.home, 'mcp.json'), 'utf8').catch(() => 'none')).toBe(
      'none',
    );
    expect(shown.stdout + shown.stderr).not.toContain(SECRET);
  });

  it("--all writes a repository's servers into the project file and yours into your file, never a secret", async () => {
    await otherClients();
    const done = await world.run(['import', '--all']);
    expect(done.stderr).not.toContain('garuda-mcp:');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      `Imported 1 server into ${path.join(world.root, '.garuda', 'mcp.json')}: repo-notes.`,
    );
    expect(done.stdout).toContain(
      `Imported 1 server into ${path.join(world.home, 'mcp.json')}: github.`,
    );
    const user = await readFile(path.join(world.home, 'mcp.json'), 'utf8');
    const project = await readFile(path.join(world.root, '.garuda', 'mcp.json'), 'utf8');
    expect(user).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_PERSONAL_ACCESS_TOKEN}"');
    expect(user + project + done.stdout + done.stderr).not.toContain(SECRET);
    expect(project).toContain('"repo-notes"');
    const listed = await world.run(['list', '--json']);
    const names = (JSON.parse(listed.stdout) as { servers: { name: string; source: string }[] })
      .servers;
    expect(names.map((s) => [s.name, s.source])).toEqual([
      ['github', 'user'],
      ['repo-notes', 'project'],
    ]);
    // Imported again: the names are taken, so the new ones would be renamed; --only picks.
    const again = await world.run(['import', '--only', 'github']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/No importable server is called "github".*github-2/);
  });

  it('refuses an unknown client and --all with --only', async () => {
    const bad = await world.run(['import', '--from', 'zed']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'use one of claude, claude-desktop, cursor, vscode, gemini, codex',
    );
    expect((await world.run(['import', '--all', '--only', 'x'])).code).toBe(2);
    const none = await world.run(['import']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("No other MCP client's file was found");
  });
});
