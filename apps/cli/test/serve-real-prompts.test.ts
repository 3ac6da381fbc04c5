// garuda-mcp serve in front of @modelcontextprotocol/server-everything (see serve-real.test.ts):
// its prompts, resources and templates passed through (a list_changed included), and a host's
// bad prompt arguments answered as invalid params.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { allStrings, hostileLeftovers, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { everything, framed, gatewayUri } from './support/everything.js';
import { EVERYTHING } from './support/paths.js';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const serveHost = hostsPerTest(() => world);
/** A host: starts `garuda-mcp serve args…` in the project with `env` added, and connects. */
function host(args: readonly string[], env: Record<string, string> = {}) {
  // Time enough, on a busy machine, for the gateway to stop its servers and exit by itself
  // once its stdin is closed (only then would close() send SIGTERM).
  return serveHost(args, undefined, { env, closeGraceMs: 20_000 });
}

describe('garuda-mcp serve in front of @modelcontextprotocol/server-everything', () => {
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
    // A binary resource: its bytes first (what the server sent first), the framed note after.
    const [blob, note, ...rest] = (await client.readResource({ uri: sessionUri })).contents as {
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
    const [data] = (await client.readResource({ uri: blob.replace('{resourceId}', '3') }))
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
