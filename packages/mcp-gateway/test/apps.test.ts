// MCP Apps through a real gateway, against the fixture server that serves one (`apps`), with
// real SDK clients as hosts: one that declares the extension (`io.modelcontextprotocol/ui`), of
// each protocol era, and one that does not.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { McpManager, type Prompter } from '@garuda/mcp-manager';
import {
  APP_DEFAULT_HTML,
  APP_MIME_TYPE,
  APP_RESOURCE_UI,
  APP_URI,
  fixtureCommand,
  tempDir,
  type TempDir,
} from '@garuda/test-utils';
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, startHttpGateway, type Gateway, type HttpGateway } from '../src/index.js';

/** The checkout, which the fixture servers are read from. */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } };
const HOST_APP_URI = `ui://fx/${encodeURIComponent(APP_URI)}`;

let home: TempDir;
let gateway: Gateway;
let http: HttpGateway | undefined;
const clients: Client[] = [];
/** The calls the gateway's rules were asked about (they allow each, as a rule set beforehand). */
let approved: string[];

beforeEach(async () => {
  home = await tempDir('garuda-gateway-apps-');
  const servers = { fx: fixtureCommand('apps') };
  const where = { root: home.path, home: `${home.path}/.garuda`, userHome: home.path, env: {} };
  approved = [];
  const rules: Prompter = {
    consent: async () => 'deny',
    notice: () => {},
    approveCall: async (request) => {
      approved.push(request.name);
      return true;
    },
  };
  gateway = createGateway({
    manager: (hooks) =>
      // The fixtures are read from the checkout, which may be under /tmp (the sandbox's own).
      new McpManager({ ...where, servers, sandbox: { readPaths: [REPO_ROOT] }, ...hooks }),
    rules,
    allowEveryCall: true,
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await http?.close();
  http = undefined;
  await gateway.close();
  await home.cleanup();
});

/** A host over an in-memory pair (2025: the capabilities of its `initialize`). */
async function memoryHost(apps: boolean): Promise<Client> {
  const [hostSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.server().connect(gatewaySide);
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { capabilities: apps ? { extensions: APPS } : {} },
  );
  clients.push(client);
  await client.connect(hostSide);
  return client;
}

/** A 2026-07-28 host over loopback HTTP (its capabilities travel in every request). */
async function httpHost(apps: boolean): Promise<Client> {
  http ??= await startHttpGateway({
    build: () => gateway.server(),
    token: { token: randomBytes(32).toString('base64url') },
    port: 0,
    onError: () => {},
  });
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { capabilities: apps ? { extensions: APPS } : {}, versionNegotiation: { mode: 'auto' } },
  );
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${http.token}` } },
    }),
  );
  return client;
}

describe.each([
  ['2025, in memory', memoryHost],
  ['2026-07-28, over HTTP', httpHost],
])('a host that declares MCP Apps (%s)', (_era, host) => {
  it('gets _meta.ui, the app-only tool with its visibility, and the app as pinned', async () => {
    const client = await host(true);
    const { tools } = await client.listTools();
    const board = tools.find((tool) => tool.name === 'fx__board');
    expect(board?._meta).toEqual({ ui: { resourceUri: HOST_APP_URI } });
    const refresh = tools.find((tool) => tool.name === 'fx__board_refresh');
    expect(refresh?._meta).toEqual({ ui: { resourceUri: HOST_APP_URI, visibility: ['app'] } });
    // A tool whose _meta.ui was not valid has none.
    expect(tools.find((tool) => tool.name === 'fx__bad_ui')?._meta).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'fx__echo')?._meta).toBeUndefined();

    const { resources } = await client.listResources();
    const apps = resources.filter((resource) => resource.uri.startsWith('ui://'));
    expect(apps).toEqual([
      expect.objectContaining({
        uri: HOST_APP_URI,
        name: `fx: ${APP_URI}`,
        mimeType: APP_MIME_TYPE,
        _meta: { ui: APP_RESOURCE_UI },
      }),
    ]);
    // The server's own listing of it is not offered as an ordinary resource too.
    expect(resources.filter((resource) => resource.uri.startsWith('garuda://fx/ui'))).toEqual([]);
    const read = await client.readResource({ uri: HOST_APP_URI });
    expect(read.contents).toEqual([
      {
        uri: HOST_APP_URI,
        mimeType: APP_MIME_TYPE,
        text: APP_DEFAULT_HTML,
        _meta: { ui: APP_RESOURCE_UI },
      },
    ]);

    // The app calls its tools through the host: by the gateway's name, or by its server's own;
    // each call is approved like any other.
    for (const name of ['fx__board_refresh', 'board_refresh']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('refreshed');
    }
    expect(approved).toEqual(['mcp__fx__board_refresh', 'mcp__fx__board_refresh']);
  });
});

describe.each([
  ['2025, in memory', memoryHost],
  ['2026-07-28, over HTTP', httpHost],
])('a host that does not declare MCP Apps (%s)', (_era, host) => {
  it('gets no _meta.ui, no app-only tool and no ui:// resource', async () => {
    const client = await host(false);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('fx__board');
    expect(tools.map((tool) => tool.name)).not.toContain('fx__board_refresh');
    expect(tools.filter((tool) => tool._meta !== undefined)).toEqual([]);
    const { resources } = await client.listResources();
    expect(resources.filter((resource) => /ui:|ui%3A/.test(resource.uri))).toEqual([]);
    await expect(client.readResource({ uri: HOST_APP_URI })).rejects.toThrow(/No such resource/);
    for (const name of ['fx__board_refresh', 'board_refresh']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('No tool');
    }
    expect(approved).toEqual([]);
  });
});
