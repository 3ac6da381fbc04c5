// The small node:http ↔ fetch bridge the in-process HTTP fixtures share (not exported).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies above this are refused before anything is parsed (the SDK caps at 4 MiB itself). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Builds a fetch `Request` from a Node request. Its signal aborts when the client goes away, so
 * a tool waiting on `ctx.mcpReq.signal` sees the disconnect. Returns `undefined` after answering
 * 413 itself when the body is too big.
 */
export async function toWebRequest(
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
    body = await readBody(req, MAX_BODY_BYTES);
    if (!body) {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('too large');
      return undefined;
    }
  }
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    body: body === undefined ? undefined : new Uint8Array(body),
    signal: controller.signal,
  });
}

/** Reads a whole request body, or `undefined` once it grows past `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Streams a fetch `Response` into a Node response, honouring back-pressure and disconnects. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
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
