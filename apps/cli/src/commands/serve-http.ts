// `garuda-mcp serve --http`: the gateway over Streamable HTTP, on 127.0.0.1 only. Every request
// must carry the bearer token kept in <home>/serve-http-token (0600), a loopback Host (DNS
// rebinding) and, when it has one, a loopback Origin; no CORS headers are ever sent, bodies and
// requests in flight are bounded. The SDK's handler (createMcpHandler) speaks MCP; this file is
// the small node:http bridge in front of it, written here because the SDK's own bridge
// (@modelcontextprotocol/node) would pull in a web framework for about forty lines.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
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
import writeFileAtomic from 'write-file-atomic';

/** The largest request body taken (the SDK's own limit is the same). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/** Requests served at once; more are answered 503. */
export const MAX_HTTP_IN_FLIGHT = 32;
/** The token file under the home. */
export const HTTP_TOKEN_FILE = 'serve-http-token';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What {@link startHttpGateway} gives back. */
export interface HttpGateway {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The token file, and whether it was made now (its token is then shown once). */
  readonly tokenFile: string;
  readonly token: string;
  readonly tokenIsNew: boolean;
  /** Tells open listen streams (2026-07-28) that a list changed. */
  readonly notify: McpHttpHandler['notify'];
  /** Stops listening and ends every exchange in flight. */
  close(): Promise<void>;
}

/**
 * Reads the gateway's token from `<home>/serve-http-token`, or makes one (32 random bytes,
 * base64url) in a file of mode 0600, written whole (write-file-atomic).
 */
async function gatewayToken(
  home: string,
): Promise<{ file: string; token: string; isNew: boolean }> {
  const file = path.join(home, HTTP_TOKEN_FILE);
  const kept = await readFile(file, 'utf8').catch(() => '');
  if (TOKEN_SHAPE.test(kept.trim())) return { file, token: kept.trim(), isNew: false };
  await mkdir(home, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600, fsync: true });
  return { file, token, isNew: true };
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
 * The request body, or undefined when it is over {@link MAX_HTTP_BODY_BYTES}. The rest of an
 * oversized body is read and dropped (so the client hears the 413 instead of a reset), up to 16
 * times the limit; past that the connection is cut.
 */
async function bodyOf(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * MAX_HTTP_BODY_BYTES) {
      req.destroy();
      return undefined;
    }
    if (size <= MAX_HTTP_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_HTTP_BODY_BYTES ? undefined : Buffer.concat(chunks);
}

/**
 * Starts the gateway's HTTP endpoint on 127.0.0.1:`port` (0: a free port) at `/mcp`.
 *
 * @param options - `build` makes one gateway server per exchange; `home` keeps the token;
 *   `onError` hears what went wrong outside a request.
 * @returns The running gateway.
 */
export async function startHttpGateway(options: {
  readonly build: () => Server;
  readonly home: string;
  readonly port: number;
  readonly onError: (error: Error) => void;
}): Promise<HttpGateway> {
  const { file, token, isNew } = await gatewayToken(options.home);
  const handler = createMcpHandler(() => options.build(), {
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
  const server = createServer((req, res) => {
    if (inFlight >= MAX_HTTP_IN_FLIGHT) return plain(res, 503, 'Too many requests at once.');
    inFlight += 1;
    const done = new AbortController();
    exchanges.add(done);
    res.once('close', () => {
      inFlight -= 1;
      exchanges.delete(done);
      done.abort();
    });
    serve(req, res, done).catch((error: unknown) => {
      options.onError(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) plain(res, 500, 'The gateway failed on this request.');
      else res.destroy();
    });
  });

  const serve = async (req: IncomingMessage, res: ServerResponse, done: AbortController) => {
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
      return plain(res, 401, `A bearer token is required (the one in ${file}).`, {
        'www-authenticate': 'Bearer realm="garuda-mcp"',
      });
    }
    if (url.pathname !== '/mcp') return plain(res, 404, 'The MCP endpoint is /mcp.');
    if (req.method === 'OPTIONS') return plain(res, 405, 'No cross-origin requests.');
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
    const body = hasBody ? await bodyOf(req) : undefined;
    if (hasBody && body === undefined) return plain(res, 413, 'The request body is too large.');
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers,
      signal: done.signal,
      ...(hasBody ? { body: new Uint8Array(body!) } : {}),
    });
    const message = body === undefined ? undefined : jsonRpcOf(body);
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
    tokenFile: file,
    token,
    tokenIsNew: isNew,
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
function jsonRpcOf(body: Buffer): { id?: string; cancels?: string } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
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
