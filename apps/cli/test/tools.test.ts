// garuda-mcp tools and the flags that decide what a call needs (--approval-mode, --start,
// --exposure, --allow/--ask/--deny), against the fixture server without a terminal.
import { describe, expect, it } from 'vitest';
import { CONTROL } from './support/run.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('status, tools and call', () => {
  it('tools: the cleaned list; --json has the schemas; an unknown server is a usage error', async () => {
    await world.userServers({ evil: fixtureEntry('evil') });
    const table = await world.run(['tools']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^mcp__evil__\w+\s+evil\s/m);
    expect(CONTROL.test(table.stdout)).toBe(false);
    const json = await world.run(['tools', 'evil', '--json']);
    const parsed = JSON.parse(json.stdout) as { tools: { name: string; inputSchema: unknown }[] };
    expect(parsed.tools.length).toBeGreaterThan(0);
    expect(parsed.tools.every((tool) => typeof tool.inputSchema === 'object')).toBe(true);
    expect(JSON.stringify(parsed)).not.toMatch(/\\u001b|\\u202e/i);
    const unknown = await world.run(['tools', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No MCP server named "nope" is configured');
    // "evil" is no typo of "nope".
    expect(unknown.stderr).not.toContain('Did you mean');
  });

  it('tools <server> --json: stdout is the JSON alone, whatever a dependency prints (a server without tools)', async () => {
    // The SDK's client says on `console.debug` that such a server lists no tools.
    await world.userServers({ quiet: fixtureEntry('notools') });
    const json = await world.run(['tools', 'quiet', '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { tools: unknown[] };
    expect(parsed.tools).toEqual([]);
    expect(json.stderr).toContain('does not advertise tools capability');
  });

  it('tools <server>: says how many tools the configuration hides and why; --json lists them', async () => {
    await world.userServers({
      fx: { ...fixtureEntry('normal'), allowTools: ['e*', 'add'], denyTools: ['env'] },
    });
    const table = await world.run(['tools', 'fx']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^mcp__fx__echo\s+fx\s/m);
    expect(table.stdout).not.toMatch(/^mcp__fx__env\s/m);
    expect(table.stdout).toContain(
      '5 tools of "fx" are hidden: 1 by "denyTools" ("env"), 4 not in "allowTools".',
    );
    const json = await world.run(['tools', 'fx', '--json']);
    const parsed = JSON.parse(json.stdout) as {
      tools: { name: string }[];
      hidden: { name: string; reason: string }[];
    };
    expect(parsed.tools.map((t) => t.name)).toEqual(['mcp__fx__add', 'mcp__fx__echo']);
    expect(parsed.hidden).toContainEqual(
      expect.objectContaining({ name: 'mcp__fx__env', reason: 'denied', pattern: 'env' }),
    );

    await world.userServers({ fx: { ...fixtureEntry('normal'), allowTools: [] } });
    const none = await world.run(['tools', 'fx']);
    expect(none.stdout).toContain('No tools: the configuration hides them all.');
    expect(none.stdout).toContain('7 tools of "fx" are hidden: 7 not in "allowTools".');
  });

  it("--approval-mode balanced runs a read-only server's call without asking and says why; a bad mode is a usage error", async () => {
    await world.userServers({
      reader: { ...fixtureEntry('normal'), capabilities: ['read'] },
      other: fixtureEntry('normal'),
    });
    const low = await world.run([
      'call',
      'reader/echo',
      '{"text":"hi"}',
      '--approval-mode',
      'balanced',
    ]);
    expect(low.code).toBe(0);
    expect(low.stdout).toContain('hi');
    expect(low.stderr).not.toContain('Run tool');
    expect(low.stderr).toContain(
      '→ ran without asking: approval mode "balanced" runs low-risk (read-only) calls without asking',
    );
    // Not declared: high risk, so it asks (and without a terminal that is a no).
    const high = await world.run([
      'call',
      'other/echo',
      '{"text":"hi"}',
      '--approval-mode',
      'balanced',
    ]);
    expect(high.code).toBe(4);
    expect(high.stderr).toContain(
      'asks      approval mode "balanced" asks before a high-risk call',
    );

    const bad = await world.run(['status', '--approval-mode', 'yolo']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--approval-mode must be ask');
  });

  it('--start lazy: pinned servers show ready (not started) at once, start on a call; a bad value exits 2', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    // The first (eager) start pins the tools and caches them.
    expect((await world.run(['status'])).stdout).toMatch(/^fx\s+user\s+connected\s+7\s/m);
    const status = await world.run(['status', '--start', 'lazy']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^fx\s+user\s+ready \(not started\)\s+7\s/m);
    const tools = await world.run(['tools', '--start', 'lazy']);
    expect(tools.stdout).toMatch(/^mcp__fx__echo\s+fx\s/m);
    // One server, by name: its cached, pinned tools too.
    const one = await world.run(['tools', 'fx', '--start', 'lazy']);
    expect(one.stderr).not.toContain('has not started yet');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^mcp__fx__echo\s+fx\s/m);
    const call = await world.run(['call', 'fx/add', '{"a":2,"b":3}', '--yes', '--start', 'lazy']);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('5');
    const bad = await world.run(['status', '--start', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--start must be eager');
  });

  it('--exposure search: tools shows the search tool and what waits behind it; a held tool is called by name', async () => {
    await world.userServers({
      fx: { ...fixtureEntry('normal'), directTools: ['echo'] },
      plain: { ...fixtureEntry('normal'), exposure: 'direct' },
    });
    const tools = await world.run(['tools', '--exposure', 'search']);
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/^mcp__fx__echo\s+fx\s/m);
    expect(tools.stdout).toMatch(/^mcp__plain__add\s+plain\s/m);
    expect(tools.stdout).toMatch(/^mcp_tool_search\s+garuda\s+Finds MCP tools by what they do/m);
    expect(tools.stdout).not.toMatch(/^mcp__fx__add/m);
    expect(tools.stdout).toContain(
      '6 tools of "fx" wait behind mcp_tool_search (exposure "search"): the model finds them by searching; garuda-mcp call fx/<tool> calls one by name.',
    );
    const status = await world.run(['status', '--exposure', 'search']);
    expect(status.stdout).toMatch(/^fx\s+user\s+connected\s+1 \(\+6 behind search\)\s/m);
    expect(status.stdout).toMatch(/^plain\s+user\s+connected\s+7\s/m);
    const searching = (...args: string[]) => world.run([...args, '--exposure', 'search']);
    const call = await searching('call', 'fx/add', '{"a":1,"b":2}', '--yes');
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('3');
    const search = await searching(
      'call',
      'mcp_tool_search',
      '{"query":"add two numbers","limit":1}',
    );
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/^- mcp__fx__add: /m);
    const none = await world.run(['call', 'mcp_tool_search', '{"query":"add"}']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No tool waits behind mcp_tool_search');
    const bad = await world.run(['tools', '--exposure', 'lazy']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--exposure must be direct');
  });

  it('--allow, --ask and --deny rules: deny > ask > allow, even with --yes; a bad rule is a usage error', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const echo = (...flags: string[]) => world.run(['call', 'fx/echo', '{"text":"hi"}', ...flags]);
    const allowed = await echo('--allow', 'mcp.fx.*');
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('→ ran without asking: the allow rule "mcp.fx.*" matches it');
    const asked = await echo('--allow', 'mcp.*', '--ask', 'mcp.fx.e*');
    expect(asked.code).toBe(4);
    expect(asked.stderr).toContain('the ask rule "mcp.fx.e*" asks before every call of it');
    const denied = await echo('--yes', '--deny', 'mcp.*.echo');
    expect(denied.code).toBe(4);
    expect(denied.stderr).toContain('The call is denied by your rule "mcp.*.echo"; nothing ran.');
    expect(denied.stderr).not.toContain('Run tool');
    const bad = await world.run(['status', '--deny', 'mcp.fx']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--deny "mcp.fx" names no tool');
  });
});
