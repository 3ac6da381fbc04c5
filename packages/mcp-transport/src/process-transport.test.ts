import { fixtureCommand, isProcessAlive, waitFor } from '@garuda/test-utils';
import { Client, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SpawnFailedError,
  MessageTooLargeError,
  ProcessExitedError,
  TransportClosedError,
  TransportError,
} from './errors.js';
import { expectDroppedCall } from '../test/dropped-call.js';
import { ProcessTransport, type ProcessTransportOptions } from './process-transport.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
// Only a safety net for waits on an event: generous, so a busy machine makes a test slower,
// never failed. Below the 30 s test timeout, so a wait that never ends says what it waited for.
const PATIENCE = { timeoutMs: 60_000 };
const open: { client?: Client; transport: ProcessTransport }[] = [];

afterEach(async () => {
  for (const { client, transport } of open.splice(0)) {
    await (client ? client.close() : transport.close()).catch(() => {});
  }
});

function fixture(
  mode: Parameters<typeof fixtureCommand>[0],
  extra: Partial<ProcessTransportOptions> = {},
) {
  const { command, args } = fixtureCommand(mode);
  const transport = new ProcessTransport({ command, args, env: { PATH }, ...extra });
  const errors: Error[] = [];
  let closes = 0;
  const entry: { client?: Client; transport: ProcessTransport } = { transport };
  open.push(entry);
  const connect = async (timeout = 20_000) => {
    const client = new Client(
      { name: 'garuda-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    entry.client = client;
    // Installed after connect wires the transport, so they see what the transport reports.
    await client.connect(transport, { timeout });
    const sdkError = transport.onerror;
    transport.onerror = (e) => {
      errors.push(e);
      sdkError?.(e);
    };
    const sdkClose = transport.onclose;
    transport.onclose = () => {
      closes++;
      sdkClose?.();
    };
    return client;
  };
  return { transport, errors, closes: () => closes, connect };
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? '').join('');
}

describe('ProcessTransport', () => {
  it('connects with version negotiation, lists and calls tools, and exposes pid and stderr', async () => {
    const { transport, connect } = fixture('normal');
    expect((transport as { sessionId?: string }).sessionId).toBeUndefined();
    const client = await connect();
    expect(typeof transport.pid).toBe('number');
    expect(transport.stderr).not.toBeNull();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi there' } }))).toBe(
      'hi there',
    );
  });

  it('passes only the environment it was given', async () => {
    const { connect } = fixture('normal', { env: { PATH, ONLY_THIS: 'yes' } });
    const client = await connect();
    const result = JSON.parse(
      textOf(await client.callTool({ name: 'env', arguments: { names: ['ONLY_THIS'] } })),
    );
    expect(JSON.stringify(result)).toContain('ONLY_THIS');
    expect(JSON.stringify(result)).not.toContain('HOME');
  });

  it('a missing command is a clear error', async () => {
    const transport = new ProcessTransport({ command: 'garuda-no-such-server', env: { PATH } });
    const error = await transport.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(SpawnFailedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'TRANSPORT_COMMAND_NOT_FOUND',
      command: 'garuda-no-such-server',
    });
    expect(TransportError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('command not found: "garuda-no-such-server"');
  });

  it('reports noise on stdout without losing the connection, and keeps a bounded stderr tail', async () => {
    const { transport, errors, connect } = fixture('noisy');
    const client = await connect();
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe(
      'still here',
    );
    await waitFor(
      () => errors.some((e) => TransportError.isInstance(e) && e.code === 'TRANSPORT_BAD_MESSAGE'),
      PATIENCE,
    );
    const tail = transport.stderrTail();
    expect(tail.length).toBeGreaterThan(0);
    expect(tail.length).toBeLessThanOrEqual(40);
    for (const line of tail) expect(line.length).toBeLessThanOrEqual(1_002);
  });

  // Two messages of 3 and 5 MiB through a pipe: slow on a busy machine, hence its own timeout.
  it(
    'reports an oversized message, skips it, and keeps reading',
    { timeout: 120_000 },
    async () => {
      const { errors, connect } = fixture('huge');
      const client = await connect();
      expect(
        textOf(await client.callTool({ name: 'big_ok', arguments: {} })).length,
      ).toBeGreaterThan(3_000_000);
      // The 5 MiB answer is the line that gets skipped, so this call can never be answered: wait
      // for the report of that line (not for a timeout).
      await expectDroppedCall(client, { name: 'huge', arguments: { mb: 5 } }, () =>
        errors.some((e) => e instanceof MessageTooLargeError),
      );
      const tooLarge = errors.find((e) => e instanceof MessageTooLargeError);
      expect(tooLarge?.message).toMatch(/larger than 4 MiB/);
      // The SDK writes a response's id after its result: found at the end of the 5 MiB line.
      expect(tooLarge).toMatchObject({ kind: 'response', id: expect.any(Number) });
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe(
        'after',
      );
    },
  );

  it.each([
    ['huge_notice', 'after the notice', { kind: 'notification', id: undefined }],
    ['huge_request', 'after the request', { kind: 'request', id: expect.any(Number) }],
  ])(
    "tells an oversized message of the server's own (%s) from a response",
    { timeout: 120_000 },
    async (tool, answer, shape) => {
      const { errors, connect } = fixture('huge');
      const client = await connect();
      // Its own line comes before the answer, so it is reported by the time the call returns.
      expect(textOf(await client.callTool({ name: tool, arguments: { mb: 5 } }))).toBe(answer);
      const tooLarge = errors.filter((e) => MessageTooLargeError.isInstance(e));
      expect(tooLarge).toHaveLength(1);
      expect(tooLarge[0]).toMatchObject({ code: 'TRANSPORT_MESSAGE_TOO_LARGE', ...shape });
      expect((tooLarge[0] as MessageTooLargeError).bytes).toBeGreaterThan(5 * 1024 * 1024);
    },
  );

  it('a crash during a call closes once, with the exit code and the stderr tail', async () => {
    const { transport, errors, closes, connect } = fixture('crash');
    const client = await connect();
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toMatchObject({
      code: SdkErrorCode.ConnectionClosed,
    });
    await waitFor(() => closes() === 1, PATIENCE);
    expect(transport.exit).toMatchObject({ code: 3, requested: false });
    const exited = errors.find((e) => e instanceof ProcessExitedError) as
      ProcessExitedError | undefined;
    expect(exited?.exitCode).toBe(3);
    expect(exited?.message).toContain('exited with code 3');
    await transport.close();
    expect(closes()).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 99 })).rejects.toBeInstanceOf(
      TransportClosedError,
    );
  });

  it('a server that stops by itself is reported with its exit code', async () => {
    const { transport, closes, connect } = fixture('crash');
    const client = await connect();
    await client.callTool({ name: 'exit_later', arguments: { ms: 100 } });
    await waitFor(() => closes() === 1, PATIENCE);
    expect(transport.exit).toMatchObject({ code: 4, requested: false });
  });

  it('close() stops a server that ignores stdin and SIGTERM, and its children', async () => {
    const { transport, closes, connect } = fixture('stubborn', { closeGraceMs: 300 });
    const client = await connect();
    const { pid: childPid } = JSON.parse(
      textOf(await client.callTool({ name: 'spawn_child', arguments: { ms: 60_000 } })),
    );
    const pid = transport.pid!;
    expect(isProcessAlive(pid)).toBe(true);
    expect(isProcessAlive(childPid)).toBe(true);
    const started = Date.now();
    await transport.close();
    // It waited out both grace periods (a busy machine only adds to that).
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    // close() waits a bounded time for the exit after SIGKILL (a helper holding the pipes must
    // not keep it waiting): with this test's short grace, a busy machine may see the exit later.
    await waitFor(() => transport.exit, PATIENCE);
    expect(transport.exit).toMatchObject({ signal: 'SIGKILL', requested: true });
    await waitFor(() => !isProcessAlive(pid) && !isProcessAlive(childPid), PATIENCE);
    expect(closes()).toBe(1);
  });

  it('a server that closed its pipes before close() was asked ended by itself', async () => {
    // It closes stdin and stdout, then exits a second later: close() comes in between, as when
    // a client gives up on a server that crashed during the handshake.
    const transport = new ProcessTransport({
      command: process.execPath,
      args: [
        '-e',
        "const fs = require('node:fs'); fs.closeSync(0); fs.closeSync(1); setTimeout(() => process.exit(5), 1000);",
      ],
      env: { PATH },
      closeGraceMs: 20_000,
    });
    open.push({ transport });
    await transport.start();
    const ping = { jsonrpc: '2.0' as const, method: 'ping', id: 1 };
    // Writes fail once its stdin is gone (EPIPE closes our end): wait for that event.
    await waitFor(
      async () =>
        await transport.send(ping).then(
          () => false,
          () => true,
        ),
      PATIENCE,
    );
    await transport.close();
    expect(transport.exit).toMatchObject({ code: 5, requested: false });
  });

  it('close() of a well-behaved server ends it through stdin, with no signal', async () => {
    const { transport, connect } = fixture('normal');
    await connect();
    const pid = transport.pid!;
    await transport.close();
    expect(transport.exit?.requested).toBe(true);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('a server that never answers fails the connect, and close() still stops it', async () => {
    const { transport, connect } = fixture('hang', { closeGraceMs: 300 });
    // Giving up is the expected end: the short limit only decides how soon.
    await expect(connect(1_500)).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout });
    const pid = transport.pid!;
    await transport.close();
    await waitFor(() => !isProcessAlive(pid), PATIENCE);
  });

  it('honours back-pressure: a send waits while the server does not read, and fails when it goes', async () => {
    // A server that never reads stdin and stays until the test stops it (not for a fixed time a
    // busy machine could use up before the first send).
    const transport = new ProcessTransport({
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 60_000)'],
      env: { PATH },
    });
    open.push({ transport });
    await transport.start();
    const big = {
      jsonrpc: '2.0' as const,
      method: 'notifications/x',
      params: { pad: 'x'.repeat(1 << 20) },
    };
    let pending: Promise<void> | undefined;
    for (let i = 0; i < 64 && !pending; i++) {
      const p = transport.send(big);
      const settled = await Promise.race([
        p.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 100)),
      ]);
      if (!settled) pending = p;
    }
    expect(pending).toBeDefined();
    // The server goes: the waiting send fails.
    process.kill(transport.pid!, 'SIGKILL');
    await expect(pending).rejects.toBeInstanceOf(TransportClosedError);
  });

  it('cannot be started twice', async () => {
    const { transport, connect } = fixture('normal');
    await connect();
    await expect(transport.start()).rejects.toBeInstanceOf(TransportClosedError);
  });
});
