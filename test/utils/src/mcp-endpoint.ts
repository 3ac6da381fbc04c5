// The MCP endpoint both in-process HTTP fixtures serve (not exported from the package).
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTP_MODES, createFixtureServer, type HttpFixtureMode } from '../fixtures/tools.mjs';
import { sendWebResponse, toWebRequest } from './node-bridge.js';

/** Serves the fixture tools on whatever path the caller routes to it. */
export interface McpEndpoint {
  /** Answers one HTTP request (POST, GET or DELETE) as the MCP endpoint. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The same, for a request already read into a fetch `Request` (see `toWebRequest`). */
  handleRequest(request: Request, res: ServerResponse): Promise<void>;
  /** Diagnostics of the tools, e.g. `slow: cancelled after 80 ms`. */
  readonly logs: string[];
  /** Stops the handlers and the per-request servers still in flight. */
  close(): Promise<void>;
}

/** Throws `TypeError` for a mode the HTTP fixtures do not serve. */
export function assertHttpMode(mode: string): asserts mode is HttpFixtureMode {
  if (!HTTP_MODES.includes(mode as HttpFixtureMode)) {
    throw new TypeError(
      `unknown HTTP fixture mode ${JSON.stringify(mode)}; expected one of: ${HTTP_MODES.join(', ')}`,
    );
  }
}

/**
 * Both protocol eras on one endpoint: a request carrying the 2026 per-request envelope goes to
 * the SDK's `createMcpHandler` (modern, stateless), any other request to a fresh stateless
 * `WebStandardStreamableHTTPServerTransport` (2025 era; GET and DELETE answer `405`).
 * Mode `hang` reads requests and never answers them.
 */
export function createMcpEndpoint(mode: HttpFixtureMode, jsonResponse: boolean): McpEndpoint {
  assertHttpMode(mode);
  const logs: string[] = [];
  const factory = () => createFixtureServer(mode, { log: (message) => logs.push(message) });
  const modern = withoutJsonModeWarning(() =>
    createMcpHandler(factory, {
      legacy: 'reject',
      responseMode: jsonResponse ? 'json' : 'sse',
      keepAliveMs: 0,
    }),
  );
  /** Per-request cleanups of the legacy leg still in flight, run on close. */
  const inFlight = new Set<() => Promise<void>>();

  async function serveLegacy(request: Request): Promise<[Response, () => Promise<void>]> {
    if (request.method !== 'POST') {
      const response = new Response('Method not allowed.', {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'text/plain' },
      });
      return [response, async () => {}];
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: jsonResponse,
    });
    const server = factory();
    const cleanup = async () => {
      inFlight.delete(cleanup);
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    };
    inFlight.add(cleanup);
    try {
      await server.connect(transport);
      return [await transport.handleRequest(request), cleanup];
    } catch (error) {
      await cleanup();
      throw error;
    }
  }

  async function handleRequest(request: Request, res: ServerResponse): Promise<void> {
    if (mode === 'hang') return; // read, never answered; close() ends the socket
    let response: Response;
    let cleanup = async () => {};
    if (await isLegacyRequest(request)) [response, cleanup] = await serveLegacy(request);
    else response = await modern.fetch(request);
    try {
      await sendWebResponse(response, res);
    } finally {
      await cleanup();
    }
  }

  return {
    logs,
    async handle(req, res) {
      if (mode === 'hang') {
        req.resume(); // read the request, never answer; close() ends the socket
        return;
      }
      const request = await toWebRequest(req, res);
      if (request) await handleRequest(request, res);
    },
    handleRequest,
    async close() {
      await modern.close().catch(() => {});
      await Promise.all([...inFlight].map((cleanup) => cleanup()));
    },
  };
}

/**
 * `createMcpHandler` warns on the console, every time, that `responseMode: 'json'` drops
 * mid-call notifications. That is the documented point of `jsonResponse: true`, and the warning
 * would land in every consumer's test output, so only that message is held back (the call is
 * synchronous, nothing else can log meanwhile).
 */
function withoutJsonModeWarning<T>(create: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith("responseMode: 'json'")) return;
    warn(...args);
  };
  try {
    return create();
  } finally {
    console.warn = warn;
  }
}

/** Answers a Node request from an error thrown while serving it, without ever throwing. */
export function answerFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  res.writeHead(500, { 'content-type': 'text/plain' }).end(`fixture error: ${message}`);
}
