// The manager's lifecycle through the public facade: one start(), concurrent starts, crashes,
// cancel and close() during start, reload(), start({ only }), a remote server that cannot be
// reached, a machine without a sandbox, many servers. Real fixture servers in the real sandbox.
import { NORMAL_TOOL_NAMES, startHttpFixture, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  AlreadyStartedError,
  ManagerClosedError,
  StartCancelledError,
  UnknownServerError,
} from '../src/index.js';
import { ScriptedPrompter, fixture, pidsWith, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

describe('lifecycle', () => {
  it('start() only once; reload() of an unknown server is an error', async () => {
    const { mcp } = await ws.startUserServers({ one: fixture('normal', ws.mark) });
    await expect(mcp.start()).rejects.toSatisfy(AlreadyStartedError.isInstance);
    await expect(mcp.reload('nope')).rejects.toSatisfy(UnknownServerError.isInstance);
  });

  it('starts 10 servers concurrently: a hanging and a crashing one do not hold up the other 8', async () => {
    const servers: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 8; i++) servers[`ok${i}`] = fixture('normal', ws.mark);
    servers.hang = fixture('hang', ws.mark);
    servers.boom = {
      command: process.execPath,
      args: ['-e', 'process.stderr.write("boom: no config\\n"); process.exit(1)', ws.mark],
    };
    await ws.userServers(servers);
    const prompter = new ScriptedPrompter();
    // The hanging one ends by this limit, the others must connect well within it: room for ten
    // processes starting at once on a busy two-core machine.
    const startTimeoutMs = 20_000;
    const mcp = ws.manager(prompter, { timeouts: { startMs: startTimeoutMs } });
    const starting = mcp.start();
    // The 8 are connected while the hanging one is still starting: it holds none of them up
    // (observed, not measured against a time a busy machine may overrun).
    const connected = () => mcp.status().filter((r) => r.state === 'connected').length;
    await waitFor(() => connected() === 8, { timeoutMs: startTimeoutMs });
    expect(mcp.status().find((r) => r.name === 'hang')?.state).toBe('starting');
    await starting;

    const rows = mcp.status();
    expect(rows.filter((r) => r.state === 'connected')).toHaveLength(8);
    const hang = rows.find((r) => r.name === 'hang');
    expect(hang?.state).toBe('failed');
    expect(hang?.detail).toMatch(/did not connect and list its tools within 20 s/);
    expect(hang?.detail).toMatch(/will never answer/);
    const boom = rows.find((r) => r.name === 'boom');
    expect(boom?.state).toBe('failed');
    expect(boom?.detail).toMatch(/exited with code 1.*boom: no config/);
    expect(prompter.notices.filter((n) => n.startsWith('MCP server "boom" failed'))).toHaveLength(
      1,
    );
    expect(mcp.tools()).toHaveLength(8 * NORMAL_TOOL_NAMES.length);
  });

  it('a server that crashes at start keeps its reason in the status, the notice and the note', async () => {
    const script =
      'process.stderr.write("w".repeat(400) + "\\n" + "v".repeat(400) + "\\n");' +
      'throw Object.assign(new Error("GITHUB_TOKEN is missing"), { code: "E_CONFIG" });';
    const { prompter, mcp } = await ws.startUserServers({
      gh: { command: process.execPath, args: ['-e', script, ws.mark] },
    });
    const row = mcp.status()[0];
    expect(row?.state).toBe('failed');
    const notice = prompter.notices.find((n) => n.startsWith('MCP server "gh" failed'));
    const shown = [row?.detail ?? '', notice ?? '', mcp.takeNotes().join('\n')];
    for (const text of shown) {
      expect(text).toMatch(/exited with code 1; stderr: .*Error: GITHUB_TOKEN is missing/);
      expect(text).not.toMatch(/Node\.js v\d|E_CONFIG|node:internal|www/);
    }
  });

  it('a server that says what is wrong and then prints a long usage keeps that first line', async () => {
    // Like @sentry/mcp-server without a token: the reason, then 60 lines of usage and examples.
    const script =
      'process.stderr.write("Error: No access token was provided.\\n");' +
      'for (let i = 0; i < 60; i++) process.stderr.write("  --option-" + i + "  what it does\\n");' +
      'process.stderr.write("Examples:\\n  server --access-token=TOKEN\\n");' +
      'process.exitCode = 1;';
    const { prompter, mcp } = await ws.startUserServers({
      sentry: { command: process.execPath, args: ['-e', script, ws.mark] },
    });
    const row = mcp.status()[0];
    expect(row?.state).toBe('failed');
    const notice = prompter.notices.find((n) => n.startsWith('MCP server "sentry" failed'));
    for (const text of [row?.detail ?? '', notice ?? '']) {
      expect(text).toMatch(/exited with code 1; stderr: .*Error: No access token was provided\./);
    }
  });

  it('a cancelled start keeps the connected servers and stops the others', async () => {
    await ws.userServers({ ok: fixture('normal', ws.mark), hang: fixture('hang', ws.mark) });
    const mcp = ws.manager(new ScriptedPrompter(), { timeouts: { startMs: 20_000 } });
    const controller = new AbortController();
    const started = mcp.start({ signal: controller.signal });
    await waitFor(() => mcp.status().find((r) => r.name === 'ok')?.state === 'connected');
    controller.abort();
    await expect(started).rejects.toSatisfy(StartCancelledError.isInstance);
    expect(mcp.status().map((r) => [r.name, r.state])).toEqual([
      ['ok', 'connected'],
      ['hang', 'stopped'],
    ]);
    await mcp.close();
    expect(await pidsWith(ws.mark)).toEqual([]);
  });

  it('close() during start withdraws the consent question and leaves no process', async () => {
    await ws.userServers({ ok: fixture('normal', ws.mark) });
    await ws.projectServers({ theirs: fixture('normal', ws.mark) });
    let asked: AbortSignal | undefined;
    const mcp = ws.manager({
      consent: (_request, signal) => {
        asked = signal;
        return new Promise(() => {}); // a person who never answers
      },
      notice: () => {},
      approveCall: () => Promise.resolve(true),
    });
    const started = mcp.start().catch((error: unknown) => error);
    await waitFor(() => asked !== undefined && mcp.status()[0]?.state === 'connected');
    await mcp.close();
    expect(asked?.aborted).toBe(true);
    expect(ManagerClosedError.isInstance(await started)).toBe(true);
    expect(mcp.status().map((r) => r.state)).toEqual(['stopped', 'stopped']);
    expect(await pidsWith(ws.mark)).toEqual([]);
  });

  it('reload() starts a server added since start() and drops one removed from the config', async () => {
    await ws.userServers({ one: fixture('normal', ws.mark) });
    const mcp = ws.manager(new ScriptedPrompter());
    await mcp.start();
    await ws.userServers({ two: fixture('normal', ws.mark) });
    await mcp.reload('two');
    await mcp.reload('one');
    expect(mcp.status().map((r) => [r.name, r.state])).toEqual([['two', 'connected']]);
    expect(mcp.tools().every((t) => t.server === 'two')).toBe(true);
  });
});

describe('other kinds of server and machine', () => {
  it('a remote server that cannot be reached is listed as failed, with the reason', async () => {
    // A port that was just free: nothing listens there.
    const gone = await startHttpFixture();
    await gone.close();
    await ws.userServers({ web: { url: String(gone.url) } });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter);
    await mcp.start();
    const [row] = mcp.status();
    expect(row).toMatchObject({
      name: 'web',
      source: 'user',
      state: 'failed',
      tools: 0,
      sandbox: { kind: 'remote' },
      network: { kind: 'remote', url: String(gone.url), signedIn: false },
    });
    // In words, not the SDK's "fetch failed".
    expect(row?.detail).toBe(
      `it could not connect to ${gone.url.origin}: the connection was refused (nothing listens at that address and port) [ECONNREFUSED]`,
    );
    expect(prompter.notices.join('\n')).toContain('[ECONNREFUSED]');
    expect(mcp.takeNotes()).toHaveLength(1);
  });

  it('with no OS sandbox the server still runs, and consent, status and a notice say so', async () => {
    await ws.projectServers({ bare: fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'once';
    const mcp = ws.manager(prompter, {
      sandbox: { info: { kind: 'none', reason: 'bubblewrap is not installed' } },
    });
    await mcp.start();
    expect(prompter.consents[0]?.sandbox).toEqual({
      kind: 'none',
      reason: 'bubblewrap is not installed',
    });
    expect(prompter.consents[0]?.warnings.join('\n')).toMatch(/sandbox/i);
    expect(prompter.notices).toEqual([
      'No OS sandbox is available (bubblewrap is not installed): local MCP servers run without one, with only an allowlisted environment.',
    ]);
    expect(mcp.status()[0]).toMatchObject({
      state: 'connected',
      sandbox: { kind: 'none', reason: 'bubblewrap is not installed' },
    });
    const result = await mcp.call('mcp__bare__env', {});
    const names = (JSON.parse(unwrap(result.text)) as { names: string[] }).names;
    expect(names.every((name) => ['HOME', 'LANG', 'PATH', 'PWD'].includes(name))).toBe(true);
  });
});

describe('start({ only })', () => {
  it('starts just the named servers; the others are stopped until reload(name)', async () => {
    await ws.userServers({ one: fixture('normal', ws.mark), two: fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter);
    await mcp.start({ only: ['two'] });
    expect(mcp.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['one', 'stopped', 'not started (this run needs other servers)'],
      ['two', 'connected', undefined],
    ]);
    expect(mcp.tools().every((tool) => tool.server === 'two')).toBe(true);
    // One server's processes run (with the sandbox: bwrap and the server); the reload doubles them.
    const oneServer = (await pidsWith(ws.mark)).length;
    expect(oneServer).toBeGreaterThan(0);
    await mcp.reload('one');
    expect(mcp.status().map((row) => row.state)).toEqual(['connected', 'connected']);
    expect(await pidsWith(ws.mark)).toHaveLength(2 * oneServer);
  });

  it('a name no file configures throws UnknownServerError and starts nothing', async () => {
    await ws.userServers({ one: fixture('normal', ws.mark) });
    const mcp = ws.manager(new ScriptedPrompter());
    await expect(mcp.start({ only: ['nope'] })).rejects.toBeInstanceOf(UnknownServerError);
    expect(await pidsWith(ws.mark)).toEqual([]);
  });
});

describe('many servers', () => {
  it('12 servers and a caller signal: Node prints no "possible leak" warning for the host', async () => {
    const servers: Record<string, Record<string, unknown>> = {};
    for (let k = 0; k < 12; k++) servers[`s${k}`] = fixture('normal', ws.mark);
    await ws.userServers(servers);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const mcp = ws.manager(new ScriptedPrompter(), {
        sandbox: { info: { kind: 'none', reason: 'this test counts listeners, not sandboxes' } },
      });
      await mcp.start({ signal: new AbortController().signal });
      expect(mcp.status().filter((row) => row.state === 'connected')).toHaveLength(12);
      await Promise.all(
        Array.from({ length: 12 }, (_, k) =>
          mcp.call(
            `mcp__s${k}__echo`,
            { text: String(k) },
            { signal: AbortSignal.timeout(20_000) },
          ),
        ),
      );
      // Node reports the warning on the next tick.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});
