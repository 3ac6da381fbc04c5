import { FormData as UndiciFormData, Request as UndiciRequest } from 'undici';
import type { RequestInit as UndiciRequestInit } from 'undici';

// Node's global fetch classes come from the undici copy bundled with Node (6.x on Node 20).
// undici 7 recognises only its own Request and FormData by brand: a global Request is
// stringified to "[object Request]" (an invalid URL) and a global FormData body is sent as
// the text "[object FormData]". These helpers rebuild such objects with undici 7's classes.

interface RequestLike {
  readonly url: string;
  readonly method: string;
  readonly headers: Iterable<[string, string]>;
  readonly body: unknown;
  readonly signal?: AbortSignal | null;
  readonly redirect?: string;
  readonly integrity?: string;
  readonly keepalive?: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface FormDataLike {
  [Symbol.iterator](): Iterator<[string, unknown]>;
}

function tagOf(value: unknown): string {
  return Object.prototype.toString.call(value);
}

/** A Request made by another fetch implementation (typically Node's global `Request`). */
export function isForeignRequest(value: unknown): value is RequestLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof UndiciRequest) &&
    tagOf(value) === '[object Request]' &&
    typeof (value as { url?: unknown }).url === 'string' &&
    typeof (value as { arrayBuffer?: unknown }).arrayBuffer === 'function'
  );
}

function isForeignFormData(value: unknown): value is FormDataLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof UndiciFormData) &&
    tagOf(value) === '[object FormData]' &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}

function toUndiciFormData(form: FormDataLike): UndiciFormData {
  const copy = new UndiciFormData();
  for (const [name, value] of form) {
    if (value instanceof Blob) {
      const filename = (value as { name?: unknown }).name;
      copy.append(name, value, typeof filename === 'string' ? filename : undefined);
    } else {
      copy.append(name, String(value));
    }
  }
  return copy;
}

// Buffered rather than streamed: a streamed body would go out chunked, without the
// Content-Length the original Request would have sent. The read still honours the signal.
function readBody(
  request: RequestLike,
  signal: AbortSignal | null | undefined,
): Promise<ArrayBuffer> {
  if (!signal) return request.arrayBuffer();
  signal.throwIfAborted();
  return new Promise<ArrayBuffer>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    request
      .arrayBuffer()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Rebuilds a foreign Request as an undici 7 Request with the same URL, method, headers,
 * body, signal, redirect mode, integrity and keepalive flag.
 *
 * @param request - The foreign Request.
 * @param overridingSignal - The signal from the call's `init`, which also bounds the body read.
 */
export async function fromForeignRequest(
  request: RequestLike,
  overridingSignal: AbortSignal | null | undefined,
): Promise<UndiciRequest> {
  const signal = overridingSignal ?? request.signal ?? undefined;
  const body = request.body === null ? null : await readBody(request, signal);
  const init: UndiciRequestInit = {
    method: request.method,
    headers: [...request.headers],
    body,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.redirect ? { redirect: request.redirect as UndiciRequestInit['redirect'] } : {}),
    ...(request.integrity ? { integrity: request.integrity } : {}),
    ...(request.keepalive === undefined ? {} : { keepalive: request.keepalive }),
  };
  return new UndiciRequest(request.url, init);
}

/**
 * Returns `init` with a foreign FormData body rebuilt for undici 7 (other fields unchanged).
 *
 * @param init - The caller's init object, from either fetch implementation.
 */
export function toUndiciInit(init: object | undefined): UndiciRequestInit {
  if (init === undefined || init === null) return {};
  const body = (init as { body?: unknown }).body;
  if (!isForeignFormData(body)) return { ...(init as UndiciRequestInit) };
  return { ...(init as UndiciRequestInit), body: toUndiciFormData(body) };
}
