// What garuda-mcp loads to start: help loads none of the MCP SDKs (nor zod or undici), and each
// command loads what it uses (registry.ts loads a command's code in its `run`). The modules a
// run resolves are recorded by a preload and read back as the packages they come from, bundled
// chunks included; the runs that do load the SDK or zod show the reading sees them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedPackages, recordModulesEnv } from './support/loaded-packages.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

/** What neither `--help` nor a command's help needs. */
const HEAVY = ['@modelcontextprotocol/client', '@modelcontextprotocol/server', 'zod', 'undici'];
/** What only connecting to a server needs: the SDKs, their tasks extension, the HTTP client. */
const CONNECTING = [
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/ext-tasks',
  'undici',
];

async function packagesOf(args: readonly string[]): Promise<Set<string>> {
  const log = path.join(world.userHome, `modules-${args.join('-')}.log`);
  const result = await world.run(args, { env: recordModulesEnv(log) });
  expect(result.code, result.stderr).toBe(0);
  return loadedPackages(log);
}

describe('what garuda-mcp loads', () => {
  it.each([
    [['--help']],
    [['help']],
    [['status', '--help']],
    [['serve', '--help']],
    [['--version']],
  ])('%j loads no MCP SDK, zod or undici', async (args) => {
    const loaded = await packagesOf(args);
    expect(loaded.has('picocolors'), [...loaded].join(', ')).toBe(true);
    for (const name of HEAVY) expect(loaded, name).not.toContain(name);
  });

  it('list reads the config (zod) and loads no MCP SDK and no HTTP client', async () => {
    await world.userServers({ mine: { command: 'run-me' } });
    const loaded = await packagesOf(['list']);
    expect(loaded).toContain('zod');
    for (const name of CONNECTING) expect(loaded, name).not.toContain(name);
  });

  it('status --start lazy with pinned servers starts none and loads no SDK client, transport or HTTP client', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    // The first (eager) start pins the tools and caches them.
    expect((await world.run(['status'])).stdout).toMatch(/^fx\s+user\s+connected\s/m);
    const log = path.join(world.userHome, 'modules-status-lazy.log');
    const lazy = await world.run(['status', '--start', 'lazy'], { env: recordModulesEnv(log) });
    expect(lazy.code, lazy.stderr).toBe(0);
    expect(lazy.stdout).toMatch(/^fx\s+user\s+ready \(not started\)\s+7\s/m);
    const loaded = await loadedPackages(log);
    expect(loaded.has('picocolors'), [...loaded].join(', ')).toBe(true);
    for (const name of CONNECTING) expect(loaded, name).not.toContain(name);
  });

  it('status, which starts servers, loads the SDK client: the reading sees into the chunks', async () => {
    // The client is loaded with the first start (none without a server).
    await world.userServers({ fx: fixtureEntry('normal') });
    const loaded = await packagesOf(['status', '--json']);
    expect(loaded).toContain('@modelcontextprotocol/client');
  });
});
