import {
  StreamableHTTPClientTransport,
  type AuthProvider,
  type FetchLike,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { createCappedFetch } from './capped-fetch.js';
import { listenStreamAsEvents } from './http-transport-listen-stream.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './process-transport.js';

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /**
   * The fetch for MCP and OAuth requests alike: pass a pinned fetch for servers that must reach
   * only public addresses. Default: the global `fetch`.
   */
  readonly fetch?: FetchLike;
  /** Sign-in (an OAuth client provider) or a static token provider. */
  readonly authProvider?: AuthProvider | OAuthClientProvider;
  /** The cap of a JSON response and of each SSE event, in bytes. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Extra request options, e.g. static headers from the server's config. */
  readonly requestInit?: RequestInit;
}

/**
 * Builds the SDK's Streamable HTTP client transport (never the legacy SSE one) with a fetch that
 * caps every response body and each SSE event at `maxMessageBytes`. A `subscriptions/listen`
 * stream that a server sends as newline-delimited JSON (`application/json`, kept open) is read
 * message by message, like an SSE stream, each message under the same cap. A transport cannot be
 * restarted: build a new one for every connection attempt, e.g. after a sign-in.
 *
 * @param url - the server's MCP endpoint
 * @param options - fetch, auth provider, cap and request options
 * @returns a transport to pass to `Client.connect`
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/client';
 * import { createHttpTransport } from '@garuda/mcp-transport';
 *
 * const client = new Client({ name: 'me', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
 * await client.connect(createHttpTransport('https://mcp.example.com/mcp'));
 * ```
 */
export function createHttpTransport(
  url: URL | string,
  options: HttpTransportOptions = {},
): StreamableHTTPClientTransport {
  const endpoint = new URL(url);
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const cap = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  return new StreamableHTTPClientTransport(endpoint, {
    // A listen stream sent as newline-delimited JSON is re-framed as SSE first, so that the
    // per-event cap below applies to each of its messages.
    fetch: createCappedFetch(listenStreamAsEvents(base, cap), cap),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    ...(options.requestInit ? { requestInit: options.requestInit } : {}),
  });
}
