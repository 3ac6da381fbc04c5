// The small node:http ↔ web Request/Response bridge of the HTTP gateway, written here because the
// SDK's own (@modelcontextprotocol/node) would pull in a web framework for about forty lines.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** The largest request body taken (the SDK's own limit is the same). */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;

/** Answers `text` as plain text. */
export function plain(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

/**
 * The request body: `too-large` when it is over {@link MAX_HTTP_BODY_BYTES} (the rest is read and
 * dropped, so the client hears the 413 instead of a reset, up to 16 times the limit; past that
 * the connection is cut), `gone` when the client went away or was cut (the request time limit).
 */
export async function bodyOf(req: IncomingMessage): Promise<Buffer | 'too-large' | 'gone'> {
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

/** Writes a web Response to node's response, streaming its body (SSE included). */
export function send(res: ServerResponse, response: Response): void {
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

/**
 * Whether a JSON-RPC body is one `initialize` request (what opens a 2025-era session). A batch
 * or anything unparsable is not (the SDK answers them).
 */
export function isInitialize(body: Buffer | undefined): boolean {
  if (body === undefined) return false;
  try {
    const message: unknown = JSON.parse(body.toString('utf8'));
    return (
      typeof message === 'object' &&
      message !== null &&
      !Array.isArray(message) &&
      (message as { method?: unknown }).method === 'initialize'
    );
  } catch {
    return false;
  }
}
