// The `subscriptions/listen` response of a server that streams it as `application/json`:
// newline-delimited JSON messages on a response it keeps open, as the conformance repository's
// example server does. The SDK reads an `application/json` body to its end before it hands over
// any message, so on such a stream the acknowledgement (and every change after it) would wait
// for a body that never ends. The fix lives in the fetch, where the body is still a stream: the
// response is re-framed as the SSE stream the SDK already reads message by message, and whose
// end it reports to the subscription. Only listen responses are re-framed: every other
// `application/json` answer is one message and keeps the SDK's own handling (a malformed body
// fails its request at once there, where an SSE event would only be reported).
import type { FetchLike } from '@modelcontextprotocol/client';
import { ResponseTooLargeError, badMessage } from './errors.js';

const LISTEN_METHOD = 'subscriptions/listen';
const ENCODER = new TextEncoder();
const EVENT_START = ENCODER.encode('data: ');
const EVENT_END = ENCODER.encode('\n\n');

/**
 * Wraps a fetch so that the response to a `subscriptions/listen` POST, when the server sends it
 * as `application/json`, reaches the caller as `text/event-stream`: each JSON value of the body
 * (one per line, or several lines each) becomes one event as soon as it is complete. A value
 * larger than `maxBytes` fails the stream with a {@link ResponseTooLargeError}; bytes that do
 * not start a JSON object or array fail it as a bad message. Other requests pass untouched.
 *
 * @param fetchImpl - the fetch to wrap
 * @param maxBytes - the cap of one message, in bytes
 * @returns a fetch with the same signature
 * @internal
 */
export function listenStreamAsEvents(fetchImpl: FetchLike, maxBytes: number): FetchLike {
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    if (!isListenRequest(init) || !response.ok || response.body === null) return response;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return response;
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    headers.delete('content-length');
    const where = String(url instanceof URL ? url.href : url);
    return new Response(response.body.pipeThrough(jsonValuesAsEvents(where, maxBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

/** Whether the request is a `subscriptions/listen` POST (the SDK sends its body as a string). */
function isListenRequest(init: RequestInit | undefined): boolean {
  const body = init?.body;
  if (init?.method !== 'POST' || typeof body !== 'string' || !body.includes(LISTEN_METHOD)) {
    return false;
  }
  try {
    const message: unknown = JSON.parse(body);
    return (
      typeof message === 'object' &&
      message !== null &&
      (message as { method?: unknown }).method === LISTEN_METHOD
    );
  } catch {
    return false;
  }
}

/**
 * Splits a byte stream of JSON values (objects or arrays, separated by any whitespace) into SSE
 * events, one per value. Written by hand: it only has to find where each value ends (depth,
 * strings and escapes), across chunk edges, in one pass. Bytes of multi-byte UTF-8 characters
 * never equal the ASCII bytes it looks for, so it works on bytes.
 */
export function jsonValuesAsEvents(
  where: string,
  maxBytes: number,
): TransformStream<Uint8Array, Uint8Array> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Uint8Array[] = [];
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      let start = -1;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i] as number;
        if (depth === 0) {
          if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
          if (b !== 0x7b && b !== 0x5b) {
            const excerpt = new TextDecoder().decode(chunk.subarray(i, i + 80));
            controller.error(badMessage(excerpt, new Error('not a JSON object or array')));
            return;
          }
          depth = 1;
          start = i;
          continue;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (b === 0x5c) escaped = true;
          else if (b === 0x22) inString = false;
          continue;
        }
        if (b === 0x22) inString = true;
        else if (b === 0x7b || b === 0x5b) depth++;
        else if (b === 0x7d || b === 0x5d) {
          depth--;
          if (depth > 0) continue;
          const from = start === -1 ? 0 : start;
          if (!add(chunk.subarray(from, i + 1), controller)) return;
          controller.enqueue(event(parts, size));
          parts = [];
          size = 0;
          start = -1;
        }
      }
      if (depth > 0) add(chunk.subarray(start === -1 ? 0 : start), controller);
    },
    // A value cut off by the end of the body is dropped: the stream's end is what the SDK hears.
  });

  function add(part: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) {
    size += part.length;
    if (size > maxBytes) {
      controller.error(new ResponseTooLargeError(where, maxBytes, 'event'));
      return false;
    }
    // Copied: the chunk's buffer may be reused by whoever wrote it.
    parts.push(part.slice());
    return true;
  }
}

/** One SSE event of a JSON value; its line breaks (only whitespace in JSON) become spaces. */
function event(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(EVENT_START.length + size + EVENT_END.length);
  out.set(EVENT_START, 0);
  let at = EVENT_START.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  for (let i = EVENT_START.length; i < at; i++) {
    if (out[i] === 0x0a || out[i] === 0x0d) out[i] = 0x20;
  }
  out.set(EVENT_END, at);
  return out;
}
