// Resource subscriptions across host connections of one gateway: a real manager in front of the
// `library` fixture server (its `touch_resource` sends `notifications/resources/updated` for any
// URI), and real SDK clients of the 2025 revisions as hosts, each on a connection of its own. A
// server's URI stays subscribed while any host holds it, and only its holders hear its updates.
import path from 'node:path';
import type { ServerChange } from '@garuda/mcp-manager';
import { McpManager } from '@garuda/mcp-manager';
import { fixtureCommand, tempDir, waitFor, type TempDir } from '@garuda/test-utils';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';

const README = 'note://library/readme';
const HOSTILE = 'note://library/hostile';
const hostUri = (uri: string) => `garuda://lib/${encodeURIComponent(uri)}`;
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

let home: TempDir;
let gateway: Gateway;
/** What the manager told the gateway, in order. */
let changes: ServerChange[];
/** The URIs the gateway unsubscribed at the server, in order. */
let unsubscribed: string[];
const hosts: Client[] = [];

/** The real manager, telling when the gateway ends a server's subscription. */
class WatchedManager extends McpManager {
  override async unsubscribeResource(
    server: string,
    uri: string,
    options?: { readonly signal?: AbortSignal },
  ): Promise<void> {
    await super.unsubscribeResource(server, uri, options);
    unsubscribed.push(uri);
  }
}

beforeEach(async () => {
  home = await tempDir('garuda-gateway-subscriptions-');
  changes = [];
  unsubscribed = [];
  const servers = { lib: { ...fixtureCommand('library'), env: {} } };
  gateway = createGateway({
    manager: (hooks) =>
      new WatchedManager({
        root: home.path,
        home: path.join(home.path, '.garuda'),
        userHome: home.path,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        servers,
        sandbox: { readPaths: [REPO_ROOT] },
        ...hooks,
        onChange: (change) => {
          changes.push(change);
          hooks.onChange(change);
        },
      }),
    // Every call runs (the rules approve it): the host is asked nothing.
    rules: { consent: () => 'deny', notice: () => {}, approveCall: () => true },
    approvals: 'rules',
  });
  await gateway.started;
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})));
  await gateway.close();
  await home.cleanup();
});

/** A host on a connection of its own, and the updates it hears (with a wait for the next one). */
async function connectHost() {
  const [hostSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.server().connect(gatewaySide);
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  hosts.push(client);
  await client.connect(hostSide);
  const heard: string[] = [];
  const waiting = new Map<string, () => void>();
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.push(notification.params.uri);
    waiting.get(notification.params.uri)?.();
  });
  const next = (uri: string) =>
    new Promise<void>((resolve) => waiting.set(uri, resolve)).finally(() => waiting.delete(uri));
  return { client, heard, next };
}

const touch = (client: Client, uri: string) =>
  client.callTool({ name: 'lib__touch_resource', arguments: { uri } });
const updatesOf = (uri: string) =>
  changes.filter((change) => change.kind === 'resource' && change.resourceUri === uri).length;

describe('resource subscriptions across host connections', () => {
  it('counts holders: updates reach only holders, and the last to let go unsubscribes', async () => {
    const a = await connectHost();
    const b = await connectHost();
    await a.client.subscribeResource({ uri: hostUri(README) });
    await b.client.subscribeResource({ uri: hostUri(README) });
    await a.client.subscribeResource({ uri: hostUri(HOSTILE) });
    const both = [a.next(hostUri(README)), b.next(hostUri(README))];
    await touch(a.client, README);
    await Promise.all(both);

    // A lets go; B still holds README, so the server still sends it, to B only.
    await a.client.unsubscribeResource({ uri: hostUri(README) });
    const toB = b.next(hostUri(README));
    const marker = a.next(hostUri(HOSTILE));
    await touch(a.client, README);
    await touch(a.client, HOSTILE);
    await Promise.all([toB, marker]);
    expect(a.heard).toEqual([hostUri(README), hostUri(HOSTILE)]);
    expect(b.heard).toEqual([hostUri(README), hostUri(README)]);
    expect(updatesOf(README)).toBe(2);
    expect(unsubscribed).toEqual([]);

    // B goes away: nobody holds README, and the server's subscription of it ended.
    await b.client.close();
    await waitFor(() => unsubscribed.includes(README), { timeoutMs: 20_000 });
    const after = a.next(hostUri(HOSTILE));
    await touch(a.client, README);
    await touch(a.client, HOSTILE);
    await after;
    expect(updatesOf(README)).toBe(2);
    expect(updatesOf(HOSTILE)).toBe(2);
  });
});
