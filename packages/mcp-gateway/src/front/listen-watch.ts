// What a 2026-07-28 host listens to, read off the wire. The SDK's entry serves
// `subscriptions/listen` itself and the server it builds never sees it, so the front watches the
// connection's messages to learn which resources the host asked to hear about (and when a listen
// is cancelled) and subscribes them behind the gateway; the entry still decides what each listen
// receives.
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';

/** The most URIs one listen is taken to name (the manager allows 100 per server). */
const MAX_LISTEN_URIS = 256;

/** What a watched message means for the listens. */
export type ListenEvent =
  | { readonly kind: 'open'; readonly id: string; readonly hostUris: readonly string[] }
  | { readonly kind: 'end'; readonly id: string };

/**
 * A `subscriptions/listen` request that names resources (`open`), or a `notifications/cancelled`
 * of a request (`end`: when it names no open listen, nothing happens); ids as JSON text.
 */
export function listenEventOf(message: unknown): ListenEvent | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (method === 'notifications/cancelled') {
    const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
    const text = idText(requestId);
    return text === undefined ? undefined : { kind: 'end', id: text };
  }
  if (method !== 'subscriptions/listen') return undefined;
  const text = idText(id);
  const named = (params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)
    ?.notifications?.resourceSubscriptions;
  if (text === undefined || !Array.isArray(named)) return undefined;
  const hostUris = named
    .filter((uri): uri is string => typeof uri === 'string')
    .slice(0, MAX_LISTEN_URIS);
  return hostUris.length === 0 ? undefined : { kind: 'open', id: text, hostUris };
}

function idText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? JSON.stringify(value) : undefined;
}

/**
 * `inner`, with every message it receives shown to `watch` first (then handed on unchanged).
 *
 * @param inner - The connection's transport.
 * @param watch - Sees each message the host sent.
 * @returns The transport to serve on.
 */
export function watchedTransport(
  inner: Transport,
  watch: (message: JSONRPCMessage) => void,
): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    watch(message);
    outer.onmessage?.(message, extra);
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  return outer;
}
