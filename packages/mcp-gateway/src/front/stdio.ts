// The gateway over stdio: the host starts the process and speaks MCP on its stdin and stdout.
// stdout carries only MCP messages; the gateway never writes anything else there.
import type { Readable, Writable } from 'node:stream';
import {
  serveStdio as serveOverStdio,
  StdioServerTransport,
} from '@modelcontextprotocol/server/stdio';
import type { Server } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway.js';
import { listenEventOf, watchedTransport } from './listen-watch.js';

/** What {@link serveStdio} needs besides the gateway. */
export interface StdioOptions {
  /** Where the host's messages come from (the process's stdin). */
  readonly stdin: Readable;
  /** Where the gateway's messages go (the process's stdout). */
  readonly stdout: Writable;
  /** Ends serving (a signal to the process). */
  readonly signal?: AbortSignal;
  /** Hears what went wrong on the connection. */
  readonly onError?: (error: Error) => void;
}

/**
 * Serves the gateway on one stdio connection until the host goes away (it closes stdin) or
 * `signal` aborts; then cancels the open questions and closes the connection. The manager stays
 * open: close the gateway after.
 *
 * @param gateway - The gateway to serve.
 * @param options - The streams, the signal that ends serving, the error sink.
 * @returns Once the connection is closed.
 */
export async function serveStdio(gateway: Gateway, options: StdioOptions): Promise<void> {
  // A 2025 host subscribes with requests its server answers; a 2026-07-28 host names the
  // resources in `subscriptions/listen`, which the SDK serves: the front reads them off the wire,
  // and the update is sent on the connection's server, whose entry routes it to those listens.
  let serving: Server | undefined;
  const listens = gateway.listens((hostUri) => {
    serving?.sendResourceUpdated({ uri: hostUri }).catch(() => {});
  });
  const transport = watchedTransport(
    new StdioServerTransport(options.stdin, options.stdout),
    (message) => {
      const event = listenEventOf(message);
      if (event?.kind === 'open') listens.open(event.id, event.hostUris);
      else if (event?.kind === 'end') listens.end(event.id);
    },
  );
  const handle = serveOverStdio(
    ({ era }) => {
      serving = gateway.server({
        resourceSubscriptions: era === 'modern' ? 'listens' : 'requests',
      });
      return serving;
    },
    { transport, onerror: (error) => options.onError?.(error) },
  );
  // The host is gone when it closes our stdin, or a signal ends us: stop everything.
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    options.stdin.once('end', done);
    options.stdin.once('close', done);
    if (options.signal?.aborted === true) done();
    else options.signal?.addEventListener('abort', done, { once: true });
  });
  gateway.cancelQuestions();
  listens.close();
  await handle.close().catch(() => {});
}
