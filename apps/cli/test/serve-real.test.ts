// garuda-mcp serve in front of a real third-party server: @modelcontextprotocol/server-everything
// (the devDependency, pinned), started as a user's config starts it — node and its installed
// entry — and sandboxed as every server is. The host is an SDK Client over our ProcessTransport
// (the SDK's own stdio transport is banned from the workspace: see test/e2e's topology test).
// What is checked: names and cleaned definitions, framed results, what becomes of an image and
// audio, the server's environment, prompts, resources and templates (a list_changed included),
// progress and cancellation, the closed network, no process left once the host goes away, and a
// host's bad prompt arguments answered as invalid params.
import { createServer as createHttpServer } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '@garuda/mcp-transport';
import {
  allStrings,
  hostileLeftovers,
  isProcessAlive,
  pidsWith,
  waitFor,
} from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BIN,
  EVERYTHING,
  fixtureEntry,
  framedJson,
  osSandboxed,
  worldPerTest,
  type CliWorld,
  auditCalls,
} from './support/index.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

// Without an OS sandbox there is nothing to prove about it: those checks are skipped, and CI
// (which requires one) fails.
const SANDBOXED = await osSandboxed();

const hosts: Client[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})));
});

/** server-everything as a user's config starts it; `mark` (an argument it ignores) finds it. */
function everything(mark: string): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, 'stdio', mark] };
}

/** A host: starts `garuda-mcp serve args…` in the project with `env` added, and connects. */
async function host(args: readonly string[], env: Record<string, string> = {}) {
  const transport = new ProcessTransport({
    command: process.execPath,
    args: [BIN, 'serve', ...args],
    env: world.env(env),
    cwd: world.root,
    // Time enough, on a busy machine, for the gateway to stop its servers and exit by itself
    // once its stdin is closed (only then would close() send SIGTERM).
    closeGraceMs: 20_000,
  });
  const client = new Client({ name: 'real-host', version: '1.0.0' });
  hosts.push(client);
  await client.connect(transport);
  return { client, transport };
}

function textOf(result: { content?: unknown }): string {
  const blocks = (result.content ?? []) as { type: string; text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

/** The frame the gateway puts around what a tool of server-everything returned. */
function framed(tool: string, body: string): string {
  return `<mcp_result server="everything" tool="${tool}">\n${body}\n</mcp_result>`;
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

/** The gateway's URI for one of server-everything's resources. */
const gatewayUri = (uri: string) => `garuda://everything/${encodeURIComponent(uri)}`;

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

  it('passes its prompts through: listed cleaned, got with arguments, an embedded blob as a note, a missing argument refused', async () => {
    await world.userServers({ everything: everything('garuda-real-prompts') });
    const { client } = await host(['--approvals', 'host']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining([
        'everything__simple-prompt',
        'everything__args-prompt',
        'everything__resource-prompt',
      ]),
    );
    expect(allStrings(prompts).flatMap(hostileLeftovers)).toEqual([]);
    const args = prompts.find((prompt) => prompt.name === 'everything__args-prompt');
    expect(args?.description).toBe(
      '[From MCP server "everything".] A prompt with two arguments, one required and one optional',
    );
    expect(args?.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false },
    ]);

    const weather = await client.getPrompt({
      name: 'everything__args-prompt',
      arguments: { city: 'Pune', state: 'MH' },
    });
    expect(weather.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "What's weather in Pune, MH?" } },
    ]);
    const embedded = await client.getPrompt({
      name: 'everything__resource-prompt',
      arguments: { resourceType: 'Blob', resourceId: '2' },
    });
    expect(embedded.messages.map((message) => message.content)).toEqual([
      {
        type: 'text',
        text: 'This prompt includes the Blob resource with id: 2. Please analyze the following resource:',
      },
      {
        type: 'text',
        text: expect.stringMatching(
          /^\[resource: demo:\/\/resource\/dynamic\/blob\/2, text\/plain, \d+ bytes, not shown\]$/,
        ),
      },
    ]);
    await expect(client.getPrompt({ name: 'everything__args-prompt' })).rejects.toThrow(
      /needs "city"/,
    );
  });

  it('passes its resources through under garuda:// URIs: a document read back framed as on disk, one it adds later read back as its blob', async () => {
    await world.userServers({ everything: everything('garuda-real-resources') });
    const { client } = await host(['--approvals', 'host']);
    const docs = path.join(path.dirname(EVERYTHING), 'docs');
    const documentUri = (name: string) => `demo://resource/static/document/${name}`;
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(
      (await readdir(docs)).map((name) => gatewayUri(documentUri(name))).sort(),
    );
    expect(allStrings(resources).flatMap(hostileLeftovers)).toEqual([]);
    const architecture = resources.find(
      (resource) => resource.uri === gatewayUri(documentUri('architecture.md')),
    );
    expect(architecture).toMatchObject({
      name: 'everything: architecture.md',
      mimeType: 'text/markdown',
      description: expect.stringContaining(`its URI: ${documentUri('architecture.md')}]`),
    });

    const read = await client.readResource({ uri: architecture!.uri });
    expect(read.contents).toEqual([
      {
        uri: architecture!.uri,
        mimeType: 'text/plain',
        text:
          `<mcp_resource server="everything" uri="${documentUri('architecture.md')}">\n` +
          `${await readFile(path.join(docs, 'architecture.md'), 'utf8')}\n</mcp_resource>`,
      },
    ]);

    // A tool that adds a resource: the server's list_changed goes through the manager, and the
    // new resource's gzip data comes back whole (a data: URI, so no network is needed).
    const zipped = await client.callTool({
      name: 'everything__gzip-file-as-resource',
      arguments: {
        name: 'hello.gz',
        data: `data:text/plain;base64,${Buffer.from('hello garuda').toString('base64')}`,
      },
    });
    expect(textOf(zipped)).toBe(
      framed('gzip-file-as-resource', '[resource link: demo://resource/session/hello.gz hello.gz]'),
    );
    const sessionUri = gatewayUri('demo://resource/session/hello.gz');
    await waitFor(async () =>
      (await client.listResources()).resources.some((resource) => resource.uri === sessionUri),
    );
    const [note, blob, ...rest] = (await client.readResource({ uri: sessionUri })).contents as {
      uri: string;
      mimeType?: string;
      text?: string;
      blob?: string;
    }[];
    expect(rest).toEqual([]);
    expect(note?.text).toMatch(
      /^<mcp_resource server="everything" uri="demo:\/\/resource\/session\/hello\.gz">\n\[binary: application\/gzip, \d+ bytes, not shown\]\n<\/mcp_resource>$/,
    );
    expect(blob).toMatchObject({ uri: sessionUri, mimeType: 'application/gzip' });
    expect(gunzipSync(Buffer.from(blob?.blob ?? '', 'base64')).toString('utf8')).toBe(
      'hello garuda',
    );
  });

  it('passes its resource templates through with their expressions kept; the host expands one and reads it', async () => {
    await world.userServers({ everything: everything('garuda-real-templates') });
    const { client } = await host(['--approvals', 'host']);
    const { resourceTemplates } = await client.listResourceTemplates();
    const text = 'garuda://everything/demo%3A%2F%2Fresource%2Fdynamic%2Ftext%2F{resourceId}';
    const blob = 'garuda://everything/demo%3A%2F%2Fresource%2Fdynamic%2Fblob%2F{resourceId}';
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([blob, text]);
    expect(resourceTemplates.find((template) => template.uriTemplate === text)).toMatchObject({
      name: 'everything: Dynamic Text Resource',
      mimeType: 'text/plain',
      description: expect.stringContaining(
        'its template: demo://resource/dynamic/text/{resourceId}]',
      ),
    });
    expect(allStrings(resourceTemplates).flatMap(hostileLeftovers)).toEqual([]);

    // Expanded as a host expands it (RFC 6570: the value goes where the expression was).
    const seven = text.replace('{resourceId}', '7');
    const read = await client.readResource({ uri: seven });
    expect(read.contents).toEqual([
      {
        uri: seven,
        mimeType: 'text/plain',
        text: expect.stringMatching(
          /^<mcp_resource server="everything" uri="demo:\/\/resource\/dynamic\/text\/7">\nResource 7: This is a plaintext resource created at [^\n]+\n<\/mcp_resource>$/,
        ),
      },
    ]);
    const [, data] = (await client.readResource({ uri: blob.replace('{resourceId}', '3') }))
      .contents as { blob?: string }[];
    expect(Buffer.from(data?.blob ?? '', 'base64').toString('utf8')).toMatch(
      /^Resource 3: This is a base64 blob created at /,
    );

    // What neither a listed resource nor a template gives is not read (the server is not asked).
    await expect(
      client.readResource({ uri: gatewayUri('demo://resource/elsewhere/1') }),
    ).rejects.toThrow(/No such resource behind this gateway/);
    await expect(
      client.readResource({ uri: 'garuda://other/demo%3A%2F%2Fresource%2Fdynamic%2Ftext%2F1' }),
    ).rejects.toThrow(/No such resource behind this gateway/);
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

describe('garuda-mcp serve: bad params from the host', () => {
  it("a prompt's missing argument is the host's invalid params (-32602), not an internal error", async () => {
    await world.userServers({ everything: everything('garuda-real-prompt-params') });
    const { client } = await host(['--approvals', 'host']);
    await expect(client.getPrompt({ name: 'everything__args-prompt' })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
