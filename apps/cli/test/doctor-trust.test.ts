// garuda-mcp doctor and trust, run as the built command without a terminal.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './cli-support.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('doctor and trust', () => {
  it('doctor reports the sandbox, config problems and each server; a broken server exits 4', async () => {
    await world.userServers({
      good: fixtureEntry('normal'),
      broken: { command: '/nonexistent/garuda-no-such-server' },
    });
    const result = await world.run(['doctor', '--json']);
    expect(result.code).toBe(4);
    const report = JSON.parse(result.stdout) as {
      sandbox: { kind: string };
      problems: unknown[];
      servers: { name: string; state: string; tools: number; pin: string; detail?: string }[];
      ok: boolean;
    };
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([]);
    expect(report.servers.find((s) => s.name === 'good')).toMatchObject({
      state: 'connected',
      tools: 7,
    });
    expect(report.servers.find((s) => s.name === 'broken')).toMatchObject({ state: 'failed' });
    expect(report.servers.find((s) => s.name === 'broken')?.detail).toMatch(
      /garuda-no-such-server/,
    );

    const text = await world.run(['doctor']);
    expect(text.code).toBe(4);
    expect(text.stdout).toMatch(/^Sandbox$/m);
    expect(text.stdout).toMatch(/^\s+good\s+user\s+connected\s+7\s+-\s+pinned \(7 tools\)$/m);
    expect(text.stdout).toContain('1 server not working');
    expect(text.stdout).not.toMatch(/\(s\)|\b1 tools\b|is failed/);
  });

  it('status and tools exit 3 when a config file has problems, and still show the valid servers', async () => {
    await world.userServers({ good: fixtureEntry('normal'), 'Bad Name': fixtureEntry('normal') });
    const status = await world.run(['status']);
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/^good\s+user\s+connected/m);
    const problem = `config problem: ${path.join(world.home, 'mcp.json')}:`;
    expect(status.stderr).toContain(problem);
    // Told once, before the servers start (the manager's notice of it is not repeated).
    expect(status.stderr.split('server name "Bad Name" is invalid')).toHaveLength(2);
    expect(status.stderr.indexOf(problem)).toBeLessThan(status.stderr.indexOf('Starting'));
    const tools = await world.run(['tools', '--json']);
    expect(tools.code).toBe(3);
    expect((JSON.parse(tools.stdout) as { tools: unknown[] }).tools.length).toBe(7);
  });

  it('doctor exits 3 for a config problem and names file and line', async () => {
    await world.userServers({ 'Bad Name': fixtureEntry('normal') });
    const result = await world.run(['doctor']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(`${path.join(world.home, 'mcp.json')}:`);
  });

  it('trust list shows what status pinned; trust forget removes it', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    expect((await world.run(['status'])).code).toBe(0);
    const list = await world.run(['trust', 'list', '--json']);
    const parsed = JSON.parse(list.stdout) as {
      trusted: { name: string; scope: string; pinnedTools: number }[];
    };
    expect(parsed.trusted).toEqual([
      expect.objectContaining({ name: 'fx', scope: 'user', pinnedTools: 7 }),
    ]);
    const forget = await world.run(['trust', 'forget', 'fx']);
    expect(forget.code).toBe(0);
    expect(forget.stdout).toContain('Forgot MCP server fx (user)');
    expect(JSON.parse((await world.run(['trust', 'list', '--json'])).stdout)).toEqual({
      trusted: [],
    });
    expect((await world.run(['trust', 'forget', 'fx'])).stdout).toContain('Nothing remembered');
  });
});
