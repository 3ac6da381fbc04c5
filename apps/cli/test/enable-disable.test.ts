// garuda-mcp enable and disable: the "enabled" field of an entry, run without a terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('enable and disable', () => {
  it('disable persists "enabled": false (every other byte stays): not started, call says how to enable', async () => {
    await world.userServers({ fx: fixtureEntry('normal'), other: fixtureEntry('normal') });
    const file = path.join(world.home, 'mcp.json');
    const before = await readFile(file, 'utf8');
    const off = await world.run(['disable', 'fx']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(`Disabled MCP server fx in ${file}`);
    const after = await readFile(file, 'utf8');
    const entryEnd = before.indexOf(']', before.indexOf('"fx"')) + 1;
    expect(after).toBe(
      `${before.slice(0, entryEnd)},\n      "enabled": false${before.slice(entryEnd)}`,
    );

    const status = JSON.parse((await world.run(['status', '--json'])).stdout) as {
      servers: { name: string; state: string }[];
    };
    expect(status.servers.map((s) => [s.name, s.state])).toEqual([
      ['fx', 'disabled'],
      ['other', 'connected'],
    ]);
    const call = await world.run(['call', 'fx/echo', '{"text":"hi"}', '--yes']);
    expect(call.code).toBe(4);
    expect(call.stderr).toContain(
      'MCP server "fx" is disabled in the user file: turn it on with garuda-mcp enable fx',
    );

    const again = await world.run(['disable', 'fx']);
    expect(again.stdout).toContain('is already disabled');
    expect(await readFile(file, 'utf8')).toBe(after);

    const on = await world.run(['enable', 'fx', '--json']);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toEqual({ file, name: 'fx', enabled: true, changed: true });
    expect(await readFile(file, 'utf8')).toBe(after.replace('"enabled": false', '"enabled": true'));
    const called = await world.run(['call', 'fx/echo', '{"text":"hi"}', '--yes']);
    expect(called.code).toBe(0);
  });

  it('--project edits the project file; the wrong file says which one has it', async () => {
    await world.userServers({ mine: fixtureEntry('normal') });
    await world.projectServers({ theirs: fixtureEntry('normal') });
    const wrong = await world.run(['disable', 'theirs']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('it is in the project file');
    expect(wrong.stderr).toContain('add --project');
    const wrongToo = await world.run(['enable', 'mine', '--project']);
    expect(wrongToo.code).toBe(2);
    expect(wrongToo.stderr).toContain('leave out --project');
    expect((await world.run(['disable', 'theirs', '--project'])).code).toBe(0);
    const project = JSON.parse(
      await readFile(path.join(world.root, '.garuda', 'mcp.json'), 'utf8'),
    ) as {
      servers: Record<string, { enabled?: boolean }>;
    };
    expect(project.servers.theirs?.enabled).toBe(false);
  });
});
