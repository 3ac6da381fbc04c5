// garuda-mcp serve: resource subscriptions pass through the gateway (see serve.test.ts for the
// set-up). A 2025 host subscribes with `resources/subscribe`, a 2026-07-28 host names the URIs in
// `subscriptions/listen`; either hears the updates of what it subscribed to, and only those, on
// stdio and over HTTP (a 2025 host in its session, on its GET stream). The `library` fixture's
// `touch_resource` sends `notifications/resources/updated` for any URI, subscribed or not.
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { gatewaysPerTest, httpClient } from './support/http-gateway.js';
import { hostsPerTest } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);
const gateway = gatewaysPerTest(() => world);

const README = 'note://library/readme';
const HOSTILE = 'note://library/hostile';
const hostUri = (uri: string) => `garuda://lib/${encodeURIComponent(uri)}`;

/** The updates the host hears, in order, and a wait for the next one of a URI. */
function updatesOf(client: Client) {
  const heard: string[] = [];
  const waiting = new Map<string, () => void>();
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    heard.push(notification.params.uri);
    waiting.get(notification.params.uri)?.();
  });
  return {
    heard,
    next: (uri: string) =>
      new Promise<void>((resolve) => waiting.set(uri, resolve)).finally(() => waiting.delete(uri)),
  };
}

function touch(client: Client, uri: string) {
  return client.callTool({ name: 'lib__touch_resource', arguments: { uri } });
}

/**
 * Touches `other`, then `subscribed`, and waits until the host heard `subscribed`: had the
 * update of `other` reached it, it would have come first.
 */
async function touchBoth(
  client: Client,
  updates: ReturnType<typeof updatesOf>,
  subscribed: string,
  other: string,
): Promise<void> {
  const heard = updates.next(hostUri(subscribed));
  await touch(client, other);
  await touch(client, subscribed);
  await heard;
}

describe('garuda-mcp serve: resource subscriptions', () => {
  it('a 2025 host hears the updates of what it subscribed to, and no more after unsubscribing', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-subscribe') });
    const { client } = await host(['--approvals', 'host']);
    expect(client.getServerCapabilities()?.resources).toMatchObject({
      subscribe: true,
      listChanged: true,
    });
    const updates = updatesOf(client);
    await client.subscribeResource({ uri: hostUri(README) });
    // An update of a URI it did not subscribe to never comes; the one it did, under its URI.
    await touchBoth(client, updates, README, HOSTILE);
    expect(updates.heard).toEqual([hostUri(README)]);

    // Unsubscribed, the next update of README is not told; HOSTILE's (subscribed now) is.
    await client.unsubscribeResource({ uri: hostUri(README) });
    await client.subscribeResource({ uri: hostUri(HOSTILE) });
    await touchBoth(client, updates, HOSTILE, README);
    expect(updates.heard).toEqual([hostUri(README), hostUri(HOSTILE)]);

    await expect(
      client.subscribeResource({ uri: hostUri('note://library/nowhere') }),
    ).rejects.toThrow(/No such resource behind this gateway/);
  });

  it('a 2026-07-28 host hears the updates of the URIs its listen names, until it closes it', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-listen') });
    const { client } = await host(['--approvals', 'host'], undefined, { modern: true });
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const updates = updatesOf(client);
    const listen = await client.listen({ resourceSubscriptions: [hostUri(README)] });
    await touchBoth(client, updates, README, HOSTILE);
    expect(updates.heard).toEqual([hostUri(README)]);

    // Closed, the listen lets go of README; a new one names HOSTILE.
    await listen.close();
    await client.listen({ resourceSubscriptions: [hostUri(HOSTILE)] });
    await touchBoth(client, updates, HOSTILE, README);
    expect(updates.heard).toEqual([hostUri(README), hostUri(HOSTILE)]);
  });

  it('over HTTP: a 2025 host subscribes in its session, a 2026-07-28 host listens, as on stdio', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-http-subscribe') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const legacy = await httpClient(url, stderr(), false);
    expect(legacy.getServerCapabilities()?.resources).toMatchObject({
      subscribe: true,
      listChanged: true,
    });
    const heard = updatesOf(legacy);
    await legacy.subscribeResource({ uri: hostUri(README) });
    await touchBoth(legacy, heard, README, HOSTILE);
    expect(heard.heard).toEqual([hostUri(README)]);
    await legacy.close();

    const client = await httpClient(url, stderr(), true);
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const updates = updatesOf(client);
    const listen = await client.listen({ resourceSubscriptions: [hostUri(README)] });
    await touchBoth(client, updates, README, HOSTILE);
    expect(updates.heard).toEqual([hostUri(README)]);
    await listen.close();
    await client.close();
  });
});
