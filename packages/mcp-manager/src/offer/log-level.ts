// The least level of the log messages servers send (`logging/setLevel`), set for every server
// that offers logging, and remembered so a server that connects later is told it too. A server
// that does not answer in time, or refuses, keeps its own level: that is logged, never thrown at
// the host, since a log level is advice and never a reason to fail the host's request.
import { log, MCP_LOG_LEVELS } from '@garuda/internal';
import type { Client } from '@modelcontextprotocol/client';
import { messageOf, oneLine } from '../common/text.js';
import { InvalidOptionsError } from '../errors.js';
import type { ServerConnection } from '../start/server-connection.js';
import type { ManagerLogger, ServerLogLevel } from '../types.js';

/** How long one server may take to take the level, in ms. */
export const LOG_LEVEL_TIMEOUT_MS = 5_000;

const LEVELS: readonly ServerLogLevel[] = MCP_LOG_LEVELS;

/**
 * Whether a server takes `logging/setLevel`: it declares `logging`, and speaks a revision that
 * has the request (2026-07-28 removed it for a per-request level).
 */
function takesLevel(client: Client): boolean {
  return (
    client.getServerCapabilities()?.logging !== undefined && client.getProtocolEra() !== 'modern'
  );
}

/** The level the host set, and the servers it was sent to. @internal */
export class LogLevels {
  readonly #logger: ManagerLogger | undefined;
  #level: ServerLogLevel | undefined;

  constructor(logger: ManagerLogger | undefined) {
    this.#logger = logger;
  }

  /** The level the host set last (none until it sets one). */
  get level(): ServerLogLevel | undefined {
    return this.#level;
  }

  /**
   * Remembers `level` and sends it to each of `connections` that takes it.
   *
   * @returns The names of the servers that took it.
   * @throws {@link InvalidOptionsError} for a level MCP does not have.
   */
  async set(
    level: ServerLogLevel,
    connections: Iterable<ServerConnection>,
    signal: AbortSignal | undefined,
  ): Promise<string[]> {
    if (!LEVELS.includes(level)) {
      throw new InvalidOptionsError('level', `must be one of ${LEVELS.join(', ')}`);
    }
    this.#level = level;
    const sent = await Promise.all(
      [...connections].map(async (connection) =>
        (await this.#send(connection, level, signal)) ? [connection.server] : [],
      ),
    );
    return sent.flat().sort();
  }

  /** Tells a server that just connected the level the host set, if any. */
  connected(connection: ServerConnection): void {
    const level = this.#level;
    if (level !== undefined) void this.#send(connection, level, connection.signal);
  }

  async #send(
    connection: ServerConnection,
    level: ServerLogLevel,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    try {
      return await connection.request(
        `the log level of MCP server "${connection.server}"`,
        async (client, limits) => {
          if (!takesLevel(client)) return false;
          await client.setLoggingLevel(level, limits);
          return true;
        },
        { signal, timeoutMs: LOG_LEVEL_TIMEOUT_MS },
      );
    } catch (error) {
      log(this.#logger, 'debug', `log level not set: ${oneLine(messageOf(error))}`);
      return false;
    }
  }
}
