// garuda-mcp status against real servers, in the OS sandbox where there is one, without a
// terminal: --root and --home, each server's state, and the consent screen.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CONTROL } from './support/run.js';
import { CliWorld, fixtureEntry, worldPerTest } from './support/world.js';

/** The terminal session is read from /proc, which Linux has and macOS has not. */
const onLinux = it.runIf(process.platform === 'linux');
const offLinux = it.skipIf(process.platform === 'linux');

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('status, tools and call', () => {
  it('--root and --home choose the project and the home, whatever the current folder', async () => {
    await world.projectServers({ theirs: fixtureEntry('normal') });
    const elsewhere = await CliWorld.create();
    try {
      const result = await elsewhere.run([
        'status',
        '--json',
        '--trust-project',
        '--root',
        world.root,
        '--home',
        world.home,
      ]);
      const rows = (JSON.parse(result.stdout) as { servers: { name: string; state: string }[] })
        .servers;
      expect(rows).toEqual([expect.objectContaining({ name: 'theirs', state: 'connected' })]);
      // Without --root the other world's (empty) project is used.
      const own = await elsewhere.run(['status', '--json']);
      expect(JSON.parse(own.stdout)).toEqual({ servers: [], problems: [] });
    } finally {
      await elsewhere.cleanup();
    }
  });

  it('status --json: every server with its state; a project server is declined without a terminal', async () => {
    await world.userServers({ mine: fixtureEntry('normal') });
    await world.projectServers({ theirs: fixtureEntry('normal') });
    const result = await world.run(['status', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as {
      servers: { name: string; state: string; tools: number }[];
    };
    expect(parsed.servers.map((row) => [row.name, row.state])).toEqual([
      ['mine', 'connected'],
      ['theirs', 'denied'],
    ]);
    expect(result.stderr).toContain('Declined: allow MCP server "theirs" from the project file');
    expect(result.stderr).toContain('pass --trust-project');
    // The consent screen was shown in full anyway.
    expect(result.stderr).toContain('The project file asks to start MCP server "theirs"');

    const trusted = await world.run(['status', '--trust-project']);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/^theirs\s+project\s+connected\s+7\s/m);
    expect(trusted.stdout).toMatch(/^NAME\s+SOURCE\s+STATE\s+TOOLS\s+RISK\s+SANDBOX\s+NETWORK$/m);
    // Not a terminal: no colours.
    expect(CONTROL.test(trusted.stdout)).toBe(false);
  });

  onLinux(
    'enable/disable --session switch a server for this terminal session only, changing no file',
    async () => {
      await world.userServers({
        on: fixtureEntry('normal'),
        off: { ...fixtureEntry('normal'), enabled: false },
      });
      const file = path.join(world.home, 'mcp.json');
      const before = await readFile(file, 'utf8');
      // One terminal of its own, so the test holds in whatever session it runs in.
      const terminal = world.terminal();
      onTestFinished(() => terminal.close());
      const disabled = await terminal.run(['disable', 'on', '--session']);
      expect(disabled.code).toBe(0);
      expect(disabled.stdout).toContain(
        `MCP server on is off for this terminal session only (session ${terminal.id}); no file was changed.`,
      );
      expect((await terminal.run(['enable', 'off', '--session'])).code).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(before);

      const listed = await terminal.run(['list']);
      expect(listed.stdout).toMatch(/^on\s+user\s+stdio\s+no \(this session\)\s/m);
      expect(listed.stdout).toMatch(/^off\s+user\s+stdio\s+yes \(this session\)\s/m);
      const status = JSON.parse((await terminal.run(['status', '--json'])).stdout) as {
        servers: { name: string; state: string }[];
      };
      expect(Object.fromEntries(status.servers.map((row) => [row.name, row.state]))).toEqual({
        off: 'connected',
        on: 'disabled',
      });
      // Another terminal (another session) sees the file as it is.
      const elsewhere = await world.run(['list'], { newSession: true });
      expect(elsewhere.stdout).toMatch(/^on\s+user\s+stdio\s+yes\s/m);
      expect(elsewhere.stdout).toMatch(/^off\s+user\s+stdio\s+no\s/m);

      expect((await terminal.run(['disable', 'nosuch', '--session'])).code).toBe(2);
      const both = await terminal.run(['disable', 'on', '--session', '--project']);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('--session changes no file');
    },
  );

  offLinux(
    'enable/disable --session is a usage error where no /proc shows the session (macOS), changing no file',
    async () => {
      await world.userServers({ on: fixtureEntry('normal') });
      const file = path.join(world.home, 'mcp.json');
      const before = await readFile(file, 'utf8');
      for (const command of ['disable', 'enable']) {
        const result = await world.run([command, 'on', '--session'], { newSession: true });
        expect(result.code, command).toBe(2);
        expect(result.stderr, command).toContain(
          '--session needs the terminal session this command runs in, and this system does not show it',
        );
      }
      expect(await readFile(file, 'utf8')).toBe(before);
    },
  );

  it('the consent screen names the package a runner would download and its version', async () => {
    await world.projectServers({
      pinned: { command: 'npx', args: ['-y', '@scope/server@1.2.3'] },
      loose: { command: 'uvx', args: ['mcp-server-git'] },
    });
    const result = await world.run(['status']);
    expect(result.stderr).toMatch(
      /^ {2}package\s+@scope\/server 1\.2\.3 \(npx, downloaded into its own cache\)$/m,
    );
    expect(result.stderr).toMatch(
      /^ {2}package\s+mcp-server-git \(uvx: no pinned version, whatever the registry has when it starts\)$/m,
    );
  });
});
