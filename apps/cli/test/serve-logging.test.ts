// garuda-mcp serve relays logging as a direct server would: a host's level reaches the servers
// behind it (the server says which level it was given), their log messages reach the host named
// by server and at that level, and the operator's stderr still shows a server's warnings and
// worse. Completions reach the host cleaned.
import { RELAY_TEMPLATE } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

describe('garuda-mcp serve: logging and completion', () => {
  it("relays the host's log level, and the servers' logs reach the host and stderr", async () => {
    await world.userServers({
      relay: { ...fixtureEntry('relay', 'garuda-serve-logging'), env: { FIXTURE_ERA: 'legacy' } },
    });
    const { client, transport } = await host(['--approvals', 'host', '--yes']);
    const heard: { level: string; logger?: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      heard.push(notification.params as (typeof heard)[number]);
    });
    await client.setLoggingLevel('warning');
    expect(textOf(await client.callTool({ name: 'relay__levels', arguments: {} }))).toContain(
      '["warning"]',
    );
    await client.callTool({ name: 'relay__emit_log', arguments: { level: 'info', text: 'quiet' } });
    await client.callTool({
      name: 'relay__emit_log',
      arguments: { level: 'error', text: 'bad \u001b[31mred' },
    });
    await expect.poll(() => heard.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(heard).toEqual([{ level: 'error', logger: 'relay/relaylog', data: 'bad red' }]);
    await expect
      .poll(() => transport.stderrTail().join('\n'), { timeout: 10_000 })
      .toContain('MCP server "relay" error relaylog: bad red');

    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.uriTemplate.startsWith('garuda://relay/'));
    expect(template?.description).toContain(RELAY_TEMPLATE);
    const completed = await client.complete({
      ref: { type: 'ref/resource', uri: template!.uriTemplate },
      argument: { name: 'topic', value: 'w' },
    });
    expect(completed.completion.values).toContain('weather');
  });
});
