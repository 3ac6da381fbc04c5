// garuda-mcp serve --http, its calls: questions asked of each client in its own call, a host's
// cancel reaching the call behind the gateway (a 2026-07-28 host's and a 2025 host's), and a
// server called over HTTP as closed in as one called over stdio.
import { existsSync } from 'node:fs';
import { createServer as createTcpServer } from 'node:net';
import path from 'node:path';
import { detectSandbox } from '@garuda/mcp-transport';
import { sandboxOutcomes, type EscapeReport } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  askingClient,
  cancelStopsTheCall,
  gatewaysPerTest,
  httpClient,
} from './support/http-gateway.js';
import { escapeArguments } from './support/escape.js';
import { framedJson, questionsStayWithTheirCalls } from './support/rounds.js';
import { fixtureEntry, osSandboxed, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const gateway = gatewaysPerTest(() => world);

// Without an OS sandbox there is nothing to prove: skipped, and CI (which requires one) fails.

const SANDBOXED = await osSandboxed();

/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes((await detectSandbox({ searchPath: process.env.PATH })).kind);

describe.each([
  ['a 2026-07-28 client', true],
  ['a 2025 client (in its session)', false],
] as const)('garuda-mcp serve --http: questions, to %s', (_era, modern) => {
  it('asks about a call in the call itself, and runs it once allowed', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-ask') });
    const { url, stderr } = await gateway();
    const host = await askingClient(url, stderr(), modern);
    try {
      const ran = await host.client.callTool({
        name: 'notes__echo',
        arguments: { text: 'asked over http' },
      });
      expect(host.questions).toHaveLength(1);
      expect(host.questions[0]).toContain('garuda-mcp asks before this call runs:');
      expect(JSON.stringify(ran.content)).toContain('asked over http');
      expect(ran.isError).toBeFalsy();
    } finally {
      await host.client.close();
    }
  });
});

describe("garuda-mcp serve --http: a server's own question, to a 2025 client", () => {
  it("reaches the client whose call it is about (never another session's), and its answer goes back", async () => {
    await world.userServers({ ask: fixtureEntry('asker', 'garuda-serve-http-asker') });
    const { url, stderr } = await gateway();
    const caller = await askingClient(url, stderr(), false, { name: 'Grace' });
    const bystander = await askingClient(url, stderr(), false);
    try {
      const asked = await caller.client.callTool({
        name: 'ask__ask_form',
        arguments: { form: 'all' },
      });
      // The call's own approval first, then the server's form, both in the caller's session.
      expect(caller.questions).toHaveLength(2);
      expect(caller.questions[1]).toContain('MCP server "ask" asks (through garuda-mcp');
      expect(bystander.questions).toEqual([]);
      expect(JSON.stringify(asked.content)).toContain('\\"name\\":\\"Grace\\"');
    } finally {
      await caller.client.close();
      await bystander.client.close();
    }
  });
});

describe('garuda-mcp serve --http: a question belongs to its own client and call', () => {
  it("two clients calling one tool are each asked their own call's question; one's answer never decides the other's", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-own') });
    const { url, stderr } = await gateway();
    const first = await askingClient(url, stderr(), true);
    const second = await askingClient(url, stderr(), true);
    try {
      // The second client is asked about its own call in its own round, never through the
      // first client's, and the first client's answer decides nothing of it.
      await questionsStayWithTheirCalls(first.client, second.client, world.home);
      // The automatic hosts never saw a question: each was carried by its own call's rounds.
      expect([...first.questions, ...second.questions]).toEqual([]);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });
});

describe('garuda-mcp serve --http: a host cancels a call', () => {
  it("a 2026-07-28 client's cancel stops the call behind the gateway", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-cancel') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const client = await httpClient(url, stderr(), true);
    try {
      await cancelStopsTheCall(client, world.home);
    } finally {
      await client.close();
    }
  });

  // The 2025 client sends notifications/cancelled as a POST of its own and keeps its request
  // open: it reaches its session's server, which cancels the request it names.
  it("a 2025 client's cancel stops the call behind the gateway", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-cancel-2025') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const client = await httpClient(url, stderr());
    try {
      await cancelStopsTheCall(client, world.home);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!SANDBOXED)('garuda-mcp serve --http: the sandbox behind the gateway', () => {
  it('a server called over HTTP still cannot write outside, read garuda home or connect', async () => {
    let connections = 0;
    const listener = createTcpServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    // Off /tmp (bubblewrap's is private), outside the project: next to this test file.
    const outside = path.join(import.meta.dirname, `escape-serve-http-${process.pid}.txt`);
    try {
      await world.userServers({ esc: fixtureEntry('escape', 'garuda-serve-http-escape') });
      const { url, stderr } = await gateway(['--approvals', 'host']);
      const client = await httpClient(url, stderr());
      let text: string;
      try {
        const result = await client.callTool({
          name: 'esc__escape',
          arguments: await escapeArguments(world, outside, port),
        });
        text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
      } finally {
        await client.close();
      }
      expect(text.startsWith('<mcp_result server="esc" tool="escape">\n'), text).toBe(true);
      const report = framedJson<EscapeReport>(text);
      expect(report.writeRoot.ok).toBe(true);
      expect(existsSync(path.join(world.root, 'garuda-escape-root.txt'))).toBe(true);
      expect(report.writeOutside).toMatchObject({ ok: false, code: IS.readOnly.code });
      expect(existsSync(outside)).toBe(false);
      expect(report.writeGaruda).toMatchObject({ ok: false, code: IS.readOnly.code });
      expect(existsSync(path.join(world.root, '.garuda', 'garuda-escape.txt'))).toBe(false);
      expect(report.readSecret).toMatchObject({ ok: false, code: IS.inHidden.code });
      expect(report.readSecret.detail ?? '').not.toContain('do not read me');
      expect(report.connect.ok).toBe(false);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
