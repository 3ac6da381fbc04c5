import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_MODES, createFixtureServer, type HttpFixtureMode } from '../fixtures/tools.mjs';

/** Options of {@link startHttpFixture}. */
export interface HttpFixtureOptions {
  /** Which tool set to serve (the same tools as the stdio mode of that name). Default `'normal'`. */
  mode?: HttpFixtureMode;
  /** Answer POSTs with one JSON body (`true`) or with an SSE stream (`false`, the default). */
  jsonResponse?: boolean;
  /** Interface to listen on. Default `'127.0.0.1'`. */
  host?: string;
  /** Port; `0` (the default) picks a free one. */
  port?: number;
  /**
   * When set, every request needs `Authorization: Bearer <token>` with a token this accepts;
   * otherwise the answer is `401` with `WWW-Authenticate: Bearer …` and nothing is served.
   */
  requireBearer?: (token: string) => boolean;
}

/** A running Streamable HTTP fixture. */
export interface HttpFixture {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** HTTP requests received so far (every method, rejected ones included). */
  readonly requests: number;
  /** Diagnostics of the tools, e.g. `slow: cancelled after 80 ms` (kept off the console). */
  readonly logs: readonly string[];
  /** Ends every connection and stops listening. Safe to call twice. */
  close(): Promise<void>;
}

/** Bodies above this are refused before anything is parsed (the SDK caps at 4 MiB itself). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Starts an in-process Streamable HTTP MCP server on loopback that serves the fixture tools.
 *
 * Both protocol eras are served on one endpoint: a request carrying the 2026 per-request
 * envelope goes to the SDK's `createMcpHandler` (modern, stateless), any other request to a
 * fresh stateless `WebStandardStreamableHTTPServerTransport` (2025 era). So a client with
 * `versionNegotiation: { mode: 'auto' }` and a default legacy client both work. GET and DELETE
 * on the legacy leg answer `405`, as a stateless server does.
 *
 * Mode `hang` accepts requests and never answers them.
 *
 * @param options - see {@link HttpFixtureOptions}
 * @returns the endpoint URL, a request counter and `close()`
 * @throws TypeError for an unknown mode
 * @example
 * const fixture = await startHttpFixture({ mode: 'huge', jsonResponse: true });
 * try {
 *   const transport = new StreamableHTTPClientTransport(fixture.url);
 *   ...
 * } finally {
 *   await fixture.close();
 * }
 */
export async function startHttpFixture(options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const {
    mode = 'normal',
    jsonResponse = false,
    host = '127.0.0.1',
    port = 0,
    requireBearer,
  } = options;
  if (!HTTP_MODES.includes(mode)) {
    throw new TypeError(
      `unknown HTTP fixture mode ${JSON.stringify(mode)}; expected one of: ${HTTP_MODES.join(', ')}`,
    );
  }

  const logs: string[] = [];
  const factory = () => createFixtureServer(mode, { log: (message) => logs.push(message) });
  const modern = withoutJsonModeWarning(() =>
    createMcpHandler(factory, {
      legacy: 'reject',
      responseMode: jsonResponse ? 'json' : 'sse',
      keepAliveMs: 0,
    }),
  );
  /** Per-request cleanups of the legacy leg still in flight, run on close. */
  const inFlight = new Set<() => Promise<void>>();
  let requests = 0;

  async function serveLegacy(request: Request): Promise<[Response, () => Promise<void>]> {
    if (request.method !== 'POST') {
      const response = new Response('Method not allowed.', {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'text/plain' },
      });
      return [response, async () => {}];
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: jsonResponse,
    });
    const server = factory();
    const cleanup = async () => {
      inFlight.delete(cleanup);
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    };
    inFlight.add(cleanup);
    try {
      await server.connect(transport);
      return [await transport.handleRequest(request), cleanup];
    } catch (error) {
      await cleanup();
      throw error;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (requireBearer) {
      const match = /^Bearer +([^\s]+) *$/i.exec(req.headers.authorization ?? '');
      if (!match?.[1] || !requireBearer(match[1])) {
        res
          .writeHead(401, {
            'www-authenticate': match
              ? 'Bearer realm="garuda-fixture", error="invalid_token"'
              : 'Bearer realm="garuda-fixture"',
            'content-type': 'application/json',
          })
          .end(JSON.stringify({ error: match ? 'invalid_token' : 'unauthorized' }));
        return;
      }
    }
    if (mode === 'hang') {
      req.resume(); // read the request, never answer; close() ends the socket
      return;
    }
    const request = await toWebRequest(req, res);
    if (!request) return;
    let response: Response;
    let cleanup = async () => {};
    if (await isLegacyRequest(request)) [response, cleanup] = await serveLegacy(request);
    else response = await modern.fetch(request);
    try {
      await sendWebResponse(response, res);
    } finally {
      await cleanup();
    }
  }

  const server = createServer((req, res) => {
    requests++;
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`fixture error: ${message}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const endpoint = new URL(`http://${hostPart}:${address.port}/mcp`);

  let closed: Promise<void> | undefined;
  return {
    get url() {
      return new URL(endpoint);
    },
    get requests() {
      return requests;
    },
    logs,
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await modern.close().catch(() => {});
        await Promise.all([...inFlight].map((cleanup) => cleanup()));
        await stopped;
      })();
      return closed;
    },
  };
}

/**
 * `createMcpHandler` warns on the console, every time, that `responseMode: 'json'` drops
 * mid-call notifications. That is the documented point of `jsonResponse: true`, and the warning
 * would land in every consumer's test output, so only that message is held back (the call is
 * synchronous, nothing else can log meanwhile).
 */
function withoutJsonModeWarning<T>(create: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith("responseMode: 'json'")) return;
    warn(...args);
  };
  try {
    return create();
  } finally {
    console.warn = warn;
  }
}

/**
 * Builds a fetch `Request` from a Node request. Its signal aborts when the client goes away, so
 * a tool waiting on `ctx.mcpReq.signal` sees the disconnect. Returns `undefined` after answering
 * 413 itself when the body is too big.
 */
async function toWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Request | undefined> {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let body: Buffer | undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('too large');
        return undefined;
      }
      chunks.push(chunk);
    }
    body = Buffer.concat(chunks);
  }
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    body: body === undefined ? undefined : new Uint8Array(body),
    signal: controller.signal,
  });
}

/** Streams a fetch `Response` into a Node response, honouring back-pressure and disconnects. */
async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // SSE: send the headers now, the first event may come later.
  res.flushHeaders();
  const reader = response.body.getReader();
  const gone = new Promise<'gone'>((resolve) => res.once('close', () => resolve('gone')));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone]);
      if (next === 'gone') break;
      if (next.done) {
        res.end();
        break;
      }
      if (!res.write(next.value)) {
        const drained = new Promise<'drain'>((resolve) =>
          res.once('drain', () => resolve('drain')),
        );
        if ((await Promise.race([drained, gone])) === 'gone') break;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
