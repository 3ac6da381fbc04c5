import { startListenLineFixture, type ListenLineFixture } from '@garuda/test-utils';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseTooLargeError, TransportError, TransportErrorCode } from './errors.js';
import { jsonValuesAsEvents } from './http-transport-listen-stream.js';
import { createHttpTransport } from './http-transport.js';

const encoder = new TextEncoder();

/** Runs `chunks` through the splitter; the events as text, or the error it failed with. */
async function split(chunks: readonly string[], maxBytes = 1024) {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const events: string[] = [];
  try {
    const text = source
      .pipeThrough(jsonValuesAsEvents('http://127.0.0.1/mcp', maxBytes))
      .pipeThrough(new TextDecoderStream());
    let all = '';
    for await (const part of text) all += part;
    events.push(...all.split('\n\n').filter((event) => event !== ''));
    return { events };
  } catch (error) {
    return { events, error };
  }
}

describe('jsonValuesAsEvents', () => {
  it('makes one event of each line, across chunk edges', async () => {
    const { events, error } = await split(['{"a":1}\n{"b"', ':[2,{}]}\n', '\n  [3]\n']);
    expect(error).toBeUndefined();
    expect(events).toEqual(['data: {"a":1}', 'data: {"b":[2,{}]}', 'data: [3]']);
  });

  it('keeps braces, quotes and escapes inside strings, and a pretty-printed value whole', async () => {
    const value = { text: 'a } ] { " \\ "', nested: { list: ['x', '}'] } };
    const pretty = JSON.stringify(value, null, 2);
    const { events, error } = await split([pretty.slice(0, 7), pretty.slice(7), '\r\n']);
    expect(error).toBeUndefined();
    expect(events).toHaveLength(1);
    expect(JSON.parse((events[0] ?? '').slice('data: '.length))).toEqual(value);
  });

  it('fails on a message past the cap, before buffering more', async () => {
    const { events, error } = await split(['{"ok":1}\n', `{"big":"${'x'.repeat(200)}`], 100);
    expect(events).toEqual([]);
    expect(ResponseTooLargeError.isInstance(error)).toBe(true);
  });

  it('fails on bytes that are no JSON object or array', async () => {
    const { error } = await split(['data: {"a":1}\n']);
    expect(TransportError.isInstance(error)).toBe(true);
    expect((error as TransportError).code).toBe(TransportErrorCode.BAD_MESSAGE);
  });
});

describe('a listen stream sent as newline-delimited JSON', () => {
  const fixtures: ListenLineFixture[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    for (const fixture of fixtures.splice(0)) await fixture.close();
  });

  it('is acknowledged, tells changes as they come, and closes', async () => {
    const fixture = await startListenLineFixture();
    fixtures.push(fixture);
    const client = new Client(
      { name: 'garuda-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    clients.push(client);
    const changed = new Promise<void>((resolve) => {
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
    });
    await client.connect(createHttpTransport(fixture.url));
    expect(client.getProtocolEra()).toBe('modern');

    // The SDK's ack timeout would end a listen whose acknowledgement is held back.
    const stream = await client.listen({ toolsListChanged: true }, { timeout: 60_000 });
    expect(stream.honoredFilter).toEqual({ toolsListChanged: true });
    expect(fixture.addTool()).toBe(1);
    await changed;

    await stream.close();
    await expect(stream.closed).resolves.toBe('local');
    await expect.poll(() => fixture.openStreams, { timeout: 60_000 }).toBe(0);
    // The connection is still there for everything else.
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late');
  });
});
