// garuda-mcp serve: a call's last progress report reaches the host before its result, for hosts
// of both protocol eras (see serve.test.ts for the set-up). The `chatty` fixture's
// `progress_burst` sends 1..N back to back and answers at once, well inside the manager's 100 ms
// progress interval: the last report is the one the manager holds until the result comes.
import { describe, expect, it } from 'vitest';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

const COUNT = 7;

describe('garuda-mcp serve: the last progress report', () => {
  for (const modern of [false, true]) {
    it(`reaches a ${modern ? '2026-07-28' : '2025'} host before the result (${COUNT}/${COUNT})`, async () => {
      await world.userServers({ fx: fixtureEntry('chatty', 'garuda-serve-progress') });
      const { client } = await host(['--approvals', 'host'], undefined, { modern });
      // Several calls: the report and the result leave the gateway within a millisecond.
      for (let round = 0; round < 5; round += 1) {
        const seen: { progress: number; total?: number }[] = [];
        const result = await client.callTool(
          { name: 'fx__progress_burst', arguments: { count: COUNT } },
          { onprogress: (update) => seen.push(update) },
        );
        expect(textOf(result)).toContain(`sent ${COUNT}`);
        expect(seen.at(-1)).toMatchObject({ progress: COUNT, total: COUNT });
      }
    });
  }
});
