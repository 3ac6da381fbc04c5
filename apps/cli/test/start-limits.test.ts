// The start and download limits on the command line: `add --start-timeout` writes a server's own
// limit, `--start-timeout` and `--download-timeout` set them for one run, and an npx server's
// download is told on stderr (its first, not a check of a cache that holds it). A stand-in `npx` (first on PATH) holds its download until the test
// lets it go, so a download cut at its limit is made on purpose, not raced.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIXTURE_SERVER } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { osSandboxed, worldPerTest, type CliWorld } from './support/world.js';

const SANDBOXED = await osSandboxed();

let world: CliWorld;
worldPerTest((created) => (world = created));

/** Download step (`… -- node -e 0`): waits for `$SHIM_RELEASE`. Else: the fixture server. */
const SHIM = `#!/bin/sh
case "$*" in
*"-- node -e 0")
  while [ ! -e "$SHIM_RELEASE" ]; do sleep 0.2; done
  exit 0
  ;;
esac
exec node ${JSON.stringify(FIXTURE_SERVER)} normal
`;

interface Row {
  readonly name: string;
  readonly state: string;
  readonly detail?: string;
}

const rowsOf = (stdout: string) =>
  Object.fromEntries(
    (JSON.parse(stdout) as { servers: Row[] }).servers.map((row) => [row.name, row]),
  );

describe('start and download limits', () => {
  it('add --start-timeout writes the entry\'s "startTimeoutMs"; a bad value is a usage error', async () => {
    const added = await world.run(['add', 'fs', '--start-timeout', '2m', '--', 'node', 'fs.js']);
    expect(added.code).toBe(0);
    expect(await world.userServerEntry('fs')).toEqual({
      command: 'node',
      args: ['fs.js'],
      startTimeoutMs: 120_000,
    });
    const remote = await world.run([
      'add',
      'web',
      '--url',
      'https://a.example/mcp',
      '--start-timeout',
      '45',
    ]);
    expect(remote.code).toBe(0);
    expect(await world.userServerEntry('web')).toMatchObject({ startTimeoutMs: 45_000 });
    for (const bad of ['0', '601', '120000', 'soon']) {
      const result = await world.run(['add', 'x', '--start-timeout', bad, '--', 'node']);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain(
        '--start-timeout takes a time limit in seconds from 1 to 600 (e.g. 120), or with a unit (90s, 2m, 120000ms)',
      );
    }
    const global = await world.run(['status', '--download-timeout', '11m']);
    expect(global.code).toBe(2);
    expect(global.stderr).toContain('--download-timeout takes a time limit in seconds');
  });

  it.runIf(SANDBOXED)(
    '--start-timeout and --download-timeout hold for one run; stderr says what is downloading, and a warm start says no download',
    async () => {
      const bin = path.join(world.root, 'bin');
      await mkdir(bin);
      await writeFile(path.join(bin, 'npx'), SHIM, { mode: 0o755 });
      const release = path.join(world.root, 'release');
      const slow = {
        command: 'npx',
        args: ['-y', 'mcp-slow@1.0.0'],
        env: { SHIM_RELEASE: release },
      };
      await world.userServers({
        mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
        slow,
      });
      const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
      const cut = await world.run(
        ['status', '--json', '--start-timeout', '1', '--download-timeout', '2s'],
        { env },
      );
      const rows = rowsOf(cut.stdout);
      expect(rows.mute?.state).toBe('failed');
      expect(rows.mute?.detail).toContain('it did not connect and list its tools within 1 s');
      expect(rows.slow?.state).toBe('failed');
      expect(rows.slow?.detail).toContain(
        'it could not start: "npx" did not finish downloading "mcp-slow@1.0.0" within 2 s',
      );
      expect(rows.slow?.detail).toContain('garuda-mcp --download-timeout <seconds>');
      expect(cut.stderr).toContain('MCP server "slow": downloading mcp-slow@1.0.0…');

      await writeFile(release, '');
      // The same package without a version: npx asks the registry for the newest each time.
      const fresh = { ...slow, args: ['-y', 'mcp-slow'] };
      await world.userServers({ slow, fresh });
      const done = await world.run(['status', '--json'], { env });
      expect(rowsOf(done.stdout).slow).toMatchObject({ state: 'connected' });
      expect(done.stderr).toContain('MCP server "slow": downloading mcp-slow@1.0.0…');
      expect(done.stderr).toContain('MCP server "fresh": downloading mcp-slow…');

      // Warm: the pinned package is not downloaded again, and nothing says it is; the unpinned
      // one is only checked for a newer version.
      const warm = await world.run(['status', '--json'], { env });
      expect(rowsOf(warm.stdout).slow).toMatchObject({ state: 'connected' });
      expect(rowsOf(warm.stdout).fresh).toMatchObject({ state: 'connected' });
      expect(warm.stderr).not.toContain('"slow": downloading');
      expect(warm.stderr).not.toContain('"fresh": downloading');
      expect(warm.stderr).toContain('MCP server "fresh": checking mcp-slow for a newer version…');
    },
    180_000,
  );
});
