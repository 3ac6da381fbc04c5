import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { HttpFixtureMode } from '../fixtures/tools.mjs';
import { answerFailure, assertHttpMode, createMcpEndpoint } from './mcp-endpoint.js';

/** Options of {@link startHttpFixture}. */
export interface HttpFixtureOptions {
  /** Which tool set to serve (the same tools as the stdio mode of that name). Default `'normal'`. */
  mode?: HttpFixtureMode;
  /** Answer POSTs with one JSON body (`true`) or with an SSE stream (`false`, the default). */
  jsonResponse?: boolean;
  /** Interface to listen on. Default `'127.0.0.1'`. */
  host?: string;
  /** Port; `0` (the default) picks a free one. */
  port?: number;
  /**
   * When set, every request needs `Authorization: Bearer <token>` with a token this accepts;
   * otherwise the answer is `401` with `WWW-Authenticate: Bearer …` and nothing is served.
   */
  requireBearer?: (token: string) => boolean;
  /**
   * Serve https with this key and certificate (e.g. from `makeCertificate`); `url` then names
   * `hostname` (default `localhost`), which the client resolves to the fixture itself (a pinned
   * fetch's `lookup`).
   */
  tls?: { readonly key: string; readonly cert: string; readonly hostname?: string };
}

/** A running Streamable HTTP fixture. */
export interface HttpFixture {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp` (with `tls`: `https://<hostname>:<port>/mcp`). */
  readonly url: URL;
  /** HTTP requests received so far (every method, rejected ones included). */
  readonly requests: number;
  /** Diagnostics of the tools, e.g. `slow: cancelled after 80 ms` (kept off the console). */
  readonly logs: readonly string[];
  /** Ends every connection and stops listening. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts an in-process Streamable HTTP MCP server on loopback that serves the fixture tools.
 *
 * Both protocol eras are served on one endpoint: a request carrying the 2026 per-request
 * envelope goes to the SDK's `createMcpHandler` (modern, stateless), any other request to a
 * fresh stateless `WebStandardStreamableHTTPServerTransport` (2025 era). So a client with
 * `versionNegotiation: { mode: 'auto' }` and a default legacy client both work. GET and DELETE
 * on the legacy leg answer `405`, as a stateless server does.
 *
 * Mode `hang` accepts requests and never answers them.
 *
 * @param options - see {@link HttpFixtureOptions}
 * @returns the endpoint URL, a request counter and `close()`
 * @throws TypeError for an unknown mode
 * @example
 * const fixture = await startHttpFixture({ mode: 'huge', jsonResponse: true });
 * try {
 *   const transport = new StreamableHTTPClientTransport(fixture.url);
 *   ...
 * } finally {
 *   await fixture.close();
 * }
 */
export async function startHttpFixture(options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const {
    mode = 'normal',
    jsonResponse = false,
    host = '127.0.0.1',
    port = 0,
    requireBearer,
    tls,
  } = options;
  assertHttpMode(mode);
  const endpoint = createMcpEndpoint(mode, jsonResponse);
  let requests = 0;

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    if (url.pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (requireBearer) {
      const match = /^Bearer +([^\s]+) *$/i.exec(req.headers.authorization ?? '');
      if (!match?.[1] || !requireBearer(match[1])) {
        res
          .writeHead(401, {
            'www-authenticate': match
              ? 'Bearer realm="garuda-fixture", error="invalid_token"'
              : 'Bearer realm="garuda-fixture"',
            'content-type': 'application/json',
          })
          .end(JSON.stringify({ error: match ? 'invalid_token' : 'unauthorized' }));
        return;
      }
    }
    endpoint.handle(req, res).catch((error: unknown) => answerFailure(res, error));
  };
  const server =
    tls === undefined
      ? createServer(handler)
      : createHttpsServer({ key: tls.key, cert: tls.cert }, handler);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await endpoint.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const mcpUrl =
    tls === undefined
      ? new URL(`http://${hostPart}:${address.port}/mcp`)
      : new URL(`https://${tls.hostname ?? 'localhost'}:${address.port}/mcp`);

  let closed: Promise<void> | undefined;
  return {
    get url() {
      return new URL(mcpUrl);
    },
    get requests() {
      return requests;
    },
    logs: endpoint.logs,
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await endpoint.close();
        await stopped;
      })();
      return closed;
    },
  };
}
