// garuda-mcp call against real servers (the fixture, server-everything), in the OS sandbox where
// there is one, without a terminal; and the sandbox's /tmp.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectSandbox } from '@garuda/mcp-transport';
import { FIXTURE_SERVER, pidsWith, sandboxOutcomes, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { EVERYTHING } from './support/paths.js';
import { CONTROL, collect } from './support/run.js';
import { fixtureEntry, osSandboxed, worldPerTest, type CliWorld } from './support/world.js';

const SANDBOXED = await osSandboxed();

/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes((await detectSandbox({ searchPath: process.env.PATH })).kind);

let world: CliWorld;
worldPerTest((created) => (world = created));

describe('status, tools and call', () => {
  it('call: declined without --yes (exit 4, says which flag); with --yes the wrapped result; isError exits 1', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const declined = await world.run(['call', 'fx/echo', '{"text":"hi"}']);
    expect(declined.code).toBe(4);
    expect(declined.stderr).toContain('Declined: run tool "mcp__fx__echo"');
    expect(declined.stderr).toContain('pass --yes');
    expect(declined.stdout).toBe('');

    const approved = await world.run(['call', 'mcp__fx__echo', '{"text":"hi"}', '--yes']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe('<mcp_result server="fx" tool="echo">\nhi\n</mcp_result>\n');
    expect(approved.stderr).toContain(
      [
        'Run tool "echo" of MCP server "fx"?',
        '  name      mcp__fx__echo',
        '  hints     read-only (not verified), title "Echo" (not verified)',
        '  arguments',
        '    {',
        '      "text": "hi"',
        '    }',
        '  risk      high (capabilities not declared)',
        '  asks      approval mode "ask" asks before every call',
        '→ approved (--yes)',
      ].join('\n'),
    );

    const failing = await world.run(['call', 'fx/fail', '--yes', '--json']);
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.stdout)).toMatchObject({ tool: 'mcp__fx__fail', isError: true });

    const badJson = await world.run(['call', 'fx/echo', '{text:', '--yes']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('not valid JSON');
    const notObject = await world.run(['call', 'fx/echo', '[1]', '--yes']);
    expect(notObject.code).toBe(2);
    const unknownTool = await world.run(['call', 'fx/nope', '--yes']);
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toContain('mcp__fx__echo');
    const typo = await world.run(['call', 'fx/ecoh', '--yes']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('has no tool "fx/ecoh". Did you mean fx/echo?');
    const modelTypo = await world.run(['call', 'mcp__fx__ecoh', '--yes']);
    expect(modelTypo.stderr).toContain('Did you mean mcp__fx__echo?');
    const unknownServer = await world.run(['call', 'mcp__zz__echo', '--yes']);
    expect(unknownServer.code).toBe(2);
    // mcp__zz__echo: no server zz; fx is not close to it. mcp__fy__echo: fx is.
    expect(unknownServer.stderr).not.toContain('Did you mean');
    const serverTypo = await world.run(['call', 'mcp__fy__echo', '--yes']);
    expect(serverTypo.code).toBe(2);
    expect(serverTypo.stderr).toContain('Did you mean mcp__fx__echo?');
  });

  it('call works against @modelcontextprotocol/server-everything over stdio', async () => {
    await world.userServers({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    });
    const echo = await world.run([
      'call',
      'everything/echo',
      '{"message":"hello from garuda"}',
      '--yes',
    ]);
    expect(echo.stderr).not.toContain('garuda-mcp:');
    expect(echo.code).toBe(0);
    expect(echo.stdout).toContain('<mcp_result server="everything" tool="echo">');
    expect(echo.stdout).toContain('Echo: hello from garuda');
    const sum = await world.run([
      'call',
      'mcp__everything__get-sum',
      '{"a":2,"b":40}',
      '--yes',
      '--json',
    ]);
    expect(sum.code).toBe(0);
    expect(JSON.parse(sum.stdout)).toMatchObject({
      isError: false,
      text: expect.stringContaining('42'),
    });
  });

  it("a call's progress and the server's warnings go to stderr, cleaned; stdout has the result only", async () => {
    await world.userServers({ fx: fixtureEntry('chatty') });
    const slow = await world.run(['call', 'fx/slow', '{"ms":600}', '--yes']);
    expect(slow.code).toBe(0);
    // Without a terminal: the first report at once, then at most one line every two seconds.
    expect(slow.stderr).toMatch(/^mcp__fx__slow: \d+ of 600 \(\d+%\)$/m);
    expect(slow.stdout).not.toContain('mcp__fx__slow:');

    const logs = await world.run(['call', 'fx/log_burst', '{"count":3}', '--yes']);
    expect(logs.code).toBe(0);
    expect(logs.stderr).toContain('MCP server "fx" warning chatty: log 3');
    expect(logs.stderr).toContain('MCP server "fx" warning chatty: {"n":2,"note":"json"}');
    expect(logs.stderr).not.toMatch(CONTROL);
    const quiet = await world.run(['call', 'fx/log_burst', '{"count":3,"level":"info"}', '--yes']);
    expect(quiet.stderr).not.toContain('chatty');
  });

  it('Ctrl-C during a call ends with 130 and leaves no server process', async () => {
    const mark = `garuda-cli-sigint-${process.pid}-${Date.now()}`;
    await world.userServers({ fx: fixtureEntry('normal', mark) });
    const child = world.spawn(['call', 'fx/slow', '{"ms":60000}', '--yes']);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await waitFor(() => stderr.includes('approved (--yes)'), { timeoutMs: 60_000 });
    child.kill('SIGINT');
    const result = await collect(child, undefined, 120_000);
    expect(result.code).toBe(130);
    expect(stderr + result.stderr).toContain('Interrupted');
    await waitFor(async () => (await pidsWith(mark)).length === 0);
  });
});

describe('the sandbox and /tmp', () => {
  it('a server under /tmp needs --sandbox-read (or $GARUDA_SANDBOX_READ) to start under bubblewrap; a missing folder is a usage error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'garuda-cli-server-'));
    try {
      const server = path.join(dir, 'server.mjs');
      await writeFile(server, `import ${JSON.stringify(pathToFileURL(FIXTURE_SERVER).href)};\n`);
      await world.userServers({ tmp: { command: process.execPath, args: [server, 'normal'] } });
      const hidden = await world.run(['status', '--json'], { env: { GARUDA_SANDBOX_READ: '' } });
      const rows = (JSON.parse(hidden.stdout) as { servers: { state: string; detail?: string }[] })
        .servers;
      if (SANDBOXED && IS.privateTmp) {
        expect(rows[0]).toMatchObject({ state: 'failed' });
        expect(rows[0]?.detail).toContain(`${server} is under /tmp`);
        const table = await world.run(['status'], { env: { GARUDA_SANDBOX_READ: '' } });
        expect(table.stdout).toContain(
          'allow its folder with --sandbox-read <folder> (or $GARUDA_SANDBOX_READ)',
        );
        expect(table.stdout).not.toContain('sandbox.readPaths');
      } else if (SANDBOXED) {
        // Seatbelt (macOS) leaves the machine's temp folders in place: the server is seen.
        expect(rows[0]).toMatchObject({ state: 'connected' });
        expect(rows[0]?.detail ?? '').not.toContain('empty folder');
      }
      const shown = await world.run(['status', '--json', '--sandbox-read', dir]);
      expect((JSON.parse(shown.stdout) as { servers: { state: string }[] }).servers[0]?.state).toBe(
        'connected',
      );
      const missing = await world.run(['status', '--sandbox-read', path.join(dir, 'nope')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('is not a folder');
      // A credential folder would be shown to every server: that is one server's --read.
      await mkdir(path.join(world.userHome, '.kube'), { recursive: true });
      const kube = await world.run([
        'status',
        '--sandbox-read',
        path.join(world.userHome, '.kube'),
      ]);
      expect(kube.code).toBe(2);
      expect(kube.stderr).toContain('which the sandbox hides from servers');
      expect(kube.stderr).toContain('--read');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
