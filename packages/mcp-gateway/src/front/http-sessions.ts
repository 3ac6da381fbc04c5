// The 2025-era hosts of the HTTP gateway, served with sessions: one MCP server (one gateway
// `server()`) per session, so what a server asks during a call, list changes and logs reach that
// host (its call's stream and its GET stream), and its answers come back to the same server. A
// session is bound to the token that opened it, ends when its host DELETEs it, when it was idle
// too long (no request and no open stream) or when the gateway closes; its server is closed with
// it, which cancels its calls and its questions. The sessions open at once are bounded: when they
// are all taken, a new one takes the place of the one idle the longest (hosts that reconnect
// without DELETE leave idle sessions behind; an SDK host that is still there keeps its GET stream
// open, so it is never idle); only when none is idle is the new one refused.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  type Server,
} from '@modelcontextprotocol/server';

/** What {@link createSessions} needs. */
export interface SessionsOptions {
  /** Makes the MCP server of one session. */
  readonly build: () => Server;
  /**
   * Sessions open at once; past it an `initialize` ends the session idle the longest, or is
   * answered 503 when none is idle.
   */
  readonly maxSessions: number;
  /** A session with no request and no open stream for this long is ended, in milliseconds. */
  readonly idleMs: number;
  /** Hears what went wrong outside a request. */
  readonly onError: (error: Error) => void;
}

/** The 2025-era sessions of one HTTP gateway. */
export interface Sessions {
  /**
   * Serves one request of a 2025-era host: an `initialize` without a session id opens a session,
   * anything else must name an open session its own token opened (404 otherwise, as if it did
   * not exist).
   *
   * @param request - The request (its body readable).
   * @param initialize - Whether its body is an `initialize` request.
   * @param tokenDigest - The SHA-256 of the bearer token it carried (already checked).
   * @param ended - Aborts when the HTTP exchange ended (its response, stream included, is over).
   */
  serve(
    request: Request,
    initialize: boolean,
    tokenDigest: Buffer,
    ended: AbortSignal,
  ): Promise<Response>;
  /** How many sessions are open (or being opened). */
  readonly size: number;
  /** Ends every session and refuses new ones. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly tokenDigest: Buffer;
  /** HTTP exchanges of this session not yet ended (a GET stream stays one while open). */
  open: number;
  idle: ReturnType<typeof setTimeout> | undefined;
}

/** A JSON-RPC error answer, the shape the SDK's transport gives its own. */
function jsonError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Makes the session table of one HTTP gateway.
 *
 * @param options - The server factory, the limits and the error sink.
 * @returns The sessions; close them with the gateway.
 */
export function createSessions(options: SessionsOptions): Sessions {
  const open = new Map<string, Session>();
  // Sessions whose `initialize` is being answered: they count against the limit already.
  let opening = 0;
  let closed = false;
  const minutes = Math.max(1, Math.round(options.idleMs / 60_000));

  const end = async (session: Session): Promise<void> => {
    if (session.idle !== undefined) clearTimeout(session.idle);
    session.idle = undefined;
    // Closing the server closes its transport (streams ended, later requests 404) and aborts
    // what it was doing: its calls, and the questions it was waiting on.
    await session.server.close().catch((error: unknown) => {
      options.onError(error instanceof Error ? error : new Error(String(error)));
    });
  };

  /** Counts one exchange of `session` until `ended`; idle from the moment none is left. */
  const track = (session: Session, ended: AbortSignal) => {
    // The table is kept in order of use: the first idle one is the one idle the longest.
    const id = session.transport.sessionId;
    if (id !== undefined && open.get(id) === session) {
      open.delete(id);
      open.set(id, session);
    }
    if (session.idle !== undefined) clearTimeout(session.idle);
    session.idle = undefined;
    session.open += 1;
    const done = () => {
      session.open -= 1;
      if (session.open > 0 || session.transport.sessionId === undefined) return;
      if (!open.has(session.transport.sessionId)) return;
      session.idle = setTimeout(() => void end(session), options.idleMs);
      session.idle.unref();
    };
    if (ended.aborted) done();
    else ended.addEventListener('abort', done, { once: true });
  };

  const start = async (
    request: Request,
    tokenDigest: Buffer,
    ended: AbortSignal,
  ): Promise<Response> => {
    if (closed) return jsonError(503, -32000, 'The gateway is closing.');
    if (open.size + opening >= options.maxSessions) {
      const [id, idle] = [...open].find(([, session]) => session.open === 0) ?? [];
      if (id !== undefined && idle !== undefined) {
        open.delete(id);
        void end(idle);
      }
    }
    if (open.size + opening >= options.maxSessions) {
      return jsonError(
        503,
        -32000,
        `Too many MCP sessions are open on this gateway (${options.maxSessions}), all in use. ` +
          `End one (close a host that is done, or send DELETE with its Mcp-Session-Id), or ` +
          `wait: a session with no request and no open stream for ${minutes} min is ended.`,
      );
    }
    opening += 1;
    let session: Session | undefined;
    try {
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void open.set(id, session!),
      });
      const server = options.build();
      session = { transport, server, tokenDigest, open: 0, idle: undefined };
      const made = session;
      // The gateway's own `onclose` (it forgets the server) runs first; then the session goes.
      const before = server.onclose;
      server.onclose = () => {
        before?.();
        if (made.idle !== undefined) clearTimeout(made.idle);
        made.idle = undefined;
        const id = made.transport.sessionId;
        if (id !== undefined && open.get(id) === made) open.delete(id);
      };
      await server.connect(transport);
      track(session, ended);
      const response = await transport.handleRequest(request);
      // Refused before a session began (a malformed initialize), or the gateway closed while
      // it was opened: nothing is kept.
      if (transport.sessionId === undefined || closed) await end(session);
      return response;
    } catch (error) {
      if (session !== undefined) await end(session);
      throw error;
    } finally {
      opening -= 1;
    }
  };

  return {
    serve: async (request, initialize, tokenDigest, ended) => {
      const id = request.headers.get('mcp-session-id');
      if (id === null) {
        if (initialize && request.method === 'POST') return start(request, tokenDigest, ended);
        return jsonError(
          400,
          -32000,
          'Bad Request: this request needs an Mcp-Session-Id header; open a session with ' +
            'initialize first (or speak the 2026-07-28 protocol, which needs none).',
        );
      }
      const session = open.get(id);
      // Another token's session is answered as one that does not exist: it tells nothing.
      if (session === undefined || !timingSafeEqual(session.tokenDigest, tokenDigest)) {
        return jsonError(
          404,
          -32001,
          'Session not found: it ended (DELETE, idle, or the gateway restarted) or never ' +
            'existed. Open a new one with initialize.',
        );
      }
      track(session, ended);
      return session.transport.handleRequest(request);
    },
    get size() {
      return open.size + opening;
    },
    close: async () => {
      closed = true;
      await Promise.all([...open.values()].map((session) => end(session)));
      open.clear();
    },
  };
}
