// garuda-mcp serve, driven as a host drives it: a real SDK Client starts the built CLI over stdio
// (through our own ProcessTransport) and lists and calls the tools of the fixture servers behind
// it. What is checked here: names, cleaned definitions, framed results, refusals that name
// the command that allows the call, project consent without a terminal, a changed tool list, and
// no process left once the host goes away.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { allStrings, hostileLeftovers, pidsWith, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { framedJson } from './support/rounds.js';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

describe('garuda-mcp serve', () => {
  it('lists the tools of every server as <server>__<tool> and calls them (--approvals host)', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-list') });
    const { client } = await host(['--approvals', 'host']);
    expect(client.getServerVersion()?.name).toBe('garuda-mcp');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('notes__echo');
    expect(names).toContain('notes__add');
    const echo = tools.find((tool) => tool.name === 'notes__echo');
    expect(echo?.description).toMatch(/^\[From MCP server "notes"/);
    const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      /^<mcp_result server="notes" tool="echo">\n[\s\S]*hi[\s\S]*<\/mcp_result>$/,
    );
    const unknown = await client.callTool({ name: 'notes__nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No tool "notes__nope" behind this gateway');
  });

  it('refuses a call nothing allowed beforehand, naming the command that allows it; --allow runs it', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-rules') });
    // The gateway's own home and root (a root with a space, quoted for a shell).
    const spaced = path.join(world.root, 'my project');
    await mkdir(spaced);
    const refused = await host(['--root', spaced]);
    const result = await refused.client.callTool({ name: 'notes__echo', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('This call was not run: nobody was asked');
    expect(text).toContain(
      `\`garuda-mcp call notes/echo --home ${world.home} --root '${spaced}'\``,
    );
    expect(text).toContain('`--allow mcp.notes.echo`');
    expect(text).not.toContain('<mcp_result');

    const allowed = await host(['--allow', 'mcp.notes.echo']);
    const ran = await allowed.client.callTool({ name: 'notes__echo', arguments: { text: 'x' } });
    expect(ran.isError).toBeFalsy();
    expect(textOf(ran)).toContain('<mcp_result server="notes" tool="echo">');
  });

  it('starts a project server only when trusted beforehand or with --trust-project', async () => {
    await world.projectServers({ theirs: fixtureEntry('normal', 'garuda-serve-project') });
    const untrusted = await host(['--approvals', 'host']);
    expect((await untrusted.client.listTools()).tools).toEqual([]);
    const trusted = await host(['--approvals', 'host', '--trust-project']);
    const names = (await trusted.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('theirs__echo');
  });

  it("name squatting: with --trust-project, my_notes__env answers from your my_notes, never the project's my-notes; status, doctor and the model are told", async () => {
    const mark = 'garuda-serve-names';
    await world.userServers({
      my_notes: { ...fixtureEntry('normal', mark), env: { WHO: 'user' } },
    });
    await world.projectServers({
      'my-notes': { ...fixtureEntry('normal', mark), env: { WHO: 'project' } },
    });
    const { client } = await host(['--approvals', 'host', '--trust-project']);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => name.toLowerCase() === 'my_notes__env')).toEqual([
      'my_notes__env',
    ]);
    const result = await client.callTool({ name: 'my_notes__env', arguments: { names: ['WHO'] } });
    const blocks = result.content as { type: string; text: string }[];
    expect(framedJson(blocks[0]?.text ?? '')).toMatchObject({ values: { WHO: 'user' } });
    // The model reads why the project's server offers nothing, after the result.
    expect(blocks.slice(1).map((block) => block.text)).toEqual([
      expect.stringMatching(
        /^<garuda_note>MCP server "my-notes" is degraded: its tools .* are not offered: MCP server "my_notes" \(yours\) holds those names\. .*<\/garuda_note>$/,
      ),
    ]);

    const status = await world.run(['status', '--trust-project']);
    expect(status.stdout).toMatch(/^my-notes\s+project\s+degraded\s+0\s/m);
    expect(status.stdout).toMatch(
      /^ {2}my-notes: degraded: its tools "mcp__my_notes__add", "mcp__my_notes__content", .* and 2 more are not offered: MCP server "my_notes" \(yours\) holds those names$/m,
    );
    expect(status.stderr).toContain('MCP server "my-notes" (the project\'s) is degraded');
    const json = JSON.parse((await world.run(['status', '--json', '--trust-project'])).stdout) as {
      servers: { name: string; state: string; lostNames: { keptBy: string }[] }[];
    };
    const theirs = json.servers.find((row) => row.name === 'my-notes');
    expect(theirs?.state).toBe('connected');
    expect(theirs?.lostNames.length).toBeGreaterThan(0);
    expect(theirs?.lostNames.every((lost) => lost.keptBy === 'my_notes')).toBe(true);
    const doctor = await world.run(['doctor', '--trust-project']);
    expect(doctor.stdout).toMatch(/^ {2}my-notes\s+project\s+degraded\s/m);
    expect(doctor.stdout).toContain('1 server degraded');
    const call = await world.run(['call', 'my-notes/env', '{}', '--trust-project', '--yes']);
    expect(call.code).toBe(2);
    expect(call.stderr).toMatch(
      /MCP server "my-notes" has no tool "my-notes\/env"\..* It is degraded: its tools .* MCP server "my_notes" \(yours\) holds those names\./,
    );
  });

  it('hands the host only cleaned definitions and framed results of a hostile server', async () => {
    await world.userServers({ bad: fixtureEntry('evil', 'garuda-serve-hostile') });
    const { client } = await host(['--approvals', 'host']);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(7);
    expect(allStrings(tools).flatMap(hostileLeftovers)).toEqual([]);
    for (const name of ['bad__echo', 'bad__add']) {
      const result = await client.callTool({ name, arguments: { text: 'x', a: 1, b: 2 } });
      const text = textOf(result);
      const open = `<mcp_result server="bad" tool="${name.slice('bad__'.length)}">\n`;
      expect(text.startsWith(open), text.slice(0, 80)).toBe(true);
      expect(text.endsWith('\n</mcp_result>')).toBe(true);
      // What the server sent, inside our frame, is clean: no second frame, nothing invisible.
      expect(hostileLeftovers(text.slice(open.length, -'\n</mcp_result>'.length))).toEqual([]);
    }
  });

  it('stops every server and exits when the host goes away', async () => {
    const mark = `garuda-serve-gone-${process.pid}`;
    await world.userServers({ notes: fixtureEntry('normal', mark) });
    const { client, transport } = await host(['--approvals', 'host']);
    await client.listTools();
    expect((await pidsWith(mark)).length).toBeGreaterThan(0);
    const exited = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    await client.close();
    await exited;
    await waitFor(async () => (await pidsWith(mark)).length === 0, { timeoutMs: 60_000 });
  });
});

describe('garuda-mcp serve: a changed tool list', () => {
  it('reaches the host as list_changed once the manager let the change through', async () => {
    await world.userServers({ dyn: fixtureEntry('dynamic', 'garuda-serve-dynamic') });
    const { client, transport } = await host(['--approvals', 'host']);
    const before = (await client.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('dyn__add_tool');
    expect(before).not.toContain('dyn__added');
    // Each list_changed makes the host list again, as a host does; the one that shows the new
    // tool ends the wait (a server that finished starting may have told one before).
    let seen!: () => void;
    const sawAdded = new Promise<void>((resolve) => (seen = resolve));
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      const { tools } = await client.listTools();
      if (tools.some((tool) => tool.name === 'dyn__added')) seen();
    });
    const added = await client.callTool({ name: 'dyn__add_tool', arguments: {} });
    expect(added.isError).toBeFalsy();
    await sawAdded;
    // The user was told too (stderr is the host's log of this server; a pipe of its own).
    await waitFor(
      () =>
        transport
          .stderrTail()
          .join('\n')
          .includes('MCP server "dyn" changed its tools while it ran (added: added)'),
      { timeoutMs: 60_000 },
    );
  });
});
