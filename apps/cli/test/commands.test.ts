// garuda-mcp's commands, run as the built command in a subprocess, without a terminal.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectSandbox } from '@garuda/mcp-transport';
import { FIXTURE_SERVER, pidsWith, startOAuthFixture, waitFor } from '@garuda/test-utils';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { CliWorld, EVERYTHING, FETCH_BROWSER, fixtureEntry, collect } from './cli-support.js';

/** Whether servers run in an OS sandbox here (CI requires one: GARUDA_REQUIRE_SANDBOX=1). */
const SANDBOXED = (await detectSandbox({ searchPath: process.env.PATH })).kind !== 'none';
if (!SANDBOXED && process.env.GARUDA_REQUIRE_SANDBOX === '1') {
  throw new Error('GARUDA_REQUIRE_SANDBOX=1 but there is no OS sandbox here');
}

let world: CliWorld;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  world = await CliWorld.create();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await world.cleanup();
});

/** No escape sequence or other control character except line breaks. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('usage', () => {
  it('--help lists every command, the options and the exit codes; exit 0', async () => {
    const result = await world.run(['--help']);
    expect(result.code).toBe(0);
    for (const command of [
      'status',
      'list',
      'get',
      'enable',
      'disable',
      'tools',
      'call',
      'add',
      'remove',
      'login',
      'logout',
      'trust',
      'doctor',
      'demo',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(result.stdout).toContain('--trust-project');
    expect(result.stdout).toContain('130 interrupted');
  });

  it('<command> --help shows that command', async () => {
    const result = await world.run(['call', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: garuda-mcp call <tool>/);
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await world.run(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it.each([
    [['frob'], /Unknown command "frob"/],
    [['status', '--frob'], /Unknown option '--frob'/],
    [['status', '--url', 'https://x.test'], /--url is an option of add, not of status/],
    [['call'], /Missing arguments/],
    [['remove', 'a', 'b'], /Too many arguments/],
    [['trust', 'maybe'], /trust takes list or forget/],
    [['status', '--', 'x'], /Only add takes --/],
    [[], /Usage: garuda-mcp <command>/],
    [['demo', '--interactive'], /--interactive needs a terminal/],
  ])('%j is a usage error: exit 2 and what to do', async (args, message) => {
    const result = await world.run(args);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toMatch(message);
  });
});

describe('import', () => {
  const SECRET = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

  async function otherClients(): Promise<void> {
    // Claude Code: a repository's .mcp.json and the user's ~/.claude.json; Cursor: an SSE one.
    await writeFile(
      path.join(world.root, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          'repo-notes': {
            type: 'stdio',
            command: process.execPath,
            args: [FIXTURE_SERVER, 'normal'],
          },
        },
      }),
    );
    await writeFile(
      path.join(world.userHome, '.claude.json'),
      JSON.stringify({
        numStartups: 3,
        mcpServers: {
          github: {
            type: 'stdio',
            command: 'github-mcp-server',
            args: ['stdio'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET },
          },
        },
      }),
    );
    await mkdir(path.join(world.userHome, '.cursor'), { recursive: true });
    await writeFile(
      path.join(world.userHome, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { legacy: { url: 'https://example.com/sse' } } }),
    );
  }

  it('shows what other clients configure and writes nothing without --all or --only', async () => {
    await otherClients();
    const shown = await world.run(['import']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^\s+repo-notes\s+claude\s+project\s/m);
    expect(shown.stdout).toMatch(/^\s+github\s+claude\s+user\s+github-mcp-server stdio$/m);
    expect(shown.stdout).toMatch(/^\s+legacy\s+cursor\s+-\s+cannot be imported$/m);
    expect(shown.stdout).toContain('GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(shown.stdout).toMatch(/legacy.*SSE|SSE.*legacy/i);
    expect(shown.stdout).toContain('Nothing was written. Write them with --all');
    expect(await readFile(path.join(world.home, 'mcp.json'), 'utf8').catch(() => 'none')).toBe(
      'none',
    );
    expect(shown.stdout + shown.stderr).not.toContain(SECRET);
  });

  it("--all writes a repository's servers into the project file and yours into your file, never a secret", async () => {
    await otherClients();
    const done = await world.run(['import', '--all']);
    expect(done.stderr).not.toContain('garuda-mcp:');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      `Imported 1 server into ${path.join(world.root, '.garuda', 'mcp.json')}: repo-notes.`,
    );
    expect(done.stdout).toContain(
      `Imported 1 server into ${path.join(world.home, 'mcp.json')}: github.`,
    );
    const user = await readFile(path.join(world.home, 'mcp.json'), 'utf8');
    const project = await readFile(path.join(world.root, '.garuda', 'mcp.json'), 'utf8');
    expect(user).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_PERSONAL_ACCESS_TOKEN}"');
    expect(user + project + done.stdout + done.stderr).not.toContain(SECRET);
    expect(project).toContain('"repo-notes"');
    const listed = await world.run(['list', '--json']);
    const names = (JSON.parse(listed.stdout) as { servers: { name: string; source: string }[] })
      .servers;
    expect(names.map((s) => [s.name, s.source])).toEqual([
      ['github', 'user'],
      ['repo-notes', 'project'],
    ]);
    // Imported again: the names are taken, so the new ones would be renamed; --only picks.
    const again = await world.run(['import', '--only', 'github']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/No importable server is called "github".*github-2/);
  });

  it('refuses an unknown client and --all with --only', async () => {
    const bad = await world.run(['import', '--from', 'zed']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'use one of claude, claude-desktop, cursor, vscode, gemini, codex',
    );
    expect((await world.run(['import', '--all', '--only', 'x'])).code).toBe(2);
    const none = await world.run(['import']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("No other MCP client's file was found");
  });
});

describe('add and remove', () => {
  it('round trip: add a command server and a remote one, list them, remove one; other bytes stay', async () => {
    const added = await world.run([
      'add',
      'files',
      '--env',
      'TOKEN=${MY_TOKEN}',
      '--',
      'node',
      'server.js',
      '--flag',
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added MCP server files');
    const remote = await world.run([
      'add',
      'web',
      '--url',
      'https://mcp.example.com/mcp',
      '--header',
      'X-Team=core',
    ]);
    expect(remote.code).toBe(0);
    const file = path.join(world.home, 'mcp.json');
    const written = JSON.parse(await readFile(file, 'utf8')) as {
      servers: Record<string, unknown>;
    };
    expect(written.servers).toEqual({
      files: { command: 'node', args: ['server.js', '--flag'], env: { TOKEN: '${MY_TOKEN}' } },
      web: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'core' } },
    });
    const before = await readFile(file, 'utf8');

    const again = await world.run(['add', 'files', '--', 'node', 'other.js']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('--replace');
    expect(await readFile(file, 'utf8')).toBe(before);

    const removed = await world.run(['remove', 'files']);
    expect(removed.code).toBe(0);
    const after = JSON.parse(await readFile(file, 'utf8')) as { servers: Record<string, unknown> };
    expect(Object.keys(after.servers)).toEqual(['web']);
    const gone = await world.run(['remove', 'files']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`There is no MCP server "files" in your file (${file})`);
  });

  it('--project writes the project file and refuses what a project may not have', async () => {
    const local = await world.run(['add', 'tool', '--project', '--', 'node', 'x.js']);
    expect(local.code).toBe(0);
    expect(local.stderr).toContain('ask for consent');
    const project = JSON.parse(
      await readFile(path.join(world.root, '.garuda', 'mcp.json'), 'utf8'),
    ) as {
      servers: Record<string, unknown>;
    };
    expect(project.servers).toEqual({ tool: { command: 'node', args: ['x.js'] } });
    const loopback = await world.run([
      'add',
      'web',
      '--project',
      '--url',
      'http://127.0.0.1:9/mcp',
    ]);
    expect(loopback.code).toBe(3);
    expect(loopback.stderr).toMatch(/https|loopback|localhost/);
  });

  it('refuses a bad name, both or neither of command and URL, and warns about a written-out secret', async () => {
    expect((await world.run(['add', 'Bad Name', '--', 'node'])).code).toBe(3);
    expect((await world.run(['add', 'x'])).code).toBe(2);
    expect((await world.run(['add', 'x', '--url', 'https://a.example', '--', 'node'])).code).toBe(
      2,
    );
    expect(
      (await world.run(['add', 'x', '--header', 'nope', '--url', 'https://a.example'])).code,
    ).toBe(2);
    const secret = await world.run([
      'add',
      'api',
      '--url',
      'https://api.example.com/mcp',
      '--header',
      'Authorization=Bearer sk_live_0123456789abcdefghijklmnop',
    ]);
    expect(secret.code).toBe(0);
    expect(secret.stderr).toMatch(/Authorization looks like a secret written out/);
    expect(secret.stderr).not.toContain('sk_live_0123456789abcdefghijklmnop');
  });
});

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
    expect(trusted.stdout).toMatch(/^NAME\s+SOURCE\s+STATE\s+TOOLS\s+SANDBOX\s+NETWORK$/m);
    // Not a terminal: no colours.
    expect(CONTROL.test(trusted.stdout)).toBe(false);
  });

  it('enable/disable --session switch a server for this terminal session only, changing no file', async () => {
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
  });

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

  it('Ctrl-C during a call ends with 130 and leaves no server process', async () => {
    const mark = `garuda-cli-sigint-${process.pid}-${Date.now()}`;
    await world.userServers({ fx: fixtureEntry('normal', mark) });
    const child = world.spawn(['call', 'fx/slow', '{"ms":60000}', '--yes']);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await waitFor(() => stderr.includes('approved (--yes)'), { timeoutMs: 20_000 });
    child.kill('SIGINT');
    const result = await collect(child, undefined, 20_000);
    expect(result.code).toBe(130);
    expect(stderr + result.stderr).toContain('Interrupted');
    await waitFor(async () => (await pidsWith(mark)).length === 0);
  });
});

describe('the sandbox and /tmp', () => {
  it('a server under /tmp needs --sandbox-read (or $GARUDA_SANDBOX_READ) to start; a missing folder is a usage error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'garuda-cli-server-'));
    try {
      const server = path.join(dir, 'server.mjs');
      await writeFile(server, `import ${JSON.stringify(pathToFileURL(FIXTURE_SERVER).href)};\n`);
      await world.userServers({ tmp: { command: process.execPath, args: [server, 'normal'] } });
      const hidden = await world.run(['status', '--json'], { env: { GARUDA_SANDBOX_READ: '' } });
      const rows = (JSON.parse(hidden.stdout) as { servers: { state: string; detail?: string }[] })
        .servers;
      if (SANDBOXED) {
        expect(rows[0]).toMatchObject({ state: 'failed' });
        expect(rows[0]?.detail).toContain(`${server} is under /tmp`);
        const table = await world.run(['status'], { env: { GARUDA_SANDBOX_READ: '' } });
        expect(table.stdout).toContain('allow its folder with --sandbox-read <folder>');
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
});

describe('login and logout', () => {
  it('login signs in through --browser; status shows it; logout revokes; then status declines the sign-in', async () => {
    const oauth = await startOAuthFixture();
    closers.push(() => oauth.close());
    await world.userServers({ linear: { url: oauth.url.href } });
    const browser = `${process.execPath} ${FETCH_BROWSER}`;

    const login = await world.run(['login', 'linear', '--browser', browser]);
    expect(login.stderr).not.toContain('garuda-mcp:');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to MCP server linear');
    expect(login.stderr).toContain('needs a sign-in');
    expect(oauth.counts.tokensIssued).toBe(1);

    const status = await world.run(['status', '--json']);
    const rows = (JSON.parse(status.stdout) as { servers: { network: unknown; state: string }[] })
      .servers;
    expect(rows[0]).toMatchObject({
      state: 'connected',
      network: { kind: 'remote', url: oauth.url.href, signedIn: true },
    });
    expect((await world.run(['status'])).stdout).toContain(`remote ${oauth.url.href} · signed in`);

    const call = await world.run(['call', 'linear/echo', '{"text":"remote"}', '--yes']);
    expect(call.stdout).toContain('remote');

    const logout = await world.run(['logout', 'linear']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('Signed out of MCP server linear');
    expect(oauth.counts.revocations).toBeGreaterThan(0);

    const after = await world.run(['status']);
    expect(after.stdout).toMatch(/^linear\s+user\s+failed/m);
    expect(after.stderr).toContain('Declined: sign in to MCP server "linear"');
    expect(after.stderr).toContain('run garuda-mcp login linear');
    // Nobody was asked: the reason says so, not "you skipped it".
    expect(after.stdout).toContain(
      'linear: it needs a sign-in, and nobody was asked (no terminal): run garuda-mcp login linear on a terminal',
    );
    const doctor = await world.run(['doctor']);
    expect(doctor.stdout).toContain('nobody was asked (no terminal)');
    expect(doctor.stdout + after.stdout).not.toContain('you skipped');

    // No token reached any output or the config file.
    const auth = await readFile(path.join(world.home, 'mcp-auth.json'), 'utf8').catch(() => '');
    const config = await readFile(path.join(world.home, 'mcp.json'), 'utf8');
    const everything = [login, status, call, logout, after]
      .map((r) => r.stdout + r.stderr)
      .join('\n');
    expect(everything).not.toMatch(
      /\bat_[A-Za-z0-9_-]{20,}|\brt_[A-Za-z0-9_-]{20,}|\bcode_[A-Za-z0-9_-]{20,}/,
    );
    expect(config).not.toMatch(/at_|rt_/);
    expect(auth).not.toMatch(/"access_token"/);
  });

  it('a tool that needs more access: call says which scope and how; login --scope gets it', async () => {
    const oauth = await startOAuthFixture({
      mode: 'scoped',
      scopes: ['mcp:tools', 'mcp:write'],
      challengeScope: 'mcp:tools',
    });
    closers.push(() => oauth.close());
    await world.userServers({ notes: { url: oauth.url.href } });
    const browser = `${process.execPath} ${FETCH_BROWSER}`;
    expect((await world.run(['login', 'notes', '--browser', browser])).code).toBe(0);

    const refused = await world.run(['call', 'notes/write_note', '{"text":"hi"}', '--yes']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('asks for more access than your sign-in gives (mcp:write)');
    expect(refused.stderr).toContain('Declined: sign in to MCP server "notes"');
    expect(refused.stderr).toContain(
      'The call of mcp__notes__write_note needs more access to MCP server "notes" (it wants the scope mcp:write), and nobody could be asked to sign in (no terminal).',
    );
    expect(refused.stderr).not.toContain('you skipped');
    expect(refused.stderr).toContain(
      'Sign in for it with: garuda-mcp login notes --scope mcp:write',
    );

    const login = await world.run(['login', 'notes', '--scope', 'mcp:write', '--browser', browser]);
    expect(login.stderr).not.toContain('garuda-mcp:');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to MCP server notes');
    expect(oauth.lastAuthorizationRequest?.scope?.split(' ').sort()).toEqual([
      'mcp:tools',
      'mcp:write',
    ]);
    const done = await world.run(['call', 'notes/write_note', '{"text":"hi"}', '--yes']);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('stored: hi');
    expect(oauth.counts.codesIssued).toBe(2);

    const bad = await world.run(['login', 'notes', '--scope', 'has space']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('OAuth scope names');
  });

  it('GARUDA_BROWSER chooses the program when --browser is not given', async () => {
    const oauth = await startOAuthFixture();
    closers.push(() => oauth.close());
    await world.userServers({ linear: { url: oauth.url.href } });
    const login = await world.run(['login', 'linear', '--json'], {
      env: { GARUDA_BROWSER: `${process.execPath} ${FETCH_BROWSER}` },
    });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({ server: 'linear', connected: true, signedIn: true });
  });

  it('login of a local server or an unknown name is a usage error', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    expect((await world.run(['login', 'fx'])).stderr).toContain('only remote servers sign in');
    expect((await world.run(['login', 'nope'])).code).toBe(2);
  });
});

describe('help', () => {
  it('every option of a command is in that command’s --help', async () => {
    const { COMMAND_OPTIONS } = await import('../src/main.js');
    const byCommand = new Map<string, string[]>();
    for (const [option, commands] of Object.entries(COMMAND_OPTIONS)) {
      for (const command of commands)
        byCommand.set(command, [...(byCommand.get(command) ?? []), option]);
    }
    expect([...byCommand.keys()].sort()).toEqual(
      ['add', 'demo', 'disable', 'enable', 'import', 'login', 'remove'].sort(),
    );
    for (const [command, options] of byCommand) {
      const help = await world.run([command, '--help']);
      expect(help.code, command).toBe(0);
      const own = help.stdout.slice(help.stdout.indexOf(`Options of ${command}:`));
      expect(own, `${command} has an options section`).toMatch(/^Options of /);
      for (const option of options) {
        expect(own, `${command} --help names --${option}`).toMatch(
          new RegExp(`^  --${option}\\b`, 'm'),
        );
      }
    }
  });

  it('an unknown command suggests a close one, and only a close one', async () => {
    const typo = await world.run(['stauts']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown command "stauts". Did you mean status?');
    const far = await world.run(['frobnicate']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('Unknown command "frobnicate".');
    expect(far.stderr).not.toContain('Did you mean');
    const sub = await world.run(['trust', 'lsit']);
    expect(sub.stderr).toContain('Did you mean trust list?');
  });
});

describe('config problems are named first, by every command', () => {
  const BROKEN = { command: process.execPath, timeoutMs: 5 };

  it('a broken entry: call, tools, get, login, enable name the entry and its problem (exit 3)', async () => {
    await world.userServers({ good: fixtureEntry('normal'), broken: BROKEN });
    const file = path.join(world.home, 'mcp.json');
    const text = await readFile(file, 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('"timeoutMs": 5')) + 1;
    const place = new RegExp(
      `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+: server "broken": "timeoutMs" must be`,
    );
    for (const args of [
      ['call', 'broken/tool', '--yes'],
      ['call', 'mcp__broken__tool', '--yes'],
      ['tools', 'broken'],
      ['get', 'broken'],
      ['login', 'broken'],
    ]) {
      const result = await world.run(args);
      expect(result.code, args.join(' ')).toBe(3);
      // First the problem (before anything else), then why the command cannot go on.
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^config problem: ${place.source}`));
      expect(result.stderr).toContain(
        `garuda-mcp: MCP server "broken" cannot be used: its entry in ${file} is invalid:`,
      );
      expect(result.stderr).toContain('remove it: garuda-mcp remove broken');
      expect(result.stderr).not.toContain('No configured MCP server has a tool');
    }
    // Every command that reads the config says it first, also those that can go on.
    for (const args of [
      ['list'],
      ['status'],
      ['tools'],
      ['doctor'],
      ['get', 'good'],
      ['disable', 'broken'],
    ]) {
      const result = await world.run(args);
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^config problem: ${place.source}`));
    }
    // disable worked on the broken entry; its problem stays (exit 3 from list).
    expect(JSON.parse(await readFile(file, 'utf8')).servers.broken.enabled).toBe(false);
  });

  it('a file that does not parse: status, tools and list name it instead of "no servers configured"', async () => {
    const file = path.join(world.home, 'mcp.json');
    await writeFile(file, '{ "servers": {\n  "fx": { "command": "node" },\n}}\n');
    for (const args of [['status'], ['tools'], ['list'], ['doctor']]) {
      const result = await world.run(args);
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.stderr, args.join(' ')).toMatch(
        new RegExp(
          `^config problem: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: is not valid JSON`,
        ),
      );
      expect(result.stdout, args.join(' ')).not.toMatch(
        /No MCP servers are configured|none configured/,
      );
    }
    expect((await world.run(['status'])).stdout).toContain(
      `No MCP server was loaded: fix the problems listed above in ${file}.`,
    );
    // A name that may be in the unreadable file: exit 3, not "unknown server".
    const call = await world.run(['call', 'fx/echo', '--yes']);
    expect(call.code).toBe(3);
    expect(call.stderr).toContain(`MCP server "fx" was not found, and ${file} could not be read`);
    // An edit leaves it as it is and says why.
    const before = await readFile(file, 'utf8');
    const disable = await world.run(['disable', 'fx']);
    expect(disable.code).toBe(3);
    expect(disable.stderr).toContain(
      `${file} was not changed: fix the problems listed above first.`,
    );
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('status, list and doctor in a folder without .garuda create nothing there', async () => {
    const { mkdir: makeDir, readdir } = await import('node:fs/promises');
    const bare = path.join(world.userHome, 'bare-project');
    await makeDir(bare);
    await world.userServers({
      off: { ...fixtureEntry('normal'), enabled: false },
      web: { url: 'http://127.0.0.1:9/mcp' },
    });
    for (const args of [['status'], ['list'], ['doctor'], ['tools']]) {
      const result = await world.run([...args, '--root', bare]);
      expect(result.code, args.join(' ')).not.toBeNull();
      expect(await readdir(bare), args.join(' ')).toEqual([]);
    }
  });
});

describe('list and get', () => {
  it('list: every configured server with source, type, enabled and command line, none started', async () => {
    const ran = path.join(world.userHome, 'it-ran');
    const marker = {
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(ran)}, 'x')`],
    };
    await world.userServers({
      mine: { ...marker, enabled: false },
      web: { url: 'https://mcp.example.com/mcp' },
    });
    await world.projectServers({ theirs: { command: 'run me', args: ['two words'] } });
    const result = await world.run(['list']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^NAME\s+SOURCE\s+TYPE\s+ENABLED\s+COMMAND OR URL$/m);
    expect(result.stdout).toMatch(
      new RegExp(
        `^mine\\s+user\\s+stdio\\s+no\\s+${process.execPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -e `,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/^web\s+user\s+http\s+yes\s+https:\/\/mcp\.example\.com\/mcp$/m);
    expect(result.stdout).toMatch(/^theirs\s+project\s+stdio\s+yes\s+'run me' 'two words'$/m);
    const json = JSON.parse((await world.run(['list', '--json'])).stdout) as {
      servers: {
        name: string;
        source: string;
        kind: string;
        enabled: boolean;
        commandLine: string;
      }[];
    };
    expect(json.servers.map((s) => [s.name, s.source, s.kind, s.enabled])).toEqual([
      ['mine', 'user', 'local', false],
      ['web', 'user', 'remote', true],
      ['theirs', 'project', 'local', true],
    ]);
    expect(json.servers[2]?.commandLine).toBe("'run me' 'two words'");
    // Nothing was started (the marker server would have written its file).
    await expect(readFile(ran)).rejects.toMatchObject({ code: 'ENOENT' });
    // And nothing is remembered.
    await expect(readFile(path.join(world.home, 'trust.json'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('list names the entries that did not load', async () => {
    await world.userServers({ good: fixtureEntry('normal'), 'Bad Name': fixtureEntry('normal') });
    const result = await world.run(['list']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^good\s+user/m);
    expect(result.stdout).toContain(
      `Not loaded, because of the problems listed above: Bad Name (${path.join(world.home, 'mcp.json')}).`,
    );
  });

  it('get: one entry and its file, secrets written out masked, ${NAME} as written', async () => {
    const secret = 'sk_live_0123456789abcdefghijklmnop';
    await world.userServers({
      fx: {
        ...fixtureEntry('normal'),
        env: { API_KEY: 'plainvalue', TOKEN_REF: '${MY_TOKEN}', MODE: 'fast', LONG: secret },
        writePaths: ['/data'],
        readPaths: ['~/.kube', 'vendor/tool'],
        timeoutMs: 30_000,
      },
      web: {
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${WEB_TOKEN}', 'X-Api-Key': secret, 'X-Team': 'core' },
        oauth: { clientId: 'garuda-cli', scopes: ['a', 'b'] },
        enabled: false,
      },
    });
    const local = await world.run(['get', 'fx'], { env: { MY_TOKEN: 'x', WEB_TOKEN: 'y' } });
    expect(local.code).toBe(0);
    expect(local.stdout).toContain(
      `fx: a local server (stdio) in your file ${path.join(world.home, 'mcp.json')}`,
    );
    expect(local.stdout).toMatch(/^ {2}env\s+API_KEY=\*\*\*\*$/m);
    expect(local.stdout).toMatch(/^ {2}env\s+TOKEN_REF=\$\{MY_TOKEN\}$/m);
    expect(local.stdout).toMatch(/^ {2}env\s+MODE=fast$/m);
    expect(local.stdout).toMatch(/^ {2}env\s+LONG=\*\*\*\*$/m);
    expect(local.stdout).toMatch(/^ {2}writes\s+\/data$/m);
    expect(local.stdout).toMatch(/^ {2}reads\s+~\/\.kube, vendor\/tool$/m);
    expect(local.stdout).toMatch(/^ {2}timeout\s+30000 ms$/m);
    const remote = await world.run(['get', 'web'], { env: { MY_TOKEN: 'x', WEB_TOKEN: 'y' } });
    expect(remote.stdout).toMatch(/^ {2}header\s+Authorization: Bearer \$\{WEB_TOKEN\}$/m);
    expect(remote.stdout).toMatch(/^ {2}header\s+X-Api-Key: \*\*\*\*$/m);
    expect(remote.stdout).toMatch(/^ {2}header\s+X-Team: core$/m);
    expect(remote.stdout).toMatch(/^ {2}oauth\s+client id garuda-cli, scopes a b$/m);
    expect(remote.stdout).toMatch(/^ {2}enabled\s+no$/m);
    const json = JSON.parse((await world.run(['get', 'web', '--json'])).stdout) as {
      file: string;
      def: { headers: Record<string, string> };
      masked: string[];
    };
    expect(json.file).toBe(path.join(world.home, 'mcp.json'));
    expect(json.def.headers).toEqual({
      Authorization: 'Bearer ${WEB_TOKEN}',
      'X-Api-Key': '****',
      'X-Team': 'core',
    });
    expect(json.masked).toEqual(['headers.X-Api-Key']);
    for (const output of [local, remote]) {
      expect(output.stdout + output.stderr).not.toContain(secret);
      expect(output.stdout + output.stderr).not.toContain('plainvalue');
    }
  });
});

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

describe('add: --timeout, --write, --read and --replace', () => {
  it('writes timeoutMs and writePaths; checks --timeout as the schema does', async () => {
    const data = path.join(world.userHome, 'data');
    const { mkdir: makeDir } = await import('node:fs/promises');
    await makeDir(data);
    const added = await world.run([
      'add',
      'fs',
      '--timeout',
      '120000',
      '--write',
      data,
      '--write',
      '~/out',
      '--',
      'node',
      'fs.js',
    ]);
    expect(added.code).toBe(0);
    expect(
      JSON.parse(await readFile(path.join(world.home, 'mcp.json'), 'utf8')).servers.fs,
    ).toEqual({
      command: 'node',
      args: ['fs.js'],
      writePaths: [data, '~/out'],
      timeoutMs: 120_000,
    });
    // ~/out does not exist: the server would not start, and add says so.
    expect(added.stderr).toContain(
      `--write "~/out": ${path.join(world.userHome, 'out')} does not exist`,
    );
    expect(added.stderr).not.toContain(`--write "${data}"`);
    for (const bad of ['999', '600001', '5s', '1e4', '']) {
      const result = await world.run(['add', 'x', '--timeout', bad, '--', 'node']);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain(
        '--timeout takes the call time limit in milliseconds, a whole number from 1000 to 600000',
      );
    }
    const remote = await world.run([
      'add',
      'web',
      '--url',
      'https://a.example/mcp',
      '--write',
      data,
    ]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--write and --read are for command servers');
  });

  it("writes readPaths; refuses Garuda's own folder and a socket place; says what does not exist", async () => {
    const { mkdir: makeDir } = await import('node:fs/promises');
    await makeDir(path.join(world.userHome, '.kube'));
    const added = await world.run([
      'add',
      'k8s',
      '--read',
      '~/.kube',
      '--read',
      '~/.kube',
      '--read',
      '~/.config/gcloud',
      '--',
      'kubectl-mcp',
    ]);
    expect(added.code).toBe(0);
    expect(
      JSON.parse(await readFile(path.join(world.home, 'mcp.json'), 'utf8')).servers.k8s,
    ).toEqual({ command: 'kubectl-mcp', readPaths: ['~/.kube', '~/.config/gcloud'] });
    expect(added.stderr).toContain(
      `--read "~/.config/gcloud": ${path.join(world.userHome, '.config', 'gcloud')} does not exist`,
    );
    expect(added.stderr).not.toContain('--read "~/.kube"');
    for (const [bad, says] of [
      [world.home, "Garuda's own folder"],
      [path.join(world.home, 'trust.json'), "Garuda's own folder"],
      ['/run/user/1000', 'whose sockets lead out of the sandbox'],
    ] as const) {
      const result = await world.run(['add', 'x', '--read', bad, '--', 'node']);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain(`--read ${JSON.stringify(bad)} leads into`);
      expect(result.stderr, bad).toContain(says);
    }
    expect((await world.run(['add', 'x', '--read', '', '--', 'node'])).stderr).toContain(
      '--read needs a file or folder',
    );
    const got = await world.run(['get', 'k8s']);
    expect(got.stdout).toMatch(/^ {2}reads\s+~\/\.kube, ~\/\.config\/gcloud$/m);
  });

  it('--replace keeps what it does not mention, says so, and drops what the new kind cannot have', async () => {
    await world.userServers({
      fs: {
        command: 'old',
        args: ['--old'],
        env: { A: '${A}' },
        cwd: 'sub',
        writePaths: ['/data'],
        readPaths: ['~/.kube'],
        timeoutMs: 5000,
        enabled: false,
      },
      web: { url: 'https://a.example/mcp', oauth: { clientId: 'mine' }, headers: { 'X-A': '1' } },
    });
    const file = path.join(world.home, 'mcp.json');
    const local = await world.run(['add', 'fs', '--replace', '--env', 'B=2', '--', 'new', '--new']);
    expect(local.code).toBe(0);
    expect(local.stdout).toContain('Replaced MCP server fs');
    expect(local.stdout).toContain(
      'Kept from the old entry: cwd, writePaths, readPaths, timeoutMs, enabled (it stays disabled: garuda-mcp enable fs turns it on).',
    );
    const written = JSON.parse(await readFile(file, 'utf8')) as {
      servers: Record<string, unknown>;
    };
    expect(written.servers.fs).toEqual({
      command: 'new',
      args: ['--new'],
      env: { B: '2' },
      cwd: 'sub',
      writePaths: ['/data'],
      readPaths: ['~/.kube'],
      timeoutMs: 5000,
      enabled: false,
    });
    // --read replaces the read paths (the other fields stay).
    const reads = await world.run(['add', 'fs', '--replace', '--read', '~/.aws', '--', 'new']);
    expect(reads.stdout).toContain('Kept from the old entry: env, cwd, writePaths, timeoutMs');
    expect(
      (
        JSON.parse(await readFile(file, 'utf8')) as {
          servers: Record<string, { readPaths?: unknown }>;
        }
      ).servers.fs?.readPaths,
    ).toEqual(['~/.aws']);
    const remote = await world.run(['add', 'web', '--replace', '--url', 'https://b.example/mcp']);
    expect(remote.stdout).toContain('Kept from the old entry: oauth, headers.');
    expect(
      (JSON.parse(await readFile(file, 'utf8')) as { servers: Record<string, unknown> }).servers
        .web,
    ).toEqual({
      url: 'https://b.example/mcp',
      headers: { 'X-A': '1' },
      oauth: { clientId: 'mine' },
    });
    const kind = await world.run(['add', 'fs', '--replace', '--url', 'https://c.example/mcp']);
    expect(kind.code).toBe(0);
    expect(kind.stdout).toContain('Kept from the old entry: timeoutMs, enabled');
    expect(kind.stdout).toContain(
      'Dropped from the old entry: env, cwd, writePaths, readPaths (a remote server does not take them).',
    );
  });
});

describe('an unknown server name', () => {
  it.each([
    [['remove', 'fz']],
    [['remove', 'fz', '--project']],
    [['tools', 'fz']],
    [['call', 'fz/echo', '--yes']],
    [['login', 'fz']],
    [['logout', 'fz']],
    [['get', 'fz']],
    [['enable', 'fz']],
    [['disable', 'fz']],
    [['trust', 'forget', 'fz']],
  ])('%j exits 2 and suggests the close name', async (args) => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const result = await world.run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"fz"/);
    expect(result.stderr).toContain('Did you mean "fx"?');
    expect(result.stdout).toBe('');
  });

  it('a far name gets no suggestion', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const result = await world.run(['get', 'database']);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('Did you mean');
  });
});
