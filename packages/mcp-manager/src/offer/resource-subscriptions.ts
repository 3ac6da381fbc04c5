// Resource subscriptions of one connection: what the host subscribed to, and the server's
// `notifications/resources/updated` for them, coalesced. An update for a URI nobody subscribed
// to is dropped (a server cannot make the host hear about what it did not ask for), and a
// server that floods updates reaches the host at most once per URI per interval.
import { log } from '@garuda/internal';
import type { McpSubscription } from '@modelcontextprotocol/client';
import { raceAbort } from '../common/abort.js';
import { InvalidOptionsError } from '../errors.js';
import type { ServerConnection } from '../start/server-connection.js';
import type { ManagerLogger } from '../types.js';

/** The most resources one server's subscriptions may name. */
export const MAX_SUBSCRIPTIONS_PER_SERVER = 100;
/** Updates of one server reach the host at most once per this many ms (per URI). */
export const RESOURCE_UPDATE_INTERVAL_MS = 100;

/** One connection's subscriptions. @internal */
export class ResourceSubscriptions {
  readonly #connection: ServerConnection;
  readonly #tell: (uri: string) => void;
  readonly #logger: ManagerLogger | undefined;
  readonly #uris = new Set<string>();
  readonly #pending = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #dropped = 0;
  /** On the 2026-07-28 revision: the `subscriptions/listen` stream that names the URIs. */
  #stream: McpSubscription | undefined;
  /** Changes run one after the other (each may replace the stream). */
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * @param connection - The server's connection (its end ends everything here).
   * @param tell - Tells the host that a subscribed URI changed (the raw URI; the caller shows it).
   */
  constructor(
    connection: ServerConnection,
    tell: (uri: string) => void,
    logger: ManagerLogger | undefined,
  ) {
    this.#connection = connection;
    this.#tell = tell;
    this.#logger = logger;
  }

  /** A `notifications/resources/updated` from the server. */
  updated(uri: string): void {
    if (!this.#uris.has(uri)) {
      this.#dropped += 1;
      // Logged once per hundred, so a flood cannot fill the log either.
      if (this.#dropped % 100 === 1) {
        log(
          this.#logger,
          'debug',
          `MCP server "${this.#connection.server}": ${this.#dropped} resource update(s) for URIs nobody subscribed to, dropped`,
        );
      }
      return;
    }
    this.#pending.add(uri);
    const signal = this.#connection.signal;
    if (this.#timer !== undefined || signal.aborted) return;
    // The end of the connection clears the timer; the listener lives only while it waits, so
    // an idle server costs no listener on its connection's signal.
    const onAbort = () => clearTimeout(timer);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      this.#timer = undefined;
      const uris = [...this.#pending];
      this.#pending.clear();
      for (const one of uris) if (this.#uris.has(one)) this.#tell(one);
    }, RESOURCE_UPDATE_INTERVAL_MS);
    timer.unref();
    this.#timer = timer;
    signal.addEventListener('abort', onAbort, { once: true });
  }

  /**
   * Subscribes to `uri` (nothing is sent when it already is).
   *
   * @throws {@link InvalidOptionsError} past {@link MAX_SUBSCRIPTIONS_PER_SERVER},
   *   `CallFailedError` when the server offers no subscriptions or refuses this one, and
   *   the request errors of `ServerConnection.request`.
   */
  add(uri: string, label: string, options: RequestLimits): Promise<void> {
    return this.#serial(async () => {
      if (this.#uris.has(uri)) return;
      if (this.#uris.size >= MAX_SUBSCRIPTIONS_PER_SERVER) {
        throw new InvalidOptionsError(
          'uri',
          `MCP server "${this.#connection.server}" already has ${MAX_SUBSCRIPTIONS_PER_SERVER} subscriptions; unsubscribe from one first`,
        );
      }
      await this.#send(uri, 'subscribe', label, options);
      this.#uris.add(uri);
    });
  }

  /** Unsubscribes from `uri` (nothing is sent when it is not subscribed). */
  remove(uri: string, label: string, options: RequestLimits): Promise<void> {
    return this.#serial(async () => {
      if (!this.#uris.has(uri)) return;
      // Updates stop reaching the host now, whatever the server answers.
      this.#uris.delete(uri);
      this.#pending.delete(uri);
      await this.#send(uri, 'unsubscribe', label, options);
    });
  }

  #serial(work: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #send(
    uri: string,
    what: 'subscribe' | 'unsubscribe',
    label: string,
    options: RequestLimits,
  ): Promise<void> {
    const next = new Set(this.#uris);
    if (what === 'subscribe') next.add(uri);
    await this.#connection.request(
      label,
      async (client, limits) => {
        if (what === 'subscribe' && client.getServerCapabilities()?.resources?.subscribe !== true) {
          throw new Error('the server offers no resource subscriptions');
        }
        if (client.getProtocolEra() !== 'modern') {
          await (what === 'subscribe'
            ? client.subscribeResource({ uri }, limits)
            : client.unsubscribeResource({ uri }, limits));
          return;
        }
        // 2026-07-28: one listen stream names every subscribed URI; a change replaces it.
        const old = this.#stream;
        this.#stream = undefined;
        // Closing tells the server (a request of its own over HTTP): never waited past this one.
        if (old !== undefined) await raceAbort(old.close(), limits.signal);
        if (next.size === 0) return;
        // The stream outlives this request: the request's own signal is never aborted once it
        // has ended, so only the connection's end (or the next change) closes it.
        const stream = await client.listen({ resourceSubscriptions: [...next] }, limits);
        this.#stream = stream;
        void stream.closed.then((cause) => {
          if (cause === 'local' || this.#connection.signal.aborted) return;
          log(
            this.#logger,
            'debug',
            `MCP server "${this.#connection.server}": its resource subscription stream ended; updates are no longer told until the subscriptions change`,
          );
        });
        const honored = stream.honoredFilter.resourceSubscriptions ?? [];
        if (what === 'subscribe' && !honored.includes(uri)) {
          throw new Error('the server did not agree to the subscription');
        }
      },
      options,
    );
  }
}

/** A request's signal and time limit. @internal */
export interface RequestLimits {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs: number;
}
