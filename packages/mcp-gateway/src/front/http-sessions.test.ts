// 2025-era hosts over the HTTP gateway, in sessions: real SDK clients on real sockets against
// real SDK servers. A server's question during a call reaches that call's host only and its
// answer comes back; list changes reach the host's GET stream; sessions are bound to their
// token, bounded, ended by DELETE, when idle and on close, and leave nothing behind; a
// 2026-07-28 host is still served without one.
import { createHash, randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { RAW_INITIALIZE } from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpGateway, type HttpGateway } from './http.js';
import { createSessions } from './http-sessions.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The servers a gateway built, and which of them were closed. */
interface Built {
  readonly servers: Server[];
  readonly closed: Set<Server>;
  /** Settles when that server is closed. */
  readonly closing: Map<Server, Promise<void>>;
}

function builtSet(): Built {
  return { servers: [], closed: new Set(), closing: new Map() };
}

/** A server whose `ask` tool asks its host a question during the call. */
function asker(built: Built): Server {
  const server = new Server({ name: 'asker', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    if (request.params.name === 'announce') {
      // Not about this call: it goes on the session's GET stream.
      await server.sendToolListChanged();
      return { content: [{ type: 'text' as const, text: 'announced' }] };
    }
    const answer = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] };
  });
  built.servers.push(server);
  built.closing.set(
    server,
    new Promise((resolve) => {
      server.onclose = () => {
        built.closed.add(server);
        resolve();
      };
    }),
  );
  return server;
}

async function gateway(
  options: { maxSessions?: number; sessionIdleMs?: number } = {},
): Promise<HttpGateway & { built: Built }> {
  const built = builtSet();
  const started = await startHttpGateway({
    build: () => asker(built),
    token: { token: randomBytes(32).toString('base64url') },
    port: 0,
    onError: () => {},
    timeouts: {
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
      checkEveryMs: 1_000,
      ...(options.sessionIdleMs === undefined ? {} : { sessionIdleMs: options.sessionIdleMs }),
    },
    ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
  });
  cleanups.push(() => started.close());
  return { ...started, built };
}

/** A 2025-era host (or a 2026-07-28 one) that answers every form with `name`. */
async function host(gw: HttpGateway, name: string, modern = false) {
  const forms: string[] = [];
  const client = new Client(
    { name: 'host', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    forms.push(request.params.message);
    return { action: 'accept', content: { name } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(gw.url), {
    requestInit: { headers: { Authorization: `Bearer ${gw.token}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport, forms };
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

/** One raw request with the gateway's token (and a session id when given). */
async function raw(
  gw: HttpGateway,
  method: string,
  options: { session?: string; body?: string; token?: string } = {},
): Promise<Response> {
  return fetch(gw.url, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? gw.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(options.session === undefined ? {} : { 'mcp-session-id': options.session }),
    },
    ...(options.body === undefined ? {} : { body: options.body }),
  });
}

/** Opens a session with a raw initialize (no GET stream); resolves with its id. */
async function rawSession(gw: HttpGateway): Promise<string> {
  const opened = await raw(gw, 'POST', { body: RAW_INITIALIZE });
  await opened.text();
  const id = opened.headers.get('mcp-session-id');
  if (opened.status !== 200 || id === null) throw new Error(`no session: ${opened.status}`);
  return id;
}

/** Resolves once `server` was closed. */
async function closedOf(built: Built, server: Server | undefined): Promise<void> {
  if (server === undefined) throw new Error('no server was built');
  await built.closing.get(server);
}

const textOf = (result: { content?: unknown }) => JSON.stringify(result.content);

describe('serve --http: 2025-era hosts in sessions', () => {
  it("a server's question during a call reaches that call's host only, and its answer goes back", async () => {
    const gw = await gateway();
    const ada = await host(gw, 'Ada');
    const grace = await host(gw, 'Grace');
    const [first, second] = await Promise.all([
      ada.client.callTool({ name: 'ask', arguments: {} }),
      grace.client.callTool({ name: 'ask', arguments: {} }),
    ]);
    expect(textOf(first)).toContain('Ada');
    expect(textOf(second)).toContain('Grace');
    expect(ada.forms).toEqual(['Your name?']);
    expect(grace.forms).toEqual(['Your name?']);
    expect(ada.transport.sessionId).not.toBe(grace.transport.sessionId);
  });

  it('a list change reaches the host on its GET stream', async () => {
    const gw = await gateway();
    const { client } = await host(gw, 'Ada');
    const heard = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    await client.callTool({ name: 'announce', arguments: {} });
    await heard;
  });

  it("an unknown session id, or one another token opened, gets 404; the owner's works", async () => {
    const gw = await gateway();
    const unknown = await raw(gw, 'POST', { session: 'made-up', body: TOOLS_LIST });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Open a new one with initialize');
    const other = await gateway();
    const id = await rawSession(gw);
    expect((await raw(other, 'POST', { session: id, body: TOOLS_LIST })).status).toBe(404);
    expect((await raw(gw, 'POST', { session: id, body: TOOLS_LIST })).status).toBe(200);
    expect((await raw(gw, 'POST', { body: TOOLS_LIST })).status).toBe(400);
  });

  it('a session is bound to the token that opened it (the session table itself)', async () => {
    const built = builtSet();
    const sessions = createSessions({
      build: () => asker(built),
      maxSessions: 4,
      idleMs: 60_000,
      onError: () => {},
    });
    cleanups.push(() => sessions.close());
    const digest = (token: string) => createHash('sha256').update(token).digest();
    const request = (body: string, session?: string) =>
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session === undefined ? {} : { 'mcp-session-id': session }),
        },
        body,
      });
    const ended = new AbortController();
    const opened = await sessions.serve(request(RAW_INITIALIZE), true, digest('a'), ended.signal);
    const id = opened.headers.get('mcp-session-id')!;
    await opened.text();
    ended.abort();
    const stranger = await sessions.serve(
      request(TOOLS_LIST, id),
      false,
      digest('b'),
      ended.signal,
    );
    expect(stranger.status).toBe(404);
    const owner = await sessions.serve(request(TOOLS_LIST, id), false, digest('a'), ended.signal);
    expect(owner.status).toBe(200);
    await owner.text();
  });

  it('past the session limit a clear 503; a DELETE frees a place and ends the session', async () => {
    const gw = await gateway({ maxSessions: 2 });
    const first = await host(gw, 'Ada');
    await host(gw, 'Grace');
    const refused = await raw(gw, 'POST', { body: RAW_INITIALIZE });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain('Too many MCP sessions are open on this gateway (2)');
    const id = first.transport.sessionId!;
    await first.transport.terminateSession();
    await closedOf(gw.built, gw.built.servers[0]);
    expect((await raw(gw, 'POST', { session: id, body: TOOLS_LIST })).status).toBe(404);
    await host(gw, 'Hopper');
  });

  it('at the limit, a new session takes the place of the one idle the longest', async () => {
    const gw = await gateway({ maxSessions: 2 });
    const oldest = await rawSession(gw);
    const younger = await rawSession(gw);
    // Used since: the oldest is now `younger`.
    expect((await raw(gw, 'POST', { session: oldest, body: TOOLS_LIST })).status).toBe(200);
    await host(gw, 'Ada');
    await closedOf(gw.built, gw.built.servers[1]);
    expect((await raw(gw, 'POST', { session: younger, body: TOOLS_LIST })).status).toBe(404);
    expect((await raw(gw, 'POST', { session: oldest, body: TOOLS_LIST })).status).toBe(200);
  });

  it('an idle session (no request, no open stream) is ended and its server closed', async () => {
    const gw = await gateway({ sessionIdleMs: 1_000 });
    const id = await rawSession(gw);
    await closedOf(gw.built, gw.built.servers[0]);
    expect((await raw(gw, 'POST', { session: id, body: TOOLS_LIST })).status).toBe(404);
    // A host that went away without DELETE: its GET stream closed, it idles out too.
    const gone = await host(gw, 'Ada');
    await gone.client.close();
    await closedOf(gw.built, gw.built.servers[1]);
  });

  it('close() ends every session and closes its server', async () => {
    const gw = await gateway();
    await host(gw, 'Ada');
    await rawSession(gw);
    await gw.close();
    expect(gw.built.closed.size).toBe(2);
  });

  it('opening and ending many sessions leaves no session, server or timer behind', async () => {
    // Long enough that a host between its initialize and its GET stream (a moment with no
    // exchange open) is not taken for idle on a loaded machine; short enough to wait for.
    const gw = await gateway({ sessionIdleMs: 1_500 });
    const timers = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    for (let round = 0; round < 20; round += 1) {
      const { client, transport } = await host(gw, 'Ada');
      await client.listTools();
      if (round % 2 === 0) await transport.terminateSession();
      await client.close();
    }
    for (let i = 0; i < 10; i += 1) await rawSession(gw);
    await Promise.all(gw.built.servers.map((server) => closedOf(gw.built, server)));
    expect(gw.built.closed.size).toBe(30);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('a 2026-07-28 host is served without a session', async () => {
    const gw = await gateway({ maxSessions: 1 });
    await host(gw, 'Ada');
    // The one session place is taken: the modern host needs none.
    const { client, transport } = await host(gw, 'Grace', true);
    expect(client.getProtocolEra()).toBe('modern');
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools).toEqual([]);
  });
});
