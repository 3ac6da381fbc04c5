// The gateway over Streamable HTTP, on 127.0.0.1 only. Every request must carry the bearer token
// it was given, a loopback Host (DNS rebinding) and, when it has one, a loopback Origin; no CORS headers are ever sent, bodies and
// requests in flight are bounded, and so is the time a client may take to send a request (a
// stalled upload is cut; a call that runs long is not). The SDK's handler (createMcpHandler) speaks MCP; this file is
// the small node:http bridge in front of it, written here because the SDK's own bridge
// (@modelcontextprotocol/node) would pull in a web framework for about forty lines.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Gateway } from '../gateway.js';
import { listenEventOf } from './listen-watch.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';

/** The largest request body taken (the SDK's own limit is the same). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Requests served at once; more are answered 503. A request takes its place only once its body
 * is read whole, so uploads that stall hold none (the request time limit ends them).
 */
export const MAX_HTTP_IN_FLIGHT = 32;

/**
 * How long a client may take to send a request, in milliseconds. `headersMs`: its headers;
 * `requestMs`: the whole request, body included (past either it gets 408 and the connection is
 * closed); `keepAliveMs`: an idle kept-alive connection between requests; `checkEveryMs`: how
 * often they are checked. None of them limits a response: a call may run as long as its
 * server's own time limit allows, and a listen stream stays open.
 */
export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly keepAliveMs: number;
  readonly checkEveryMs: number;
}

/**
 * The gateway's limits: a loopback client sends a request (at most 4 MiB) in far less than
 * this, so only a client that stalls meets them.
 */
export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkEveryMs: 1_000,
};

/** What {@link startHttpGateway} gives back. */
export interface HttpGateway {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The bearer token every request must carry. */
  readonly token: string;
  /** Tells open listen streams (2026-07-28) that a list changed. */
  readonly notify: McpHttpHandler['notify'];
  /** Stops listening and ends every exchange in flight. */
  close(): Promise<void>;
}

/** What {@link startHttpGateway} needs. */
export interface HttpGatewayOptions {
  /** Makes one MCP server per exchange (a gateway's `server`), for a host of that era. */
  readonly build: (era: 'legacy' | 'modern') => Server;
  /**
   * Hears each `subscriptions/listen` (2026-07-28) that names resources: their URIs, and a
   * signal that aborts when its stream ends (the SDK serves the listen itself).
   */
  readonly onListen?: (hostUris: readonly string[], ended: AbortSignal) => void;
  /**
   * The bearer token every request must carry (keep it secret: it calls every server behind the
   * gateway), and where its owner keeps it (named in the 401 answer).
   */
  readonly token: { readonly token: string; readonly file?: string };
  /** The port on 127.0.0.1; 0 takes a free one. */
  readonly port: number;
  /** Hears what went wrong outside a request. */
  readonly onError: (error: Error) => void;
  /** Replaces {@link HTTP_TIMEOUTS} (tests shorten them). */
  readonly timeouts?: HttpTimeouts;
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

function plain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

/**
 * The request body: `too-large` when it is over {@link MAX_HTTP_BODY_BYTES} (the rest is read and
 * dropped, so the client hears the 413 instead of a reset, up to 16 times the limit; past that
 * the connection is cut), `gone` when the client went away or was cut (the request time limit).
 */
async function bodyOf(req: IncomingMessage): Promise<Buffer | 'too-large' | 'gone'> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > 16 * MAX_HTTP_BODY_BYTES) {
        req.destroy();
        return 'gone';
      }
      if (size <= MAX_HTTP_BODY_BYTES) chunks.push(chunk);
    }
  } catch {
    return 'gone';
  }
  if (!req.complete) return 'gone';
  return size > MAX_HTTP_BODY_BYTES ? 'too-large' : Buffer.concat(chunks);
}

/**
 * Starts an HTTP endpoint for MCP on 127.0.0.1:`port` (0: a free port) at `/mcp`: bearer token,
 * loopback Host and Origin, bounded bodies, requests in flight and sending time. See
 * `serveHttp` for the gateway's own front end.
 *
 * @param options - The server factory, the token, the port, the error sink and the limits.
 * @returns The running endpoint.
 * @throws The listen error (the port is taken, …).
 */
export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const timeouts = options.timeouts ?? HTTP_TIMEOUTS;
  const { token, file } = options.token;
  const handler = createMcpHandler(({ era }) => options.build(era), {
    legacy: 'stateless',
    onerror: options.onError,
  });
  let inFlight = 0;
  const exchanges = new Set<AbortController>();
  // The requests in flight by JSON-RPC id, for a 2025 client's `notifications/cancelled`: it comes
  // as a POST of its own while the request's exchange stays open, and the stateless server that
  // gets it knows no such request. Ids are only unique per client, so a cancel is acted on only
  // when exactly one request in flight has that id (two clients' would be left alone).
  const byId = new Map<string, Set<AbortController>>();
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    (req, res) => {
      serve(req, res).catch((error: unknown) => {
        options.onError(error instanceof Error ? error : new Error(String(error)));
        if (!res.headersSent) plain(res, 500, 'The gateway failed on this request.');
        else res.destroy();
      });
    },
  );

  /** Takes one of the places of the requests served at once, kept until the response ends. */
  const place = (res: ServerResponse): AbortController | undefined => {
    if (inFlight >= MAX_HTTP_IN_FLIGHT) return undefined;
    inFlight += 1;
    const done = new AbortController();
    exchanges.add(done);
    res.once('close', () => {
      inFlight -= 1;
      exchanges.delete(done);
      done.abort();
    });
    return done;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    // DNS rebinding and browsers first: a foreign Host or Origin learns nothing more.
    const probe = new Request(url, { method: 'GET', headers });
    const refused =
      hostHeaderValidationResponse(probe, localhostAllowedHostnames()) ??
      originValidationResponse(probe, localhostAllowedOrigins());
    if (refused !== undefined) return send(res, refused);
    if (!bearerMatches(req.headers.authorization, token)) {
      return plain(
        res,
        401,
        `A bearer token is required${file === undefined ? '' : ` (the one in ${file})`}.`,
        {
          'www-authenticate': 'Bearer realm="garuda-mcp"',
        },
      );
    }
    if (url.pathname !== '/mcp') return plain(res, 404, 'The MCP endpoint is /mcp.');
    if (req.method === 'OPTIONS') return plain(res, 405, 'No cross-origin requests.');
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
    // The body is read before the request takes a place: a client that stalls its upload holds
    // a connection until the request time limit, never a place of the ones that answer.
    const body = hasBody ? await bodyOf(req) : undefined;
    if (body === 'gone' || res.destroyed) return;
    if (body === 'too-large') return plain(res, 413, 'The request body is too large.');
    const done = place(res);
    if (done === undefined) return plain(res, 503, 'Too many requests at once.');
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers,
      signal: done.signal,
      ...(hasBody ? { body: new Uint8Array(body!) } : {}),
    });
    const parsed = body === undefined ? undefined : parsedBody(body);
    const message = jsonRpcOf(parsed);
    const listen = listenEventOf(parsed);
    if (listen?.kind === 'open') options.onListen?.(listen.hostUris, done.signal);
    if (message?.cancels !== undefined) {
      const targets = byId.get(message.cancels);
      // Ending that exchange is what a dropped connection does: its request is cancelled.
      if (targets?.size === 1) for (const target of targets) target.abort();
    }
    const id = message?.id;
    if (id !== undefined) {
      const same = byId.get(id) ?? new Set<AbortController>();
      same.add(done);
      byId.set(id, same);
      done.signal.addEventListener('abort', () => {
        same.delete(done);
        if (same.size === 0 && byId.get(id) === same) byId.delete(id);
      });
    }
    return send(res, await handler.fetch(request));
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', options.onError);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    notify: handler.notify,
    close: async () => {
      for (const exchange of exchanges) exchange.abort();
      await handler.close().catch(() => {});
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * What the gateway needs of a JSON-RPC body: a request's id, or the id a
 * `notifications/cancelled` names (both as JSON text, so `1` and `"1"` differ). Batches and
 * anything unparsable give nothing (the SDK answers them).
 */
function jsonRpcOf(message: unknown): { id?: string; cancels?: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  const idText = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? JSON.stringify(value) : undefined;
  if (method === 'notifications/cancelled' && typeof params === 'object' && params !== null) {
    const cancels = idText((params as { requestId?: unknown }).requestId);
    return cancels === undefined ? undefined : { cancels };
  }
  const requestId = typeof method === 'string' ? idText(id) : undefined;
  return requestId === undefined ? undefined : { id: requestId };
}

/** A body's JSON, or undefined when it is not JSON (the SDK answers it). */
function parsedBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Writes a web Response to node's response, streaming its body (SSE included). */
async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // Never a CORS header, whoever made the response.
    if (!name.startsWith('access-control-')) headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) return void res.end();
  const body = Readable.fromWeb(response.body as WebReadableStream);
  res.once('close', () => body.destroy());
  body.pipe(res);
}

/** What {@link serveHttp} needs besides the gateway. */
export type ServeHttpOptions = Omit<HttpGatewayOptions, 'build' | 'onListen'>;

/**
 * Serves the gateway over Streamable HTTP on 127.0.0.1 (see {@link startHttpGateway}), telling
 * open listen streams when a list changed. Close the endpoint, then the gateway.
 *
 * @param gateway - The gateway to serve.
 * @param options - The token, the port, the error sink and the limits.
 * @returns The running endpoint.
 * @throws The listen error (the port is taken, …).
 */
export async function serveHttp(gateway: Gateway, options: ServeHttpOptions): Promise<HttpGateway> {
  // A 2025 host gets a stateless exchange per request, where an update has nowhere to go: it is
  // offered no resource subscriptions. A 2026-07-28 host names them in `subscriptions/listen`,
  // which the SDK serves on a stream of its own: the front reads the URIs off the request, holds
  // them while the stream is open, and the SDK routes each update to the listens that name it.
  // The endpoint tells them once it exists (a listen only comes after it does).
  const to: { notify?: HttpGateway['notify'] } = {};
  const listens = gateway.listens((hostUri) => to.notify?.resourceUpdated(hostUri));
  let listened = 0;
  const endpoint = await startHttpGateway({
    ...options,
    build: (era) =>
      gateway.server({ resourceSubscriptions: era === 'modern' ? 'listens' : 'none' }),
    onListen: (hostUris, ended) => {
      const id = String((listened += 1));
      listens.open(id, hostUris);
      ended.addEventListener('abort', () => listens.end(id), { once: true });
    },
  });
  to.notify = endpoint.notify;
  const stop = gateway.onListChanged((change) => {
    if (change === 'tools') endpoint.notify.toolsChanged();
    else if (change === 'prompts') endpoint.notify.promptsChanged();
    else endpoint.notify.resourcesChanged();
  });
  return {
    ...endpoint,
    close: async () => {
      stop();
      listens.close();
      gateway.cancelQuestions();
      await endpoint.close();
    },
  };
}
