import {
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  fromJsonSchema,
  type FetchLike,
} from '@modelcontextprotocol/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { EVIL_TOOL_NAME, HOSTILE, MALFORMED_TOOL } from '../fixtures/tools.mjs';
import { NORMAL_TOOL_NAMES } from './fixture-server.js';
import { startHttpFixture, type HttpFixture } from './http-fixture.js';
import { newClient, textOf, type Negotiation } from './test-support.js';
import { waitFor } from './wait-for.js';

const MIB = 1024 * 1024;
// Only a safety net for waits on an event: generous, so a busy machine makes a test slower,
// never failed (below the 30 s test timeout, so a wait that never ends says what it waited for).
const PATIENCE = { timeoutMs: 20_000 };

interface Seen {
  method: string;
  status: number;
  type: string;
  /** Body length for JSON, longest `data:` line for SSE. */
  size: Promise<number>;
}

/** A fetch that records what came back, measuring bodies on a clone. */
function recordingFetch(seen: Seen[], headers: Record<string, string> = {}): FetchLike {
  return async (url, init) => {
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    const response = await fetch(url, { ...init, headers: merged });
    const type = response.headers.get('content-type') ?? '';
    const measured = response.clone();
    seen.push({
      method: init?.method ?? 'GET',
      status: response.status,
      type,
      size: type.startsWith('text/event-stream')
        ? measured.text().then((t) =>
            Math.max(
              0,
              ...t
                .split('\n')
                .filter((l) => l.startsWith('data:'))
                .map((l) => l.length),
            ),
          )
        : measured.text().then((t) => t.length),
    });
    // An aborted stream makes the clone fail too; only the calls that await `size` care.
    seen.at(-1)!.size.catch(() => {});
    return response;
  };
}

async function connect(fixture: HttpFixture, negotiation: Negotiation, seen: Seen[] = []) {
  const client = newClient(negotiation);
  client.onerror = () => {};
  await client.connect(
    new StreamableHTTPClientTransport(fixture.url, { fetch: recordingFetch(seen) }),
  );
  return client;
}

describe.each([false, true])('Streamable HTTP fixture, jsonResponse: %s', (jsonResponse) => {
  it.each(['auto', 'legacy'] as const)('lists and calls with a %s client', async (negotiation) => {
    const fixture = await startHttpFixture({ jsonResponse });
    const seen: Seen[] = [];
    try {
      expect(fixture.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = await connect(fixture, negotiation, seen);
      expect(client.getProtocolEra()).toBe(negotiation === 'auto' ? 'modern' : 'legacy');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(NORMAL_TOOL_NAMES);
      const add = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
      expect(add.structuredContent).toEqual({ sum: 42 });
      const fail = await client.callTool({ name: 'fail', arguments: {} });
      expect(fail.isError).toBe(true);
      const content = await client.callTool({ name: 'content', arguments: {} });
      expect((content.content as { type: string }[]).map((b) => b.type)).toEqual([
        'text',
        'image',
        'audio',
        'resource_link',
        'resource',
      ]);
      await client.close();

      const answers = seen.filter((s) => s.method === 'POST' && s.status === 200);
      expect(answers.length).toBeGreaterThanOrEqual(3);
      for (const s of answers) {
        expect(s.type).toContain(jsonResponse ? 'application/json' : 'text/event-stream');
      }
      expect(fixture.requests).toBeGreaterThanOrEqual(seen.length);
    } finally {
      await fixture.close();
    }
  });

  it.each(['auto', 'legacy'] as const)(
    `huge: one ${jsonResponse ? 'JSON body' : 'SSE event'} over 4 MiB (%s)`,
    async (negotiation) => {
      const fixture = await startHttpFixture({ mode: 'huge', jsonResponse });
      const seen: Seen[] = [];
      try {
        const client = await connect(fixture, negotiation, seen);
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toEqual([...NORMAL_TOOL_NAMES, 'huge', 'big_ok']);
        const from = seen.length;
        const r = await client.callTool({ name: 'huge', arguments: { mb: 5 } });
        expect(textOf(r)).toHaveLength(5 * MIB);
        const call = seen.slice(from).find((s) => s.status === 200)!;
        expect(call.type).toContain(jsonResponse ? 'application/json' : 'text/event-stream');
        expect(await call.size).toBeGreaterThan(5 * MIB);
        await client.close();
      } finally {
        await fixture.close();
      }
    },
  );
});

describe('Streamable HTTP fixture modes', () => {
  it('evil serves the hostile tool set', async () => {
    const fixture = await startHttpFixture({ mode: 'evil' });
    try {
      const client = await connect(fixture, 'auto');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain(EVIL_TOOL_NAME);
      expect(tools[0]!.description).toContain(HOSTILE.fakeNote);
      const r = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      expect(textOf(r)).toContain(HOSTILE.tagSmuggled);
      await client.close();
    } finally {
      await fixture.close();
    }
  });

  it('changed and many serve their tool sets', async () => {
    for (const [mode, count] of [
      ['changed', 7],
      ['many', 150],
      ['longnames', 12],
    ] as const) {
      const fixture = await startHttpFixture({ mode, jsonResponse: true });
      try {
        const client = await connect(fixture, 'legacy');
        expect((await client.listTools()).tools, mode).toHaveLength(count);
        await client.close();
      } finally {
        await fixture.close();
      }
    }
  });

  it('badtool: strict listTools fails; a loose legacy request sees every entry', async () => {
    const fixture = await startHttpFixture({ mode: 'badtool' });
    try {
      const client = await connect(fixture, 'legacy');
      await expect(client.listTools()).rejects.toBeInstanceOf(SdkError);
      const loose = (await client.request(
        { method: 'tools/list', params: {} },
        fromJsonSchema({ type: 'object' }),
      )) as { tools: { name: string }[] };
      expect(loose.tools.map((t) => t.name)).toEqual([...NORMAL_TOOL_NAMES, MALFORMED_TOOL.name]);
      await client.close();
    } finally {
      await fixture.close();
    }
  });

  it('hang accepts requests and never answers; close still ends at once', async () => {
    const fixture = await startHttpFixture({ mode: 'hang' });
    const client = newClient('legacy');
    client.onerror = () => {};
    try {
      // Waits for the request to arrive, not for a time in which a busy machine may not even
      // have sent it; then gives it a while to be answered, and ends the connect from here.
      const stop = new SdkError(SdkErrorCode.RequestTimeout, 'given up by the test');
      const controller = new AbortController();
      const connecting = client.connect(new StreamableHTTPClientTransport(fixture.url), {
        signal: controller.signal,
        timeout: 600_000,
      });
      let outcome: unknown = 'no answer';
      connecting.then(
        () => (outcome = 'connected'),
        (e: unknown) => (outcome = e),
      );
      await waitFor(() => fixture.requests === 1, PATIENCE);
      await sleep(300);
      expect(outcome).toBe('no answer');
      controller.abort(stop);
      await expect(connecting).rejects.toBe(stop);
      expect(fixture.requests).toBe(1);

      // A request left waiting for its answer does not hold close() up: were it waited for,
      // close() would never end.
      const waiting = fetch(fixture.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }).then(
        () => 'answered',
        () => 'failed',
      );
      await waitFor(() => fixture.requests === 2, PATIENCE);
      await fixture.close();
      expect(await waiting).toBe('failed');
    } finally {
      await client.close();
      await fixture.close();
    }
  });

  it('close ends open streams at once and stops listening', async () => {
    const fixture = await startHttpFixture();
    const errors: string[] = [];
    const client = await connect(fixture, 'legacy');
    client.onerror = (e) => errors.push(e.message);
    const stop = new SdkError(SdkErrorCode.RequestTimeout, 'ended by the test');
    const controller = new AbortController();
    let running!: () => void;
    const runs = new Promise<void>((resolve) => (running = resolve));
    const call = client.callTool(
      { name: 'slow', arguments: { ms: 600_000 } },
      { signal: controller.signal, timeout: 600_000, onprogress: () => running() },
    );
    let outcome: unknown = 'no answer';
    call.then(
      () => (outcome = 'answered'),
      (e: unknown) => (outcome = e),
    );
    // Closes while the tool runs (its first progress, over the call's SSE stream, says so): were
    // that open stream waited for, close() would not end before the tool's 10 minutes.
    await runs;
    await fixture.close();
    await waitFor(() => errors.some((m) => m.includes('SSE stream disconnected')), PATIENCE);
    await waitFor(() => fixture.logs.some((m) => m.startsWith('slow: cancelled')), PATIENCE);
    // The SDK does not fail a call whose SSE stream drops before the answer: it waits for an
    // answer that cannot come. So the test ends the call itself.
    expect(outcome).toBe('no answer');
    controller.abort(stop);
    await expect(call).rejects.toBe(stop);
    await expect(fetch(fixture.url, { method: 'POST', body: '{}' })).rejects.toThrow();
    await fixture.close(); // twice is fine
    await client.close();
  });

  it('refuses unknown modes', async () => {
    await expect(startHttpFixture({ mode: 'crash' as never })).rejects.toThrow(TypeError);
  });
});

describe('requireBearer', () => {
  it('answers 401 with WWW-Authenticate: Bearer without a valid token', async () => {
    const fixture = await startHttpFixture({ requireBearer: (t) => t === 'good-token' });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const none = await fetch(fixture.url, { method: 'POST', headers, body });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      await none.body?.cancel();

      const wrong = await fetch(fixture.url, {
        method: 'POST',
        headers: { ...headers, authorization: 'Bearer bad-token' },
        body,
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await wrong.body?.cancel();
      expect(fixture.requests).toBe(2);

      for (const negotiation of ['auto', 'legacy'] as const) {
        const client = newClient(negotiation);
        client.onerror = () => {};
        await client.connect(
          new StreamableHTTPClientTransport(fixture.url, {
            requestInit: { headers: { authorization: 'Bearer good-token' } },
          }),
        );
        const r = await client.callTool({ name: 'echo', arguments: { text: 'authorised' } });
        expect(textOf(r)).toBe('authorised');
        await client.close();
      }

      const client = newClient('legacy');
      client.onerror = () => {};
      await expect(
        client.connect(new StreamableHTTPClientTransport(fixture.url)),
      ).rejects.toThrow();
      await client.close();
    } finally {
      await fixture.close();
    }
  });
});
