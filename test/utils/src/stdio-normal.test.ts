import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURE_MODES,
  FIXTURE_SERVER,
  NORMAL_TOOL_NAMES,
  fixtureCommand,
} from './fixture-server.js';
import { tempDir, type TempDir } from './temp-dir.js';
import { connectStdio, newClient, textOf, type StdioConnection } from './test-support.js';
import { waitFor } from './wait-for.js';

describe('fixtureCommand', () => {
  it('runs the fixture with the current Node binary', () => {
    expect(fixtureCommand('normal')).toEqual({
      command: process.execPath,
      args: [FIXTURE_SERVER, 'normal'],
    });
    expect(FIXTURE_SERVER).toMatch(/\/fixtures\/mcp-server\.mjs$/);
  });

  it('knows every mode and refuses others', () => {
    for (const mode of [
      'normal',
      'evil',
      'changed',
      'many',
      'longnames',
      'badtool',
      'crash',
      'hang',
      'noisy',
      'huge',
      'escape',
    ]) {
      expect(FIXTURE_MODES).toContain(mode);
    }
    expect(() => fixtureCommand('nope' as never)).toThrow(TypeError);
  });
});

describe('mcp-server.mjs with an unknown mode', () => {
  it.each([['bogus'], ['']])('exits 2 with a message on stderr (%j)', (mode) => {
    const r = spawnSync(process.execPath, [FIXTURE_SERVER, ...(mode ? [mode] : [])], {
      encoding: 'utf8',
      timeout: 25_000, // a safety net only: it exits at once
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown mode');
    expect(r.stderr).toContain('normal');
  });
});

describe.each(['auto', 'legacy'] as const)('normal mode, %s client', (negotiation) => {
  let cwd: TempDir;
  let c: StdioConnection;

  beforeAll(async () => {
    cwd = await tempDir('garuda-fixture-cwd-');
    c = await connectStdio('normal', negotiation, {
      cwd: cwd.path,
      env: { PATH: process.env.PATH, GARUDA_FIXTURE_A: 'value-a', GARUDA_FIXTURE_B: 'value-b' },
    });
  });
  afterAll(async () => {
    await c?.close();
    await cwd?.cleanup();
  });

  it('negotiates the expected era', () => {
    expect(c.client.getProtocolEra()).toBe(negotiation === 'auto' ? 'modern' : 'legacy');
    if (negotiation === 'legacy') {
      expect(c.client.getServerVersion()).toMatchObject({ name: 'garuda-fixture' });
    }
  });

  it('lists the normal tools', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(NORMAL_TOOL_NAMES);
    const add = tools.find((t) => t.name === 'add');
    expect(add?.outputSchema).toMatchObject({ type: 'object', required: ['sum'] });
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  });

  it('echo, add, fail', async () => {
    const echo = await c.client.callTool({ name: 'echo', arguments: { text: 'héllo ✓' } });
    expect(textOf(echo)).toBe('héllo ✓');
    expect(echo.isError).toBeFalsy();

    const add = await c.client.callTool({ name: 'add', arguments: { a: 2, b: 3.5 } });
    expect(textOf(add)).toBe('5.5');
    expect(add.structuredContent).toEqual({ sum: 5.5 });

    const fail = await c.client.callTool({ name: 'fail', arguments: { message: 'nope' } });
    expect(fail.isError).toBe(true);
    expect(textOf(fail)).toBe('nope');

    const bad = await c.client.callTool({ name: 'add', arguments: { a: 'x' } });
    expect(bad.isError).toBe(true);
  });

  it('env lists sorted names and reveals only the values asked for', async () => {
    const r = await c.client.callTool({
      name: 'env',
      arguments: { names: ['GARUDA_FIXTURE_A', 'NOT_SET_ANYWHERE'] },
    });
    const report = JSON.parse(textOf(r)) as { names: string[]; values: Record<string, string> };
    expect(report.names).toContain('GARUDA_FIXTURE_B');
    expect(report.names).toEqual([...report.names].sort());
    expect(report.values).toEqual({ GARUDA_FIXTURE_A: 'value-a' });
  });

  it('cwd is the working directory it was started in', async () => {
    const r = await c.client.callTool({ name: 'cwd', arguments: {} });
    expect(textOf(r)).toBe(cwd.path);
  });

  it('content returns one block of each type', async () => {
    const r = await c.client.callTool({ name: 'content', arguments: {} });
    const blocks = r.content as { type: string }[];
    expect(blocks.map((b) => b.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource_link',
      'resource',
    ]);
    expect(blocks[4]).toMatchObject({ resource: { text: 'embedded resource text' } });
  });

  it('slow finishes, reports progress, and stops when cancelled', async () => {
    const progress: number[] = [];
    const done = await c.client.callTool(
      { name: 'slow', arguments: { ms: 250 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(textOf(done)).toBe('done');
    expect(progress.length).toBeGreaterThan(0);

    // Cancelled once the server runs the tool (its first progress says so), not after a fixed
    // time: on a busy machine the request may not even have reached the server by then.
    const controller = new AbortController();
    const stop = new SdkError(SdkErrorCode.RequestTimeout, 'cancelled by the test');
    let running!: () => void;
    const runs = new Promise<void>((resolve) => (running = resolve));
    const call = c.client.callTool(
      { name: 'slow', arguments: { ms: 60_000 } },
      { signal: controller.signal, onprogress: () => running() },
    );
    call.catch(() => {}); // observed below, after the first progress
    await runs;
    controller.abort(stop);
    await expect(call).rejects.toBe(stop);
    // The server saw the cancellation and stopped waiting (long before its 60 s were up).
    await waitFor(() => c.transport.stderrText.includes('slow: cancelled'), { timeoutMs: 20_000 });
  });
});

describe("the SDK's StdioClientTransport (allowed in test-utils tests only)", () => {
  it.each(['auto', 'legacy'] as const)('works with a %s client', async (negotiation) => {
    const { command, args } = fixtureCommand('normal');
    const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
    const client = newClient(negotiation);
    try {
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe(negotiation === 'auto' ? 'modern' : 'legacy');
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(NORMAL_TOOL_NAMES.length);
      const r = await client.callTool({ name: 'echo', arguments: { text: 'via sdk' } });
      expect(textOf(r)).toBe('via sdk');
    } finally {
      await client.close();
    }
  });
});
