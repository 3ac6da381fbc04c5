// garuda-mcp status, tools and call against real servers (the fixture, server-everything), in
// the OS sandbox where there is one, without a terminal.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectSandbox } from '@garuda/mcp-transport';
import { FIXTURE_SERVER, pidsWith, sandboxOutcomes, waitFor } from '@garuda/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  CliWorld,
  EVERYTHING,
  collect,
  fixtureEntry,
  osSandboxed,
  worldPerTest,
} from './support/index.js';

const SANDBOXED = await osSandboxed();
/** The terminal session is read from /proc, which Linux has and macOS has not. */
const onLinux = it.runIf(process.platform === 'linux');
const offLinux = it.skipIf(process.platform === 'linux');
/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes((await detectSandbox({ searchPath: process.env.PATH })).kind);

/** No escape sequence or other control character except line breaks. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

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
        expect(table.stdout).not.toContain('sandboxReadPaths');
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
