import type { FetchLike } from '@modelcontextprotocol/client';
import { ResponseTooLargeError } from './errors.js';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps a `fetch` so that no response can make the caller buffer more than `maxBytes`: a body
 * is cut off with a {@link ResponseTooLargeError} once it passes the cap, and in an SSE stream
 * (`text/event-stream`) the cap applies to each event, so a long-lived stream of normal events
 * keeps working. A `Content-Length` over the cap fails at once, before any body is read.
 *
 * The MCP SDK caps neither JSON responses nor SSE events, and OAuth metadata and token
 * responses go through the same `fetch`, so this is the one place where all of them are bounded.
 *
 * @param fetchImpl - the fetch to wrap (the global one, or a pinned fetch)
 * @param maxBytes - the cap in bytes, per response body or per SSE event
 * @returns a fetch with the same signature
 * @example
 * ```ts
 * const fetch4m = createCappedFetch(fetch, 4 * 1024 * 1024);
 * const res = await fetch4m('https://example.com/big.json');
 * await res.json(); // throws ResponseTooLargeError past 4 MiB
 * ```
 */
export function createCappedFetch(fetchImpl: FetchLike, maxBytes: number): FetchLike {
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new RangeError(`maxBytes must be a positive integer, got ${String(maxBytes)}`);
  }
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    const where = String(url instanceof URL ? url.href : url);
    const length = Number(response.headers.get('content-length'));
    if (Number.isFinite(length) && length > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new ResponseTooLargeError(where, maxBytes, 'response');
    }
    const sse = (response.headers.get('content-type') ?? '')
      .toLowerCase()
      .startsWith('text/event-stream');
    const counter = sse ? sseEventCounter(where, maxBytes) : bodyCounter(where, maxBytes);
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function bodyCounter(where: string, maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(new ResponseTooLargeError(where, maxBytes, 'response'));
      else controller.enqueue(chunk);
    },
  });
}

/**
 * Counts the bytes of the current SSE event; an event ends at a blank line (`\n\n`, `\r\n\r\n`
 * or `\r\r`). Bytes pass through unchanged. Written by hand: it only has to find event
 * boundaries, across chunk edges, in one pass.
 */
function sseEventCounter(where: string, maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let inEvent = 0;
  // The line-break bytes seen since the last byte of content, to spot a blank line.
  let breaks = '';
  return new TransformStream({
    transform(chunk, controller) {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i] as number;
        if (b === 0x0a || b === 0x0d) {
          breaks += b === 0x0a ? 'n' : 'r';
          if (breaks.endsWith('nn') || breaks.endsWith('rr') || breaks.endsWith('nrn')) {
            inEvent = 0;
            breaks = '';
          } else if (breaks.length > 4) {
            breaks = breaks.slice(-3);
          }
          continue;
        }
        breaks = '';
        if (++inEvent > maxBytes) {
          controller.error(new ResponseTooLargeError(where, maxBytes, 'event'));
          return;
        }
      }
      controller.enqueue(chunk);
    },
  });
}
