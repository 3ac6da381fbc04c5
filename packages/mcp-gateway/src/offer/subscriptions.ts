// Resource subscriptions of the hosts, passed through to the servers behind the gateway. Each
// host connection (a 2025 host's `resources/subscribe`) or listening connection (a 2026-07-28
// host's `subscriptions/listen`) holds the URIs it asked for; a server's URI is subscribed once
// while any host holds it and unsubscribed when the last one lets go, and an update reaches only
// the holders of that URI.
import { asProtocolError } from './prompts.js';
import type { Offered } from './offered.js';
import { noSuchResource, resourceOfHostUri } from './resources.js';

/** Who holds subscriptions: tells its host that one of its URIs changed. */
export interface Holder {
  /** Tells the host that the resource at `hostUri` (a `garuda://` URI) changed. */
  readonly updated: (hostUri: string) => void;
}

/** The resource behind a host's URI: its server and the server's own URI. */
export interface Target {
  readonly server: string;
  readonly uri: string;
}

/** How the subscriptions reach the manager. */
export interface SubscribeThrough {
  readonly subscribe: (target: Target, signal: AbortSignal) => Promise<void>;
  readonly unsubscribe: (target: Target, signal: AbortSignal) => Promise<void>;
  /** Hears what could not be ended (one line). */
  readonly log: (message: string) => void;
}

/** One host URI subscribed: its target and who holds it. */
interface Held {
  readonly target: Target;
  readonly holders: Set<Holder>;
  /** Settles once the server's subscription was made (or failed). */
  subscribed: Promise<void>;
}

/** The hosts' subscriptions, counted across host connections. */
export class HostSubscriptions {
  readonly #through: SubscribeThrough;
  readonly #held = new Map<string, Held>();
  /** Unsubscriptions under way: a new subscription of that URI waits for its end. */
  readonly #leaving = new Map<string, Promise<void>>();
  /** Ends the server unsubscriptions of holders that went away. */
  readonly #signal: AbortSignal;

  constructor(through: SubscribeThrough, signal: AbortSignal) {
    this.#through = through;
    this.#signal = signal;
  }

  /**
   * `holder` holds `hostUri`: the server behind it is subscribed when no host held it yet.
   *
   * @throws What the manager throws (no such server, too many subscriptions, …); the holder
   *   then holds nothing more.
   */
  async hold(holder: Holder, hostUri: string, target: Target, signal: AbortSignal): Promise<void> {
    const held = this.#held.get(hostUri);
    if (held !== undefined) {
      held.holders.add(holder);
      try {
        await held.subscribed;
      } catch (error) {
        held.holders.delete(holder);
        throw error;
      }
      return;
    }
    const fresh: Held = { target, holders: new Set([holder]), subscribed: Promise.resolve() };
    this.#held.set(hostUri, fresh);
    const leaving = this.#leaving.get(hostUri) ?? Promise.resolve();
    fresh.subscribed = leaving.then(() => this.#through.subscribe(target, signal));
    try {
      await fresh.subscribed;
    } catch (error) {
      if (this.#held.get(hostUri) === fresh) this.#held.delete(hostUri);
      throw error;
    }
  }

  /** `holder` lets go of `hostUri`: the server is unsubscribed when no host holds it any more. */
  async drop(holder: Holder, hostUri: string): Promise<void> {
    const held = this.#held.get(hostUri);
    if (held === undefined || !held.holders.delete(holder) || held.holders.size > 0) return;
    this.#held.delete(hostUri);
    // After its own subscription (never overtaking it), and not when a host held it again since.
    const leaving = held.subscribed
      .catch(() => {})
      .then(async () => {
        if (this.#held.has(hostUri)) return;
        await this.#through.unsubscribe(held.target, this.#signal).catch((error: unknown) => {
          this.#through.log(
            `a resource subscription of MCP server ${JSON.stringify(held.target.server)} could not be ended: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      })
      .finally(() => {
        if (this.#leaving.get(hostUri) === leaving) this.#leaving.delete(hostUri);
      });
    this.#leaving.set(hostUri, leaving);
    await leaving;
  }

  /** `holder` went away: every URI it held is let go of. */
  release(holder: Holder): void {
    for (const [hostUri, held] of this.#held) {
      if (held.holders.has(holder)) void this.drop(holder, hostUri);
    }
  }

  /** A server's resource changed: its holders hear it, under the URI each subscribed. */
  updated(server: string, uri: string): void {
    for (const [hostUri, held] of this.#held) {
      if (held.target.server !== server || held.target.uri !== uri) continue;
      for (const holder of held.holders) holder.updated(hostUri);
    }
  }
}

/**
 * The subscriptions of one connection whose host names them in `subscriptions/listen` requests
 * (2026-07-28): each open listen names URIs, the connection holds their union, and a listen that
 * ends (cancelled, or its stream closed) lets go of what no other listen of it names.
 */
export class Listens implements Holder {
  readonly #subscriptions: HostSubscriptions;
  readonly #target: (hostUri: string) => Target | undefined;
  readonly #log: (message: string) => void;
  readonly #open = new Map<string, readonly string[]>();
  readonly updated: (hostUri: string) => void;

  /**
   * @param tell - Sends the update to the connection (the SDK routes it to the listens that
   *   name the URI).
   * @param target - The resource behind a host URI, as `resources/read` finds it.
   */
  constructor(
    subscriptions: HostSubscriptions,
    tell: (hostUri: string) => void,
    target: (hostUri: string) => Target | undefined,
    log: (message: string) => void,
  ) {
    this.#subscriptions = subscriptions;
    this.updated = tell;
    this.#target = target;
    this.#log = log;
  }

  /** A listen (by its JSON-RPC id, as JSON text) opened, naming `hostUris`. */
  open(id: string, hostUris: readonly string[], signal: AbortSignal): void {
    // The same id again replaces that listen.
    this.end(id);
    const before = this.#union();
    this.#open.set(id, hostUris);
    for (const hostUri of this.#union()) {
      if (before.has(hostUri)) continue;
      const target = this.#target(hostUri);
      if (target === undefined) {
        this.#log(
          `a host listened to ${JSON.stringify(hostUri)}, which is no resource behind this gateway: it hears no updates of it.`,
        );
        continue;
      }
      this.#subscriptions.hold(this, hostUri, target, signal).catch((error: unknown) => {
        this.#log(
          `a host listened to ${JSON.stringify(hostUri)}, but MCP server ${JSON.stringify(target.server)} was not subscribed: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
  }

  /** A listen ended: what no other open listen names is let go of. */
  end(id: string): void {
    const ended = this.#open.get(id);
    if (ended === undefined) return;
    this.#open.delete(id);
    const still = this.#union();
    for (const hostUri of new Set(ended)) {
      if (!still.has(hostUri)) void this.#subscriptions.drop(this, hostUri);
    }
  }

  /** The connection closed: every listen ended. */
  close(): void {
    this.#open.clear();
    this.#subscriptions.release(this);
  }

  #union(): Set<string> {
    return new Set([...this.#open.values()].flat());
  }
}

/**
 * Answers a 2025 host's `resources/subscribe` and `resources/unsubscribe` on `server`: the
 * connection holds what it subscribed, hears the updates of those URIs only, and lets go of
 * them all when it closes.
 *
 * @returns Lets go of every URI the connection held (call it when the connection closes).
 */
export function offerSubscriptions(
  { server, mcp, started, signal }: Offered,
  subscriptions: HostSubscriptions,
): () => void {
  const holder: Holder = {
    updated: (hostUri) => void server.sendResourceUpdated({ uri: hostUri }).catch(() => {}),
  };
  server.setRequestHandler('resources/subscribe', async (request, requestContext) => {
    await started;
    const { uri } = request.params;
    const target = resourceOfHostUri(uri, mcp.resources(), mcp.resourceTemplates());
    if (target === undefined) throw noSuchResource();
    try {
      await subscriptions.hold(
        holder,
        uri,
        target,
        AbortSignal.any([signal, requestContext.mcpReq.signal]),
      );
    } catch (error) {
      throw asProtocolError(error);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await subscriptions.drop(holder, request.params.uri);
    return {};
  });
  return () => subscriptions.release(holder);
}
