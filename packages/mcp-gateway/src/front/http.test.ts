// The HTTP front end's own limits, on real sockets: uploads that stall hold no place of the
// requests served at once and are cut by the request time limit (shortened here through the
// factory's `timeouts`).
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/server';
import { RAW_INITIALIZE } from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HTTP_IN_FLIGHT, startHttpGateway, type HttpGateway } from './http.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gateway(
  requestMs: number,
  slowCall: () => Promise<void> = async () => {},
): Promise<HttpGateway> {
  const build = () => {
    const server = new Server(
      { name: 'limits', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    server.setRequestHandler('tools/call', async () => {
      await slowCall();
      return { content: [{ type: 'text' as const, text: 'slow and done' }] };
    });
    return server;
  };
  const started = await startHttpGateway({
    build,
    token: { token: randomBytes(32).toString('base64url') },
    port: 0,
    onError: () => {},
    timeouts: {
      headersMs: Math.min(requestMs, 60_000),
      requestMs,
      keepAliveMs: 5_000,
      checkEveryMs: 100,
    },
  });
  cleanups.push(() => started.close());
  return started;
}

/**
 * An authorised POST whose chunked body never ends: resolves once the gateway took its headers
 * (its `100 Continue`, sent just before the request is handed to the gateway's handler). `closed`
 * is taken at once: on a busy machine the gateway may cut the upload before the test looks.
 */
async function stalledUpload(
  gw: HttpGateway,
): Promise<{ socket: Socket; closed: Promise<unknown>; received: () => string }> {
  const { port } = new URL(gw.url);
  const socket = connect(Number(port), '127.0.0.1');
  cleanups.push(async () => void socket.destroy());
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  socket.write(
    [
      'POST /mcp HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${gw.token}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      'Transfer-Encoding: chunked',
      'Expect: 100-continue',
      '',
      '',
    ].join('\r\n'),
  );
  let gone = false;
  void closed.then(() => (gone = true));
  while (!received.includes('100 Continue') && !gone) {
    await Promise.race([once(socket, 'data'), closed]);
  }
  if (!received.includes('100 Continue')) throw new Error(`no 100 Continue, got: ${received}`);
  socket.write('5\r\n{"jso\r\n');
  return { socket, closed, received: () => received };
}

async function post(
  gw: HttpGateway,
  body: string,
  session?: string,
): Promise<{ status: number; text: string; session: string | null }> {
  const response = await fetch(gw.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${gw.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(session === undefined ? {} : { 'mcp-session-id': session }),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, session: response.headers.get('mcp-session-id') };
}

async function initialize(gw: HttpGateway): Promise<number> {
  return (await post(gw, RAW_INITIALIZE)).status;
}

describe('serve --http limits', () => {
  it('slowloris: authorised uploads that never end take no place; a normal request is still served', async () => {
    // A request limit no test reaches: the stalled uploads stay open throughout.
    const gw = await gateway(600_000);
    const stalled = [];
    for (let i = 0; i < MAX_HTTP_IN_FLIGHT + 8; i += 1) stalled.push(await stalledUpload(gw));
    expect(await initialize(gw)).toBe(200);
    // None of them was answered (a 503 would say they were counted as served).
    expect(stalled.filter((one) => /HTTP\/1\.1 [2-5]\d\d/.test(one.received()))).toEqual([]);
  });

  it('slowloris: an upload that stalls is cut at the request time limit (408, connection closed)', async () => {
    const gw = await gateway(1_000);
    const stalled = [];
    for (let i = 0; i < MAX_HTTP_IN_FLIGHT + 1; i += 1) stalled.push(await stalledUpload(gw));
    await Promise.all(stalled.map(({ closed }) => closed));
    for (const one of stalled) expect(one.received()).toMatch(/HTTP\/1\.1 408/);
    expect(await initialize(gw)).toBe(200);
  });

  it('a call that runs past the request time limit is not cut: the limit is on sending, not on answering', async () => {
    let callRuns!: () => void;
    const running = new Promise<void>((resolve) => (callRuns = resolve));
    let limitPassed!: () => void;
    const passed = new Promise<void>((resolve) => (limitPassed = resolve));
    // The call answers only once an upload started after it began was cut by the limit.
    const gw = await gateway(1_000, () => {
      callRuns();
      return passed;
    });
    const { session } = await post(gw, RAW_INITIALIZE);
    const call = post(
      gw,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'slow', arguments: {} },
      }),
      session ?? undefined,
    );
    await running;
    const stalled = await stalledUpload(gw);
    await stalled.closed;
    expect(stalled.received()).toMatch(/HTTP\/1\.1 408/);
    limitPassed();
    const answered = await call;
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('slow and done');
  });
});
