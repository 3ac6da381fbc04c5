// On the 2026-07-28 revision a server tells list changes only on a `subscriptions/listen`
// stream. The stream is a convenience, never a condition of the server's start: a server that
// acknowledges late, or never (a framing the transport cannot read, a proxy that buffers the
// response, a server that does not implement it), is connected and used all the same, and its
// list changes are told once the stream comes up.
import { log } from '@garuda/internal';
import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { raceAbort } from '../common/abort.js';
import { messageOf, oneLine } from '../common/text.js';
import type { ManagerLogger } from '../types.js';

/**
 * How long a start waits for the stream's acknowledgement before it goes on without it: a
 * server that acknowledges at once has the stream up before its tools are offered, so a change
 * right after the start is not missed. @internal
 */
export const LISTEN_GRACE_MS = 2_000;

/** The lists a server may say changed. @internal */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** Where {@link listenForChanges} works. @internal */
export interface ChangeStreamOptions {
  /** The server's name, for the log. */
  readonly server: string;
  /** The start's signal: the wait for the acknowledgement ends (and throws) when it aborts. */
  readonly start: AbortSignal;
  /** The connection's lifetime: the stream lives until it aborts. */
  readonly lifetime: AbortSignal;
  /** How long the acknowledgement may take in all (the start's time limit). */
  readonly timeoutMs: number;
  /** Told the lists the stream covers when it comes up after the start went on without it. */
  readonly late: (kinds: readonly ListKind[]) => void;
  readonly logger: ManagerLogger | undefined;
}

/**
 * Opens the change stream for the lists the server says may change, and waits for its
 * acknowledgement at most {@link LISTEN_GRACE_MS}. Whatever the stream does — refused, never
 * acknowledged, ended later — is logged at `debug` and changes nothing else: the connection
 * works without it. The stream closes when `lifetime` aborts (and with the client). @internal
 *
 * @param client - The connected client.
 * @param options - The server's name, the signals, the time limit and where late news goes.
 * @throws The start signal's reason when it aborts while the acknowledgement is awaited.
 */
export async function listenForChanges(
  client: Client,
  options: ChangeStreamOptions,
): Promise<void> {
  if (client.getProtocolEra() !== 'modern') return;
  const offered = client.getServerCapabilities();
  const filter: SubscriptionFilter = {
    ...(offered?.tools?.listChanged === true ? { toolsListChanged: true } : {}),
    ...(offered?.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(offered?.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0 || options.lifetime.aborted) return;
  const { server, logger, lifetime } = options;
  const debug = (what: string) => log(logger, 'debug', `MCP server "${server}": ${what}`);
  let waiting = true;
  let settled = false;
  const opened = client.listen(filter, { signal: lifetime, timeout: options.timeoutMs }).then(
    (stream) => {
      settled = true;
      watch(stream, lifetime, debug);
      if (!waiting && !lifetime.aborted) {
        debug('its change stream came up after it connected');
        options.late(kindsOf(stream.honoredFilter));
      }
    },
    (error: unknown) => {
      settled = true;
      if (lifetime.aborted) return;
      debug(`no list changes (listen failed: ${oneLine(messageOf(error))})`);
    },
  );
  const graceMs = Math.min(LISTEN_GRACE_MS, options.timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  try {
    await raceAbort(Promise.race([opened, grace]), options.start);
  } finally {
    clearTimeout(timer);
    waiting = false;
    if (!settled && !options.start.aborted) {
      debug(
        `its change stream was not acknowledged within ${graceMs / 1000} s; it is used meanwhile, and its list changes are told once the stream comes up`,
      );
    }
  }
}

/** Logs the end of an open stream that the connection did not close itself. */
function watch(stream: McpSubscription, lifetime: AbortSignal, debug: (what: string) => void) {
  void stream.closed.then((cause) => {
    if (cause === 'local' || lifetime.aborted) return;
    debug('its change stream ended; list changes are no longer told until it is reloaded');
  });
}

/** The lists a stream's honored filter covers. */
function kindsOf(honored: SubscriptionFilter): ListKind[] {
  return [
    ...(honored.toolsListChanged === true ? (['tools'] as const) : []),
    ...(honored.promptsListChanged === true ? (['prompts'] as const) : []),
    ...(honored.resourcesListChanged === true ? (['resources'] as const) : []),
  ];
}
