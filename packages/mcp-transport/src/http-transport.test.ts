import { startHttpFixture, type HttpFixture } from '@garuda/test-utils';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from './errors.js';
import { expectDroppedCall } from '../test/dropped-call.js';
import { createHttpTransport } from './http-transport.js';

const fixtures: HttpFixture[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const f of fixtures.splice(0)) await f.close();
});

async function connect(options: Parameters<typeof startHttpFixture>[0], errors: Error[] = []) {
  const fixture = await startHttpFixture(options);
  fixtures.push(fixture);
  const transport = createHttpTransport(fixture.url);
  const client = new Client(
    { name: 'garuda-test', version: '0.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  clients.push(client);
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return client;
}

function text(result: unknown): string {
  return (result as { content: { text?: string }[] }).content.map((c) => c.text ?? '').join('');
}

describe('createHttpTransport', () => {
  for (const jsonResponse of [true, false]) {
    it(`lists and calls tools over Streamable HTTP (${jsonResponse ? 'JSON' : 'SSE'} responses)`, async () => {
      const client = await connect({ mode: 'normal', jsonResponse });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toBe(
        'over http',
      );
    });
  }

  it(
    'caps a JSON response: a 5 MiB result fails the call with ResponseTooLargeError',
    { timeout: 120_000 },
    async () => {
      const client = await connect({ mode: 'huge', jsonResponse: true });
      // The cap fails the call itself; no timeout of ours may do it first.
      const error = await client
        .callTool({ name: 'huge', arguments: { mb: 5 } }, { timeout: 600_000 })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      let found: unknown = error;
      for (let i = 0; i < 5 && found && !ResponseTooLargeError.isInstance(found); i++)
        found = (found as Error).cause;
      expect(ResponseTooLargeError.isInstance(found) || String(error).includes('larger than')).toBe(
        true,
      );
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe(
        'after',
      );
    },
  );

  it('caps an SSE event: a 5 MiB event is refused and reported', { timeout: 120_000 }, async () => {
    const errors: Error[] = [];
    const client = await connect({ mode: 'huge', jsonResponse: false }, errors);
    // The SDK fails no call whose SSE stream breaks: it reports the break through onerror and
    // waits for an answer that cannot come. So wait for that report (not for a timeout).
    await expectDroppedCall(client, { name: 'huge', arguments: { mb: 5 } }, () =>
      errors.some((e) => /the server-sent event from .* is larger than 4 MiB/.test(e.message)),
    );
    expect(errors.map((e) => e.message).join('\n')).toMatch(
      /SSE stream disconnected: ResponseTooLargeError: the server-sent event from .* is larger than 4 MiB/,
    );
  });

  it('3 MiB stays under the 4 MiB cap', async () => {
    const client = await connect({ mode: 'huge', jsonResponse: true });
    expect(text(await client.callTool({ name: 'big_ok', arguments: {} })).length).toBeGreaterThan(
      3_000_000,
    );
  });
});
