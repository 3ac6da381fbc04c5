// What a direct server answers, the gateway answers: argument completion (by prompt and by
// resource template, mapped back to the owning server, values cleaned), the log level (relayed
// to the servers, which then say which level they were given) and the servers' logs (named by
// server, at the host's level), for real SDK hosts of both eras in front of real fixture
// servers. And a server's reserved `_meta` (a claimed identity among them) never reaches a host
// as the gateway's: the gateway's own identity is what a 2026 host sees.
import path from 'node:path';
import { McpManager } from '@garuda/mcp-manager';
import {
  FIXTURE_SERVER,
  RELAY_META,
  RELAY_NAMES,
  RELAY_TOPICS,
  allStrings,
  hostileLeftovers,
  tempUser,
  type TempUser,
} from '@garuda/test-utils';
import {
  Client,
  InMemoryTransport,
  LOG_LEVEL_META_KEY,
  SERVER_INFO_META_KEY,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, serveHttp, type Gateway, type HttpGateway } from '../src/index.js';
import { isReservedMetaKey } from '../src/offer/meta.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER_INFO = { name: 'garuda-mcp', version: '9.9.9' };
const TOKEN = 'relay-test-token';

let user: TempUser;
let gateway: Gateway;
let http: HttpGateway | undefined;
const hosts: Client[] = [];

beforeEach(async () => {
  user = await tempUser('garuda-gateway-relay-');
  const entry = (legacy: boolean) => ({
    command: process.execPath,
    args: [FIXTURE_SERVER, 'relay'],
    ...(legacy ? { env: { FIXTURE_ERA: 'legacy' } } : {}),
  });
  gateway = createGateway({
    approvals: 'host',
    // Every call runs: what is under test is what comes back.
    rules: { consent: () => 'once', notice: () => {}, approveCall: () => true },
    serverInfo: SERVER_INFO,
    manager: (hooks) =>
      new McpManager({
        root: user.root,
        home: user.home,
        userHome: user.userHome,
        env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
        servers: { relay: entry(true), modern: entry(false) },
        sandbox: { readPaths: [REPO_ROOT] },
        ...hooks,
      }),
  });
  await gateway.started;
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})));
  await http?.close();
  http = undefined;
  await gateway.close();
  await user.dir.cleanup();
});

/** A 2025 host on its own connection (it carries notifications outside a request). */
async function stdioLikeHost(): Promise<Client> {
  const [hostSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.server().connect(gatewaySide);
  const host = new Client({ name: 'test-host', version: '1.0.0' });
  hosts.push(host);
  await host.connect(hostSide);
  return host;
}

/** A host over the gateway's HTTP endpoint: 2026-07-28, or a 2025 one (stateless). */
async function httpHost(modern: boolean): Promise<Client> {
  http ??= await serveHttp(gateway, { token: { token: TOKEN }, port: 0, onError: () => {} });
  const host = new Client(
    { name: 'test-host', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  hosts.push(host);
  await host.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return host;
}

/** The text blocks of a result, joined. */
function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[])
    .map((block) => block.text ?? '')
    .join('\n');
}

describe.each([
  ['a 2025 host on its own connection', () => stdioLikeHost()],
  ['a 2025 host over HTTP', () => httpHost(false)],
  ['a 2026-07-28 host over HTTP', () => httpHost(true)],
])('completion/complete for %s', (_name, makeHost) => {
  it('completes a prompt argument and a template variable through the owning server, cleaned', async () => {
    const host = await makeHost();
    expect(host.getServerCapabilities()?.completions).toEqual({});
    const byPrompt = await host.complete({
      ref: { type: 'ref/prompt', name: 'relay__greet' },
      argument: { name: 'name', value: 'al' },
    });
    expect(byPrompt.completion.values).toEqual(['alice', 'alred', 'bobevil', 'carol', 'typed:al']);
    expect(byPrompt.completion).toMatchObject({ total: RELAY_NAMES.length + 1, hasMore: false });

    const { resourceTemplates } = await host.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.uriTemplate.startsWith('garuda://relay/'));
    expect(template).toBeDefined();
    const byTemplate = await host.complete({
      ref: { type: 'ref/resource', uri: template!.uriTemplate },
      argument: { name: 'topic', value: 'n' },
    });
    expect(byTemplate.completion.values).toEqual(['news', 'weather', 'sports', 'typed:n']);
    expect(byTemplate.completion.total).toBe(RELAY_TOPICS.length + 1);
    expect(
      allStrings([byPrompt.completion.values, byTemplate.completion.values]).flatMap(
        hostileLeftovers,
      ),
    ).toEqual([]);

    // A name the gateway does not offer is the host's mistake.
    await expect(
      host.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'name', value: '' },
      }),
    ).rejects.toThrow(/No prompt "greet" behind this gateway/);
  });
});

describe('logging', () => {
  it("relays the host's level to the servers, and their logs reach the host named, at that level", async () => {
    const host = await stdioLikeHost();
    expect(host.getServerCapabilities()?.logging).toEqual({});
    const heard: { level: string; logger?: string; data: unknown }[] = [];
    host.setNotificationHandler('notifications/message', (notification) => {
      heard.push(notification.params as (typeof heard)[number]);
    });
    await host.setLoggingLevel('warning');
    // The 2025 server was told (it says so itself); 2026-07-28 has no such request.
    const told = await host.callTool({ name: 'relay__levels', arguments: {} });
    expect(textOf(told)).toContain('["warning"]');

    // Below the host's level: not told. At or above it: told, named by its server, cleaned.
    await host.callTool({ name: 'relay__emit_log', arguments: { level: 'info', text: 'quiet' } });
    await host.callTool({
      name: 'relay__emit_log',
      arguments: { level: 'error', text: 'bad \u001b[31mred\u202e' },
    });
    await expect
      .poll(() => heard.some((entry) => entry.level === 'error'), { timeout: 10_000 })
      .toBe(true);
    expect(heard).toEqual([{ level: 'error', logger: 'relay/relaylog', data: 'bad red' }]);
  });

  it.each([
    ['a 2026-07-28 host, at the level its request names', true],
    ['a 2025 host over HTTP, at the level it set', false],
  ])("logs reach %s, on the call's own request", async (_name, modern) => {
    const host = await httpHost(modern);
    const heard: { level: string; logger?: string; data: unknown }[] = [];
    host.setNotificationHandler('notifications/message', (notification) => {
      heard.push(notification.params as (typeof heard)[number]);
    });
    if (!modern) await host.setLoggingLevel('warning');
    const emit = (level: string, text: string, named: boolean) =>
      host.callTool({
        name: 'relay__emit_log',
        arguments: { level, text },
        ...(named ? { _meta: { [LOG_LEVEL_META_KEY]: 'warning' } } : {}),
      });
    // A 2026 request that names no level asks for none.
    if (modern) expect(textOf(await emit('error', 'unasked', false))).toContain('logged');
    expect(textOf(await emit('info', 'quiet', true))).toContain('logged');
    expect(textOf(await emit('error', 'bad \u001b[31mred\u202e', true))).toContain('logged');
    // Each message came on its call's own stream, before that call's answer.
    expect(heard).toEqual([{ level: 'error', logger: 'relay/relaylog', data: 'bad red' }]);
  });
});

describe('reserved _meta', () => {
  it('is recognised by the spec rule (both revisions of it)', () => {
    for (const key of Object.keys(RELAY_META)) {
      expect(isReservedMetaKey(key)).toBe(key !== 'com.example/vendor');
    }
    expect(isReservedMetaKey('com.example.mcp/x')).toBe(false);
    expect(isReservedMetaKey('ui')).toBe(false);
  });

  it.each([
    ['a 2025 host', () => stdioLikeHost(), false],
    ['a 2026-07-28 host', () => httpHost(true), true],
  ])("never reaches %s from a server's list or result", async (_name, makeHost, modern) => {
    const host = await makeHost();
    const { tools } = await host.listTools();
    const listed = tools.filter((tool) => tool.name.endsWith('__meta_result'));
    expect(listed.map((tool) => tool.name).sort()).toEqual([
      'modern__meta_result',
      'relay__meta_result',
    ]);
    for (const tool of listed) expect(tool._meta).toBeUndefined();
    for (const name of ['relay__meta_result', 'modern__meta_result']) {
      const result = await host.callTool({ name, arguments: {} });
      expect(textOf(result)).toMatch(/>\nmeta\n<\/mcp_result>/);
      // The only `_meta` a host sees is the gateway's own identity, stamped on 2026 results.
      expect(result._meta).toEqual(modern ? { [SERVER_INFO_META_KEY]: SERVER_INFO } : undefined);
    }
  });
});
