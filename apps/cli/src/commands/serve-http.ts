// `garuda-mcp serve --http`: the gateway over Streamable HTTP, on 127.0.0.1 only. Every request
// must carry the bearer token kept in <home>/serve-http-token (0600), a loopback Host (DNS
// rebinding) and, when it has one, a loopback Origin; no CORS headers are ever sent, bodies and
// requests in flight are bounded, and so is the time a client may take to send a request (a
// stalled upload is cut; a call that runs long is not). The SDK's handler (createMcpHandler) speaks MCP; this file is
// the small node:http bridge in front of it, written here because the SDK's own bridge
// (@modelcontextprotocol/node) would pull in a web framework for about forty lines.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
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
import { CliError, ExitCode } from '../exit-codes.js';
import { shellWord } from '../format.js';

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

/** The gateway's bearer token and the file that keeps it. */
export interface GatewayToken {
  readonly file: string;
  readonly token: string;
  /** Made now (it is then shown once). */
  readonly isNew: boolean;
}

/**
 * Reads the gateway's token from `<home>/serve-http-token`, or makes one (32 random bytes,
 * base64url) in a file of mode 0600, written whole (write-file-atomic). A file that is there is
 * used only when it is a regular file of this user's with mode 0600, opened without following a
 * link (anyone who could read or swap it could call every server behind the gateway).
 *
 * @param home - Garuda's home folder.
 * @returns The token, its file, and whether it was made now.
 * @throws {@link CliError} (exit 3) naming the file, what is wrong and the command that mends it.
 */
export async function gatewayToken(home: string): Promise<GatewayToken> {
  const file = path.join(home, HTTP_TOKEN_FILE);
  const kept = (await keptToken(file))?.trim();
  if (kept !== undefined && TOKEN_SHAPE.test(kept)) return { file, token: kept, isNew: false };
  await mkdir(home, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600, fsync: true });
  return { file, token, isNew: true };
}

/** The text of the token file, `undefined` when there is none; refuses one that is not safe. */
async function keptToken(file: string): Promise<string | undefined> {
  const refuse = (what: string, mend: string) =>
    new CliError(
      `garuda-mcp serve --http: the token file ${file} ${what}; it must be a regular file of ` +
        `yours with mode 0600, so the token was not used. ${mend}`,
      ExitCode.CONFIG,
    );
  const rm = `rm ${shellWord(file)}`;
  const anew = `Remove it (${rm}) and run the command again: a new token is made.`;
  // Where there is no O_NOFOLLOW (Windows), a link is refused by looking first.
  const noFollow = fsConstants.O_NOFOLLOW ?? 0;
  if (noFollow === 0) {
    const link = await lstat(file).catch(() => undefined);
    if (link?.isSymbolicLink() === true) throw refuse('is a symbolic link', anew);
  }
  let handle;
  try {
    // Non-blocking, so that a FIFO put there cannot hold the open.
    handle = await open(file, fsConstants.O_RDONLY | noFollow | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') throw refuse('is a symbolic link', anew);
    throw refuse(`cannot be read (${code ?? 'error'})`, anew);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuse('is not a regular file', anew);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) throw refuse('belongs to another user', anew);
    const mode = info.mode & 0o777;
    if (process.platform !== 'win32' && mode !== 0o600) {
      throw refuse(
        `has mode 0${mode.toString(8)}`,
        `If nobody else could have read it, run: chmod 600 ${shellWord(file)}; otherwise remove it (${rm}) and run the command again.`,
      );
    }
    // A token line is 44 bytes; more is not a token (and is never read whole).
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
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
 * Starts the gateway's HTTP endpoint on 127.0.0.1:`port` (0: a free port) at `/mcp`.
 *
 * @param options - `build` makes one gateway server per exchange; `token` is the one every
 *   request must carry ({@link gatewayToken}); `onError` hears what went wrong outside a request;
 *   `timeouts` replaces {@link HTTP_TIMEOUTS} (tests shorten them).
 * @returns The running gateway.
 */
export async function startHttpGateway(options: {
  readonly build: () => Server;
  readonly token: GatewayToken;
  readonly port: number;
  readonly onError: (error: Error) => void;
  readonly timeouts?: HttpTimeouts;
}): Promise<HttpGateway> {
  const timeouts = options.timeouts ?? HTTP_TIMEOUTS;
  const { file, token, isNew } = options.token;
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
      return plain(res, 401, `A bearer token is required (the one in ${file}).`, {
        'www-authenticate': 'Bearer realm="garuda-mcp"',
      });
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
