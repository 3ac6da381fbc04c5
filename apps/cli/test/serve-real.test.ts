// garuda-mcp serve in front of a real third-party server: @modelcontextprotocol/server-everything
// (the devDependency, pinned), started as a user's config starts it — node and its installed
// entry — and sandboxed as every server is. The host is an SDK Client over our ProcessTransport
// (the SDK's own stdio transport is banned from the workspace: see test/e2e's topology test).
// What is checked here: names and cleaned definitions, framed results, what becomes of an image
// and audio, the server's environment, progress and cancellation, the closed network, and no
// process left once the host goes away. Its prompts and resources: serve-real-prompts.test.ts.
import { createServer as createHttpServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  allStrings,
  hostileLeftovers,
  isProcessAlive,
  pidsWith,
  waitFor,
} from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { everything, framed } from './support/everything.js';
import { auditCalls, framedJson } from './support/rounds.js';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, osSandboxed, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

// Without an OS sandbox there is nothing to prove about it: those checks are skipped, and CI
// (which requires one) fails.

const SANDBOXED = await osSandboxed();
const serveHost = hostsPerTest(() => world);
/** A host: starts `garuda-mcp serve args…` in the project with `env` added, and connects. */
function host(args: readonly string[], env: Record<string, string> = {}) {
  // Time enough, on a busy machine, for the gateway to stop its servers and exit by itself
  // once its stdin is closed (only then would close() send SIGTERM).
  return serveHost(args, undefined, { env, closeGraceMs: 20_000 });
}

/** The tools server-everything always registers (others depend on the client's capabilities). */
const ALWAYS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
];

describe('garuda-mcp serve in front of @modelcontextprotocol/server-everything', () => {
  it('lists its tools as everything__<tool> with cleaned descriptions and frames what echo and get-sum return', async () => {
    await world.userServers({ everything: everything('garuda-real-tools') });
    const { client } = await host(['--approvals', 'host']);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(ALWAYS.map((tool) => `everything__${tool}`)));
    for (const name of names) expect(name).toMatch(/^everything__[a-z-]+$/);
    expect(allStrings(tools).flatMap(hostileLeftovers)).toEqual([]);
    const echo = tools.find((tool) => tool.name === 'everything__echo');
    expect(echo?.description).toMatch(
      /^\[From MCP server "everything"\.[^\]]*\] Echoes back the input string$/,
    );
    expect(echo?.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });

    const said = await client.callTool({
      name: 'everything__echo',
      arguments: { message: 'hello through garuda' },
    });
    expect(said.isError).toBe(false);
    expect(said.content).toEqual([
      { type: 'text', text: framed('echo', 'Echo: hello through garuda') },
    ]);
    const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 40 } });
    expect(textOf(sum)).toBe(framed('get-sum', 'The sum of 2 and 40 is 42.'));
    // The server's own refusal of bad arguments reaches the host as its error, framed.
    const bad = await client.callTool({ name: 'everything__echo', arguments: { message: 5 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(
      /^<mcp_result server="everything" tool="echo">\n.*Input validation error.*\n<\/mcp_result>$/,
    );
  });

  it('without --approvals host runs only what --allow names; the rest is refused, naming the command that allows it', async () => {
    await world.userServers({ everything: everything('garuda-real-allow') });
    const { client } = await host(['--allow', 'mcp.everything.echo']);
    const said = await client.callTool({ name: 'everything__echo', arguments: { message: 'ok' } });
    expect(textOf(said)).toBe(framed('echo', 'Echo: ok'));
    const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } });
    expect(sum.isError).toBe(true);
    expect(textOf(sum)).toContain('This call was not run');
    expect(textOf(sum)).toContain('`--allow mcp.everything.get-sum`');
    expect(textOf(sum)).not.toContain('<mcp_result');
  });

  it('images and audio: a note in the framed text for the model, the raster data as typed blocks after it', async () => {
    // server-everything has an image tool but no audio one: the fixture's `content` has both.
    await world.userServers({
      everything: everything('garuda-real-image'),
      fx: fixtureEntry('normal', 'garuda-real-audio'),
    });
    const { client } = await host(['--approvals', 'host']);
    const image = await client.callTool({ name: 'everything__get-tiny-image', arguments: {} });
    expect(image.isError).toBe(false);
    const [text, png, ...rest] = image.content as { type: string; text?: string; data?: string }[];
    expect(rest).toEqual([]);
    const note = new RegExp(
      '^<mcp_result server="everything" tool="get-tiny-image">\\n' +
        "Here's the image you requested:\\n" +
        '\\[image: image/png, (\\d+) bytes, not shown\\]\\n' +
        'The image above is the MCP logo\\.\\n</mcp_result>$',
    ).exec(text?.text ?? '');
    expect(note, text?.text).not.toBeNull();
    expect(png).toMatchObject({ type: 'image', mimeType: 'image/png' });
    // The data is the PNG the note speaks of: its signature, and as many bytes as the note says.
    const bytes = Buffer.from(png?.data ?? '', 'base64');
    expect(bytes.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(bytes.length).toBe(Number(note?.[1]));

    const mixed = await client.callTool({ name: 'fx__content', arguments: {} });
    expect(textOf(mixed)).toMatch(/\n\[image: image\/png, \d+ bytes, not shown\]\n/);
    expect(textOf(mixed)).toMatch(/\n\[audio: audio\/wav, \d+ bytes, not shown\]\n/);
    expect(
      (mixed.content as { type: string; mimeType?: string }[]).map((block) => [
        block.type,
        block.mimeType,
      ]),
    ).toEqual([
      ['text', undefined],
      ['image', 'image/png'],
      ['audio', 'audio/wav'],
      // The embedded text resource, typed after the media (its text cleaned).
      ['resource', undefined],
    ]);
  });

  it("gives the server none of the gateway's environment: no GARUDA_* variable, no secret", async () => {
    await world.userServers({ everything: everything('garuda-real-env') });
    const { client } = await host(['--approvals', 'host'], {
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      MY_SERVICE_TOKEN: 'garuda-test-token-not-for-servers',
    });
    const result = await client.callTool({ name: 'everything__get-env', arguments: {} });
    const text = textOf(result);
    const env = framedJson<Record<string, string>>(text);
    expect(env.PWD).toBe(world.root);
    expect(Object.keys(env).filter((name) => name.startsWith('GARUDA_'))).toEqual([]);
    expect(text).not.toContain('EXAMPLEKEY');
    expect(text).not.toContain('garuda-test-token-not-for-servers');
  });
  it("tells a host that asked for it the server's progress on its call", async () => {
    await world.userServers({ everything: everything('garuda-real-progress') });
    const { client } = await host(['--approvals', 'host']);
    const reports: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 2, steps: 4 } },
      { onprogress: (progress) => reports.push(progress) },
    );
    expect(textOf(result)).toBe(
      framed(
        'trigger-long-running-operation',
        'Long running operation completed. Duration: 2 seconds, Steps: 4.',
      ),
    );
    // One report a step (the manager passes at most one every 100 ms, each larger than the last).
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const [index, report] of reports.entries()) {
      expect(report.total).toBe(4);
      if (index > 0) expect(report.progress).toBeGreaterThan(reports[index - 1]!.progress);
    }
  });

  it("a host's cancel stops the call behind the gateway: the server's next call does not wait for it", async () => {
    await world.userServers({ everything: everything('garuda-real-cancel') });
    const { client } = await host(['--approvals', 'host']);
    const cancel = new AbortController();
    const long = client.callTool(
      {
        name: 'everything__trigger-long-running-operation',
        arguments: { duration: 30, steps: 30 },
      },
      // Cancelled once the server said it is running (its first progress report).
      { signal: cancel.signal, onprogress: () => cancel.abort() },
    );
    await expect(long).rejects.toThrow(/abort/i);
    // A server's calls run one at a time: had the cancel not reached the call, this one would
    // wait for the rest of its 30 s, and the log below would say the long one ended "ok".
    const said = await client.callTool({ name: 'everything__echo', arguments: { message: 'x' } });
    expect(textOf(said)).toBe(framed('echo', 'Echo: x'));
    // The audit log says so (its lines may land after the results: wait for both).
    const calls = () => auditCalls(world.home);
    await waitFor(async () => (await calls()).length >= 2);
    expect(await calls()).toEqual([
      ['trigger-long-running-operation', 'cancelled'],
      ['echo', 'ok'],
    ]);
  });

  it('leaves neither the gateway nor the server running once the host closes', async () => {
    const mark = `garuda-real-gone-${process.pid}`;
    await world.userServers({ everything: everything(mark) });
    const { client, transport } = await host(['--approvals', 'host']);
    await client.listTools();
    const gateway = transport.pid;
    expect(isProcessAlive(gateway)).toBe(true);
    const running = await pidsWith(mark);
    expect(running.length).toBeGreaterThan(0);
    if (SANDBOXED && process.platform === 'linux') {
      // The server runs under bubblewrap: one of the processes with its arguments is bwrap.
      const programs = await Promise.all(
        running.map(
          async (pid) =>
            (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0')[0],
        ),
      );
      expect(programs.map((program) => path.basename(program ?? ''))).toContain('bwrap');
    }
    await client.close();
    // It ended by itself once its stdin closed (close() waits for that before any signal).
    expect(transport.exit).toEqual({ code: 0, signal: null, requested: true });
    await waitFor(async () => !isProcessAlive(gateway) && (await pidsWith(mark)).length === 0, {
      timeoutMs: 60_000,
    });
  });
});

describe.skipIf(!SANDBOXED)('garuda-mcp serve: server-everything in the sandbox', () => {
  it('cannot fetch from this machine: its gzip tool fails with the sandbox note and the listener sees no request', async () => {
    let requests = 0;
    const listener = createHttpServer((_req, res) => {
      requests += 1;
      res.end('leaked');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as { port: number };
    try {
      await world.userServers({ everything: everything('garuda-real-network') });
      const { client } = await host(['--approvals', 'host']);
      const result = await client.callTool({
        name: 'everything__gzip-file-as-resource',
        arguments: { name: 'net.gz', data: `http://127.0.0.1:${port}/`, outputType: 'resource' },
      });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/^<mcp_result server="everything" tool="gzip-file-as-resource">\n/);
      expect(text).toContain('MCP server "everything" has no network access in the sandbox');
      expect(text).not.toContain('leaked');
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
