// Logging through the gateway: a host's `logging/setLevel` is remembered for its connection and
// relayed to the servers (the manager sets it on every server that takes it, and on those that
// connect later), and the servers' log messages (cleaned, one line, rate-limited per server by
// the manager) reach each host connection that has a stream for them, as `notifications/message`
// whose `logger` names the server, at the level that host set or above.
//
// Which hosts hear them: a host of the 2025 revisions on its own connection (stdio, or its session
// over HTTP) hears every server's messages on it. A host without such a stream (2026-07-28, which
// has no `logging/setLevel` and names a level per request; a 2025 exchange with no session, which
// a front of the gateway's own never serves) hears, on a tool call's own request, the messages of
// that call's server while it runs: a 2026 host at the `logLevel` its request names (none named:
// none sent, as the revision says), a stateless 2025 host at the level a host last set.
import { MCP_LOG_LEVELS } from '@garuda/internal';
import type { McpManager, ServerLogEntry, ServerLogLevel } from '@garuda/mcp-manager';
import { LOG_LEVEL_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server';

/** MCP's log levels, least severe first. */
const SEVERITY: readonly ServerLogLevel[] = MCP_LOG_LEVELS;

/** The first revision that has no `logging/setLevel` and no stream outside a request. */
const FIRST_STATELESS_REVISION = '2026-07-28';

/** How a host connection hears logs: on its own stream, per request (2026), or not yet. */
function eraOf(server: Server): 'stream' | 'modern' | 'stateless' {
  // Revisions are dates, so they compare as strings. A 2025 host's connection has its version
  // once `initialize` ran; a stateless exchange over HTTP has none.
  const version = server.getNegotiatedProtocolVersion();
  if (version === undefined) return 'stateless';
  return version < FIRST_STATELESS_REVISION ? 'stream' : 'modern';
}

/** Whether `level` is at least `least` (no least: every level). */
function atLeast(level: ServerLogLevel, least: ServerLogLevel | undefined): boolean {
  return least === undefined || SEVERITY.indexOf(level) >= SEVERITY.indexOf(least);
}

/** A tool call's request that hears its server's logs. */
interface CallSink {
  readonly modern: boolean;
  readonly context: ServerContext;
}

/** The log levels the hosts set, and where the servers' messages go. */
export class HostLogs {
  /** The level each host connection set (none: every message the manager hands over). */
  readonly #levels = new WeakMap<Server, ServerLogLevel>();
  readonly #servers = new Set<Server>();
  /** The requests of calls in flight on hosts without a stream, by the server called. */
  readonly #calls = new Map<string, Set<CallSink>>();
  /** The level a host set last (for stateless hosts, whose own setting left with its exchange). */
  #last: ServerLogLevel | undefined;

  /**
   * Answers `logging/setLevel` on a host connection (replacing the SDK's own handler, which only
   * keeps the level): the level is kept for this connection and relayed to the servers; the
   * answer comes once they took it (each has 5 s; one that refuses or is slow keeps its own
   * level, and the host is still answered OK: a level is advice, not a reason to fail).
   */
  offer(server: Server, mcp: McpManager, started: Promise<void>): void {
    this.#servers.add(server);
    server.setRequestHandler('logging/setLevel', async (request, requestContext) => {
      const level = request.params.level as ServerLogLevel;
      this.#levels.set(server, level);
      this.#last = level;
      await started;
      await mcp.setLogLevel(level, { signal: requestContext.mcpReq.signal }).catch(() => {});
      return {};
    });
  }

  /** Forgets a host connection that closed. */
  closed(server: Server): void {
    this.#servers.delete(server);
  }

  /**
   * Runs one tool call of `serverName` with its logs told on the call's request, when the host
   * has no stream of its own (a host with one hears them there already).
   *
   * @param serverName - The server called.
   * @param server - The host connection.
   * @param context - The host's request.
   * @param run - Runs the call.
   * @returns `run`, hearing the logs while it runs.
   */
  around<A extends unknown[], R>(
    serverName: string,
    server: Server,
    context: ServerContext,
    run: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    const era = eraOf(server);
    if (era === 'stream') return run;
    return async (...args) => {
      const sink: CallSink = { modern: era === 'modern', context };
      const sinks = this.#calls.get(serverName) ?? new Set();
      this.#calls.set(serverName, sinks.add(sink));
      try {
        return await run(...args);
      } finally {
        sinks.delete(sink);
        if (sinks.size === 0) this.#calls.delete(serverName);
      }
    };
  }

  /**
   * Tells one server log message to every host connection with a stream that asked for its
   * level: `logger` is the server's name (and its own logger name after a `/`), `data` the
   * manager's cleaned line.
   */
  tell(entry: ServerLogEntry): void {
    const logger = entry.logger === undefined ? entry.server : `${entry.server}/${entry.logger}`;
    const message = {
      method: 'notifications/message' as const,
      params: { level: entry.level, logger, data: entry.text },
    };
    for (const server of this.#servers) {
      if (eraOf(server) !== 'stream' || !atLeast(entry.level, this.#levels.get(server))) continue;
      server.notification(message).catch(() => {});
    }
    for (const { modern, context } of this.#calls.get(entry.server) ?? []) {
      const named = modern ? levelOf(context) : this.#last;
      if (modern && named === undefined) continue;
      if (!atLeast(entry.level, named)) continue;
      context.mcpReq.notify(message).catch(() => {});
    }
  }
}

/** The log level a 2026-07-28 request names in its envelope (none: it asks for no logs). */
function levelOf(context: ServerContext): ServerLogLevel | undefined {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const level = envelope?.[LOG_LEVEL_META_KEY];
  return typeof level === 'string' && (SEVERITY as readonly string[]).includes(level)
    ? (level as ServerLogLevel)
    : undefined;
}
