// garuda-mcp doctor and trust, run as the built command without a terminal.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

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

  it('doctor and trust list count pinned tools and prompts apart', async () => {
    await world.userServers({ lib: fixtureEntry('library') });
    const tools = JSON.parse((await world.run(['tools', 'lib', '--json'])).stdout) as {
      tools: unknown[];
    };
    const prompts = JSON.parse((await world.run(['prompts', 'lib', '--json'])).stdout) as {
      prompts: unknown[];
    };
    expect(prompts.prompts.length).toBeGreaterThan(0);
    const counts = { tools: tools.tools.length, prompts: prompts.prompts.length };
    const doctor = await world.run(['doctor', '--json']);
    const report = JSON.parse(doctor.stdout) as {
      servers: { name: string; pin: string; pinned: unknown }[];
    };
    expect(report.servers.find((s) => s.name === 'lib')).toMatchObject({
      pin: `pinned (${String(counts.tools)} tools, ${String(counts.prompts)} prompts)`,
      pinned: counts,
    });
    const trusted = JSON.parse((await world.run(['trust', 'list', '--json'])).stdout) as {
      trusted: { name: string; pinnedTools: number; pinnedPrompts: number }[];
    };
    expect(trusted.trusted).toEqual([
      expect.objectContaining({
        name: 'lib',
        pinnedTools: counts.tools,
        pinnedPrompts: counts.prompts,
      }),
    ]);
    const table = await world.run(['trust', 'list']);
    expect(table.stdout).toContain(
      `${String(counts.tools)} tools, ${String(counts.prompts)} prompts`,
    );
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

  it('audit shows the calls as hashes and --verify proves the log unbroken, or names the bad line', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    expect((await world.run(['call', 'fx/echo', '{"text":"private words"}', '--yes'])).code).toBe(
      0,
    );
    const shown = await world.run(['audit', '--verify']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^AT\s+KIND\s+SERVER\s+TOOL\s+WHAT$/m);
    expect(shown.stdout).toMatch(/\sapproval\s+fx\s+echo\s+approved: the user approved it$/m);
    expect(shown.stdout).toMatch(
      /\scall\s+fx\s+echo\s+ok, \d+ ms, args [0-9a-f]{12}…, result [0-9a-f]{12}…$/m,
    );
    expect(shown.stdout).not.toContain('private words');
    expect(shown.stdout).toMatch(
      /\spin\s+fx\s+first pin \(\d+ added, 0 removed, 0 changed\): pinned/m,
    );
    expect(shown.stderr).toContain('The audit log is unbroken: 3 lines');

    const json = JSON.parse((await world.run(['audit', '--json', '--since', '1h'])).stdout) as {
      records: { kind: string }[];
    };
    expect(json.records.map((r) => r.kind)).toEqual(['pin', 'approval', 'call']);
    expect((await world.run(['audit', '--since', '2999-01-01'])).stdout).toContain(
      'Nothing in the audit log',
    );
    expect((await world.run(['audit', '--since', 'yesterday'])).code).toBe(2);

    const file = path.join(world.home, 'audit.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, [lines[1], lines[0], ...lines.slice(2)].join('\n'));
    const broken = await world.run(['audit', '--verify']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('is broken at line 1');
    // An edited line that would put escapes on the terminal is shown cleaned.
    const record = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    await writeFile(file, `${JSON.stringify({ ...record, server: 'fx\u001b[31mred' })}\n`);
    const edited = await world.run(['audit']);
    expect(edited.stdout).toContain('fx');
    expect(edited.stdout).not.toContain('\u001b');
  });
});
