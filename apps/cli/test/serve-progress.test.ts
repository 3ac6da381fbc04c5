// garuda-mcp serve: a call's last progress report reaches the host before its result, for hosts
// of both protocol eras (see serve.test.ts for the set-up). The `chatty` fixture's
// `progress_burst` sends 1..N back to back and answers at once, well inside the manager's 100 ms
// progress interval: the last report is the one the manager holds until the result comes.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

const COUNT = 7;

/** The last progress report on the wire before the response to `id`, and whether one came after. */
function lastReportBefore(wire: readonly JSONRPCMessage[], id: unknown) {
  const at = wire.findIndex(
    (message) => 'id' in message && 'result' in message && message.id === id,
  );
  const reports = (messages: readonly JSONRPCMessage[]) =>
    messages.filter(
      (message) => 'method' in message && message.method === 'notifications/progress',
    );
  const before = reports(wire.slice(0, at)).at(-1) as
    { params?: Record<string, unknown> } | undefined;
  const lastAt = wire.lastIndexOf(before as JSONRPCMessage);
  const pinged = wire
    .slice(lastAt + 1, at)
    .some((message) => 'method' in message && message.method === 'ping');
  return {
    found: at >= 0,
    last: before?.params,
    after: reports(wire.slice(at + 1)).length,
    pinged,
  };
}

describe('garuda-mcp serve: the last progress report', () => {
  for (const modern of [false, true]) {
    it(`reaches a ${modern ? '2026-07-28' : '2025'} host before the result (${COUNT}/${COUNT})`, async () => {
      await world.userServers({ fx: fixtureEntry('chatty', 'garuda-serve-progress') });
      const { client, transport } = await host(['--approvals', 'host'], undefined, { modern });
      // What the gateway wrote, in the order the host read it.
      const wire: JSONRPCMessage[] = [];
      const deliver = transport.onmessage;
      transport.onmessage = (message) => {
        wire.push(message);
        deliver?.(message);
      };
      // Several calls: the report and the result leave the gateway within a millisecond.
      for (let round = 0; round < 5; round += 1) {
        const seen: { progress: number; total?: number }[] = [];
        wire.length = 0;
        const result = await client.callTool(
          { name: 'fx__progress_burst', arguments: { count: COUNT } },
          { onprogress: (update) => seen.push(update) },
        );
        expect(textOf(result)).toContain(`sent ${COUNT}`);
        const call = wire.find(
          (message) =>
            'result' in message && textOf(message.result as { content?: unknown }).includes('sent'),
        );
        const order = lastReportBefore(
          wire,
          call !== undefined && 'id' in call ? call.id : undefined,
        );
        expect(order).toMatchObject({
          found: true,
          last: { progress: COUNT, total: COUNT },
          after: 0,
        });
        // A 2025 host answered the gateway's ping after it read the report, so its SDK handed the
        // report over before the result. A 2026-07-28 host cannot be asked: the gap it gets is a
        // best effort, and only the order on the wire is certain.
        expect(order.pinged).toBe(!modern);
        if (!modern) expect(seen.at(-1)).toMatchObject({ progress: COUNT, total: COUNT });
      }
    });
  }
});
