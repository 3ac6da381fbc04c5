// garuda-mcp serve starts lazily by default: once a server's tools are pinned, the host's first
// tools/list is answered from the pins and the tool cache with no server process running, and
// the first call starts the server. `--start eager` starts every server before the first list.
import { allStrings, hostileLeftovers, pidsWith, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

/** A first run that starts the servers and pins their tools, then leaves. */
async function pinned(mark: string): Promise<void> {
  const first = await host(['--approvals', 'host', '--start', 'eager']);
  expect((await first.client.listTools()).tools.map((tool) => tool.name)).toContain('notes__echo');
  expect((await pidsWith(mark)).length).toBeGreaterThan(0);
  await first.client.close();
  await waitFor(async () => (await pidsWith(mark)).length === 0, { timeoutMs: 60_000 });
}

describe('garuda-mcp serve: lazy start behind the gateway', () => {
  it('answers the first tools/list of pinned servers with no server running; the first call starts it', async () => {
    const mark = `garuda-serve-lazy-${process.pid}`;
    await world.userServers({ notes: fixtureEntry('normal', mark) });
    await pinned(mark);

    const { client } = await host(['--approvals', 'host']);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('notes__echo');
    // Listed from the cache, cleaned and described as at the pinning run.
    expect(tools.find((tool) => tool.name === 'notes__echo')?.description).toMatch(
      /^\[From MCP server "notes"/,
    );
    expect(allStrings(tools).flatMap(hostileLeftovers)).toEqual([]);
    expect(await pidsWith(mark)).toEqual([]);

    const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^<mcp_result server="notes" tool="echo">\n[\s\S]*hi/);
    expect((await pidsWith(mark)).length).toBeGreaterThan(0);
  });

  it('--start eager starts every server before the first tools/list', async () => {
    const mark = `garuda-serve-eager-${process.pid}`;
    await world.userServers({ notes: fixtureEntry('normal', mark) });
    await pinned(mark);
    const { client } = await host(['--approvals', 'host', '--start', 'eager']);
    await client.listTools();
    expect((await pidsWith(mark)).length).toBeGreaterThan(0);
  });
});
