import { Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CRASH_EXIT_CODE, EXIT_LATER_CODE } from '../fixtures/tools.mjs';
import { NORMAL_TOOL_NAMES, fixtureCommand } from './fixture-server.js';
import { isProcessAlive } from './process-alive.js';
import { SpawnTransport } from './spawn-transport.js';
import { connectStdio, textOf } from './test-support.js';
import { waitFor } from './wait-for.js';

const MIB = 1024 * 1024;

describe('crash mode', () => {
  it.each(['auto', 'legacy'] as const)(
    '`crash` exits with code 3 during the call, unanswered (%s)',
    async (negotiation) => {
      const c = await connectStdio('crash', negotiation);
      try {
        const names = (await c.client.listTools()).tools.map((t) => t.name);
        expect(names).toEqual([...NORMAL_TOOL_NAMES, 'crash', 'exit_later']);
        await expect(c.client.callTool({ name: 'crash', arguments: {} })).rejects.toMatchObject({
          code: SdkErrorCode.ConnectionClosed,
        });
        expect(await c.transport.exited).toEqual({ code: CRASH_EXIT_CODE, signal: null });
        expect(c.transport.stderrText).toContain('crash: exiting');
      } finally {
        await c.close();
      }
    },
  );

  it('`exit_later` answers, then exits by itself with no call in flight', async () => {
    const c = await connectStdio('crash');
    try {
      let closed = false;
      c.client.onclose = () => (closed = true);
      const r = await c.client.callTool({ name: 'exit_later', arguments: { ms: 150 } });
      expect(textOf(r)).toBe(`exiting in 150 ms with code ${EXIT_LATER_CODE}`);
      expect(await c.transport.exited).toEqual({ code: EXIT_LATER_CODE, signal: null });
      expect(closed).toBe(true);
    } finally {
      await c.close();
    }
  });
});

describe('hang mode', () => {
  it('never answers initialize (legacy) or the version probe (auto), and outlives stdin', async () => {
    for (const negotiation of ['legacy', 'auto'] as const) {
      const { command, args } = fixtureCommand('hang');
      const transport = new SpawnTransport(command, args);
      const client = new Client(
        { name: 'garuda-test-utils', version: '0.0.0' },
        { versionNegotiation: { mode: negotiation, probe: { timeoutMs: 300, maxRetries: 0 } } },
      );
      try {
        // Giving up is the expected end here: the short limits only decide how soon.
        await expect(client.connect(transport, { timeout: 400 })).rejects.toBeInstanceOf(SdkError);
        expect(transport.lineLengths).toEqual([]); // not a byte on stdout
      } finally {
        await client.close().catch(() => {});
        await transport.close(0);
      }
    }

    // Outliving stdin, shown on a process no client touches: the SDK closes the transport of a
    // failed connect, and that close kills the process after a grace period which a busy
    // machine can use up before the server has even seen the end of its input.
    const { command, args } = fixtureCommand('hang');
    const alone = new SpawnTransport(command, args);
    await alone.start();
    try {
      alone.endStdin();
      // The server saw the end of its input, and is still there a while later.
      await waitFor(() => alone.stderrText.includes('stdin ended; still hanging'));
      await sleep(200);
      expect(isProcessAlive(alone.pid)).toBe(true);
      process.kill(alone.pid!, 'SIGTERM');
      expect((await alone.exited).signal).toBe('SIGTERM');
    } finally {
      await alone.close(0);
    }
  });
});

describe('noisy mode', () => {
  it.each(['auto', 'legacy'] as const)(
    'answers correctly through stdout junk and a stderr flood (%s)',
    async (negotiation) => {
      const c = await connectStdio('noisy', negotiation);
      const errors: Error[] = [];
      c.client.onerror = (e) => errors.push(e);
      try {
        const { tools } = await c.client.listTools();
        expect(tools.map((t) => t.name)).toEqual(NORMAL_TOOL_NAMES);
        const junkBefore = c.transport.nonJsonLines.length;
        expect(junkBefore).toBeGreaterThanOrEqual(3);
        expect(c.transport.nonJsonLines).toContain('');
        expect(c.transport.nonJsonLines).toContain('{"jsonrpc":"2.0","id":');
        expect(c.transport.nonJsonLines.some((l) => l.startsWith('noisy fixture: plain'))).toBe(
          true,
        );

        const r = await c.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
        expect(r.structuredContent).toEqual({ sum: 3 });
        expect(c.transport.nonJsonLines.length).toBeGreaterThan(junkBefore); // noise mid-call
        // Valid JSON that is not JSON-RPC reaches onerror (and nothing breaks).
        expect(errors.length).toBeGreaterThanOrEqual(2);

        await waitFor(() => c.transport.stderrText.split('\n').length > 3000, {
          timeoutMs: 20_000,
        });
        const lines = c.transport.stderrText.split('\n');
        expect(lines.some((l) => l.length > 10_000)).toBe(true);
        expect(c.transport.stderrText).toContain('partial line without a newline [fixture noisy]');
      } finally {
        await c.close();
      }
    },
  );
});

describe('huge mode', () => {
  // 8 MiB through a pipe and the SDK's parsing: a few seconds here, many more on a busy machine.
  // Nothing in it waits for a time; its own timeout is the only limit.
  it('sends one JSON-RPC line over 4 MiB, and one under it', { timeout: 120_000 }, async () => {
    const c = await connectStdio('huge', 'legacy');
    try {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual([
        ...NORMAL_TOOL_NAMES,
        'huge',
        'big_ok',
        'huge_notice',
        'huge_request',
      ]);

      const huge = await c.client.callTool({ name: 'huge', arguments: { mb: 5 } });
      expect(textOf(huge)).toHaveLength(5 * MIB);
      expect(Math.max(...c.transport.lineLengths)).toBeGreaterThan(5 * MIB);

      const before = c.transport.lineLengths.length;
      const ok = await c.client.callTool({ name: 'big_ok', arguments: {} });
      expect(textOf(ok)).toHaveLength(3 * MIB);
      const line = c.transport.lineLengths[before]!;
      expect(line).toBeGreaterThan(3 * MIB);
      expect(line).toBeLessThan(4 * MIB);
    } finally {
      await c.close();
    }
  });

  it.each([
    ['huge_notice', 'after the notice', 'notifications/fixture/huge'],
    ['huge_request', 'after the request', 'fixture/huge'],
  ])(
    '`%s` sends a line over 4 MiB of its own before its small answer',
    { timeout: 120_000 },
    async (tool, answer, method) => {
      const c = await connectStdio('huge', 'legacy', { keepLines: true });
      try {
        const before = c.transport.lines.length;
        const r = await c.client.callTool({ name: tool, arguments: { mb: 5 } });
        expect(textOf(r)).toBe(answer);
        const [own, reply] = c.transport.lines.slice(before);
        expect(own!.length).toBeGreaterThan(5 * MIB);
        expect((JSON.parse(own!) as { method?: string }).method).toBe(method);
        expect(reply!.length).toBeLessThan(1_000);
      } finally {
        await c.close();
      }
    },
  );
});

describe('stubborn mode', () => {
  it('ignores SIGTERM and stdin EOF; its child is a separate process', async () => {
    const c = await connectStdio('stubborn');
    let child = 0;
    try {
      const r = await c.client.callTool({ name: 'spawn_child', arguments: { ms: 20_000 } });
      child = (JSON.parse(textOf(r)) as { pid: number }).pid;
      expect(isProcessAlive(child)).toBe(true);
      const pid = c.transport.pid!;
      process.kill(pid, 'SIGTERM');
      await waitFor(() => c.transport.stderrText.includes('ignoring SIGTERM'), {
        timeoutMs: 20_000,
      });
      expect(isProcessAlive(pid)).toBe(true);
      await c.close(); // ends stdin, then SIGKILL after the grace period
      expect((await c.transport.exited).signal).toBe('SIGKILL');
    } finally {
      await c.close();
      if (isProcessAlive(child)) process.kill(child, 'SIGKILL');
    }
  });
});
