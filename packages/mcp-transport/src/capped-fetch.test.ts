import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCappedFetch } from './capped-fetch.js';
import { ResponseTooLargeError } from './errors.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

/** A server on 127.0.0.1 whose handler writes the given chunks with the given headers. */
async function serve(headers: Record<string, string>, chunks: string[]): Promise<string> {
  server = createServer(async (_req, res) => {
    res.writeHead(200, headers);
    for (const c of chunks) {
      res.write(c);
      await new Promise((r) => setTimeout(r, 2));
    }
    res.end();
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const capped = createCappedFetch((url, init) => fetch(url, init), 1_000);

describe('createCappedFetch', () => {
  it('passes a body under the cap unchanged', async () => {
    const url = await serve({ 'content-type': 'application/json' }, [
      '{"a":',
      '"' + 'x'.repeat(900) + '"}',
    ]);
    const res = await capped(url);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { a: string }).a).toHaveLength(900);
  });

  it('refuses a declared Content-Length over the cap before reading', async () => {
    const url = await serve({ 'content-type': 'application/json', 'content-length': '5000' }, [
      'x'.repeat(5000),
    ]);
    await expect(capped(url)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('cuts off a chunked body once it passes the cap', async () => {
    const url = await serve(
      { 'content-type': 'application/json' },
      Array.from({ length: 20 }, () => 'x'.repeat(100)),
    );
    const res = await capped(url);
    const error = await res.text().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(
      ResponseTooLargeError.isInstance(error) ||
        ResponseTooLargeError.isInstance((error as Error)?.cause),
    ).toBe(true);
  });

  it('caps each SSE event, not the stream: many small events pass', async () => {
    const event = `event: message\ndata: ${'y'.repeat(400)}\n\n`;
    const url = await serve(
      { 'content-type': 'text/event-stream' },
      Array.from({ length: 10 }, () => event),
    );
    const res = await capped(url);
    expect((await res.text()).length).toBe(event.length * 10);
  });

  it('an SSE event over the cap breaks the stream, also when split over chunks and CRLF-framed', async () => {
    const url = await serve({ 'content-type': 'text/event-stream' }, [
      'data: small\r\n\r\n',
      'data: ' + 'z'.repeat(600),
      'z'.repeat(600) + '\r\n\r\n',
    ]);
    const res = await capped(url);
    const error = await res.text().then(
      () => undefined,
      (e: unknown) => e,
    );
    const found = ResponseTooLargeError.isInstance(error)
      ? error
      : (error as Error | undefined)?.cause;
    expect(ResponseTooLargeError.isInstance(found)).toBe(true);
    expect((found as Error).message).toMatch(/event/);
  });

  it('rejects a nonsense cap', () => {
    expect(() => createCappedFetch(fetch, 0)).toThrow(RangeError);
  });
});
