// The gateway over Streamable HTTP, on 127.0.0.1 only. Every request must carry the bearer token
// it was given, a loopback Host (DNS rebinding) and, when it has one, a loopback Origin; no CORS
// headers are ever sent, bodies and requests in flight are bounded, and so is the time a client
// may take to send a request (a stalled upload is cut; a call that runs long is not). A
// 2026-07-28 host is served statelessly by the SDK's handler (createMcpHandler); a 2025-era host
// (one that sends `initialize`) gets a session of its own (./http-sessions.ts), so that what a
// server asks during a call, list changes and logs reach it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Gateway } from '../gateway.js';
import { listenEventOf } from './listen-watch.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import { bodyOf, isInitialize, MAX_HTTP_BODY_BYTES, plain, send } from './http-bridge.js';
import { createSessions } from './http-sessions.js';

export { MAX_HTTP_BODY_BYTES };
/**
 * Requests served at once; more are answered 503. A request takes its place only once its body
 * is read whole, so uploads that stall hold none (the request time limit ends them).
 */
export const MAX_HTTP_IN_FLIGHT = 32;
/**
 * Sessions of 2025-era hosts open at once; one more `initialize` is answered 503 with what to
 * do (each session holds a gateway server, so they are bounded like requests).
 */
export const MAX_HTTP_SESSIONS = 16;
/** How long a session may sit idle by default: a host between two turns of its user keeps it. */
const SESSION_IDLE_MS = 10 * 60_000;

/**
 * How long a client may take to send a request, in milliseconds. `headersMs`: its headers;
 * `requestMs`: the whole request, body included (past either it gets 408 and the connection is
 * closed); `keepAliveMs`: an idle kept-alive connection between requests; `checkEveryMs`: how
 * often they are checked. None of them limits a response: a call may run as long as its
 * server's own time limit allows, and a listen stream stays open. `sessionIdleMs`: a 2025-era
 * host's session with no request and no open stream for this long is ended, its server closed
 * (10 min when not given).
 */
export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly keepAliveMs: number;
  readonly checkEveryMs: number;
  readonly sessionIdleMs?: number;
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
  sessionIdleMs: SESSION_IDLE_MS,
};

/** What {@link startHttpGateway} gives back. */
export interface HttpGateway {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The bearer token every request must carry. */
  readonly token: string;
  /**
   * Tells open listen streams (2026-07-28) that a list changed. A 2025-era host's session hears
   * it from its own server (the gateway tells every server it made).
   */
  readonly notify: McpHttpHandler['notify'];
  /** Stops listening, ends every session and every exchange in flight. */
  close(): Promise<void>;
}

/** What {@link startHttpGateway} needs. */
export interface HttpGatewayOptions {
  /**
   * Makes one MCP server per exchange of a 2026-07-28 host (`modern`), per session of a 2025-era
   * one (`session`): a gateway's `server`.
   */
  readonly build: (kind: 'session' | 'modern') => Server;
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
  /** Replaces {@link MAX_HTTP_SESSIONS} (tests lower it). */
  readonly maxSessions?: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The digest of the token `header` carries when it is `Bearer <token>` (compared in constant
 * time); undefined otherwise.
 */
function bearerDigest(header: string | undefined, token: Buffer): Buffer | undefined {
  if (header === undefined || !header.startsWith('Bearer ')) return undefined;
  const given = digest(header.slice('Bearer '.length));
  return timingSafeEqual(given, token) ? given : undefined;
}

/**
 * Starts an HTTP endpoint for MCP on 127.0.0.1:`port` (0: a free port) at `/mcp`: bearer token,
 * loopback Host and Origin, bounded bodies, requests in flight and sending time; 2026-07-28
 * hosts served statelessly, 2025-era hosts in sessions (bounded, bound to the token that opened
 * them, ended by DELETE, when idle, or on close). See
 * `serveHttp` for the gateway's own front end.
 *
 * @param options - The server factory, the token, the port, the error sink and the limits.
 * @returns The running endpoint.
 * @throws The listen error (the port is taken, …).
 */
export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const timeouts = options.timeouts ?? HTTP_TIMEOUTS;
  const { token, file } = options.token;
  const tokenDigest = digest(token);
  // 2025-era traffic never reaches this handler: it is routed to the sessions first.
  const handler = createMcpHandler(() => options.build('modern'), {
    legacy: 'reject',
    onerror: options.onError,
  });
  const sessions = createSessions({
    build: () => options.build('session'),
    maxSessions: options.maxSessions ?? MAX_HTTP_SESSIONS,
    idleMs: timeouts.sessionIdleMs ?? SESSION_IDLE_MS,
    onError: options.onError,
  });
  let inFlight = 0;
  const exchanges = new Set<AbortController>();
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
    const caller = bearerDigest(req.headers.authorization, tokenDigest);
    if (caller === undefined) {
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
    // The SDK's own routing decision (it reads a clone of the body): no envelope, a 2025 host.
    if (await isLegacyRequest(request)) {
      return send(res, await sessions.serve(request, isInitialize(body), caller, done.signal));
    }
    const listen = body === undefined ? undefined : listenEventOf(parsedBody(body));
    if (listen?.kind === 'open') options.onListen?.(listen.hostUris, done.signal);
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
      await sessions.close();
      for (const exchange of exchanges) exchange.abort();
      await handler.close().catch(() => {});
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A body's JSON, or undefined when it is not JSON (the SDK answers it). */
function parsedBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
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
  // A 2025 host has a session whose server lasts: it subscribes with requests that server
  // answers, as over stdio. A 2026-07-28 host names them in `subscriptions/listen`,
  // which the SDK serves on a stream of its own: the front reads the URIs off the request, holds
  // them while the stream is open, and the SDK routes each update to the listens that name it.
  // The endpoint tells them once it exists (a listen only comes after it does).
  const to: { notify?: HttpGateway['notify'] } = {};
  const listens = gateway.listens((hostUri) => to.notify?.resourceUpdated(hostUri));
  let listened = 0;
  const endpoint = await startHttpGateway({
    ...options,
    build: (kind) =>
      gateway.server({ resourceSubscriptions: kind === 'modern' ? 'listens' : 'requests' }),
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
