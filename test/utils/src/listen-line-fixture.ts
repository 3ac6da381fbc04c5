// A 2026-07-28 server whose `subscriptions/listen` stream is framed as the conformance
// repository's example server frames it: HTTP 200, `Content-Type: application/json`, chunked,
// one JSON message per line, the response kept open. Not SSE, and never ended by the server.
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFixtureServer, normalTools } from '../fixtures/tools.mjs';
import { answerFailure } from './mcp-endpoint.js';
import { sendWebResponse, toWebRequest } from './node-bridge.js';

/** The tool {@link ListenLineFixture.addTool} adds. */
export const LATE_TOOL = 'late';

/** The metadata key that names the subscription a message belongs to. */
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** Options of {@link startListenLineFixture}. */
export interface ListenLineFixtureOptions {
  /**
   * `'lines'` (the default) acknowledges a listen at once as one JSON line; `'held'` sends the
   * headers and then nothing until {@link ListenLineFixture.acknowledge} (maybe never).
   */
  readonly listen?: 'lines' | 'held';
  /**
   * Serve the `library` mode's resources (with `resources.subscribe`) besides the tools; a
   * listen then honours the `resourceSubscriptions` it names. Default `false`.
   */
  readonly library?: boolean;
}

/** A running {@link startListenLineFixture}. */
export interface ListenLineFixture {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** `subscriptions/listen` requests received so far. */
  readonly listens: number;
  /** Listen responses still open (the client has not gone away). */
  readonly openStreams: number;
  /**
   * Adds {@link LATE_TOOL} to the tool list and tells every open stream that asked for tool
   * changes (`notifications/tools/list_changed`, one line).
   *
   * @returns How many streams were told.
   */
  addTool(): number;
  /** Acknowledges the listens still waiting (mode `'held'`). @returns How many. */
  acknowledge(): number;
  /**
   * Tells every open stream that subscribed to `uri` (`notifications/resources/updated`).
   *
   * @returns How many streams were told.
   */
  updateResource(uri: string): number;
  /** Ends every open listen response, as a server that drops its streams does. */
  endStreams(): void;
  /** Ends every connection and stops listening. Safe to call twice. */
  close(): Promise<void>;
}

interface OpenStream {
  readonly res: ServerResponse;
  readonly id: string;
  readonly tools: boolean;
  /** The URIs it subscribed to (every one is honoured). */
  readonly uris: readonly string[];
  acknowledged: boolean;
}

/** Writes one message as a line of the stream. */
function send(stream: OpenStream, method: string, params: Record<string, unknown> = {}): void {
  const message = {
    jsonrpc: '2.0',
    method,
    params: { _meta: { [SUBSCRIPTION_ID]: stream.id }, ...params },
  };
  stream.res.write(`${JSON.stringify(message)}\n`);
}

/** The acknowledgement: the filter as the server honours it (only tool changes). */
function acknowledge(stream: OpenStream): void {
  stream.acknowledged = true;
  send(stream, 'notifications/subscriptions/acknowledged', {
    notifications: {
      ...(stream.tools ? { toolsListChanged: true } : {}),
      ...(stream.uris.length > 0 ? { resourceSubscriptions: stream.uris } : {}),
    },
  });
}

/**
 * Starts, on 127.0.0.1, a server built on the SDK (`createMcpHandler`, 2026-07-28 only, the
 * `normal` tools with `tools.listChanged`, and the `library` resources if asked) behind a small HTTP layer that answers
 * `subscriptions/listen` itself, as newline-delimited JSON on an open `application/json` response.
 *
 * @param options - how the listen stream behaves
 * @returns the endpoint, counters, `addTool()` and `close()`
 * @example
 * const fixture = await startListenLineFixture();
 * await manager.start(); // with { url: fixture.url }
 * fixture.addTool();
 */
export async function startListenLineFixture(
  options: ListenLineFixtureOptions = {},
): Promise<ListenLineFixture> {
  const mode = options.listen ?? 'lines';
  let added = false;
  let listens = 0;
  const streams = new Set<OpenStream>();
  const logs: string[] = [];
  const late = {
    name: LATE_TOOL,
    description: 'A tool added while the server runs.',
    inputSchema: { type: 'object', properties: {} },
    run: () => ({ content: [{ type: 'text', text: `${LATE_TOOL} ran` }] }),
  };
  const handler = createMcpHandler(
    () =>
      createFixtureServer(options.library === true ? 'library' : 'normal', {
        tools: [...normalTools({ log: (m) => logs.push(m) }), ...(added ? [late] : [])],
        listChanged: true,
        log: (message) => logs.push(message),
      }),
    { legacy: 'reject', responseMode: 'sse', keepAliveMs: 0 },
  );

  const listen = (res: ServerResponse, message: Record<string, unknown>): void => {
    listens++;
    const id = String(message.id);
    const params = (message.params ?? {}) as { notifications?: Record<string, unknown> };
    const tools = params.notifications?.toolsListChanged === true;
    const named = params.notifications?.resourceSubscriptions;
    const uris = Array.isArray(named) ? named.filter((uri) => typeof uri === 'string') : [];
    res.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-cache',
      'transfer-encoding': 'chunked',
    });
    res.flushHeaders();
    const stream: OpenStream = { res, id, tools, uris, acknowledged: false };
    streams.add(stream);
    res.once('close', () => streams.delete(stream));
    if (mode === 'lines') acknowledge(stream);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, res);
      if (!request) return;
      if (request.method === 'POST') {
        const message = (await request
          .clone()
          .json()
          .catch(() => undefined)) as Record<string, unknown> | undefined;
        if (message?.method === 'subscriptions/listen') {
          listen(res, message);
          return;
        }
      }
      await sendWebResponse(await handler.fetch(request), res);
    })().catch((error: unknown) => answerFailure(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  let closed: Promise<void> | undefined;
  return {
    get url() {
      return new URL(url);
    },
    get listens() {
      return listens;
    },
    get openStreams() {
      return streams.size;
    },
    addTool() {
      added = true;
      let told = 0;
      for (const stream of streams) {
        if (!stream.tools || !stream.acknowledged) continue;
        send(stream, 'notifications/tools/list_changed');
        told++;
      }
      return told;
    },
    acknowledge() {
      const waiting = [...streams].filter((stream) => !stream.acknowledged);
      for (const stream of waiting) acknowledge(stream);
      return waiting.length;
    },
    updateResource(uri) {
      let told = 0;
      for (const stream of streams) {
        if (!stream.acknowledged || !stream.uris.includes(uri)) continue;
        send(stream, 'notifications/resources/updated', { uri });
        told++;
      }
      return told;
    },
    endStreams() {
      for (const stream of streams) stream.res.end();
    },
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await handler.close().catch(() => {});
        await stopped;
      })();
      return closed;
    },
  };
}
