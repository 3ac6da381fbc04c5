import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { filterToolList } from '@garuda/mcp-tools';
import { TransportLayer } from '../common/transport-layer.js';

/** `tools/list` requests waiting for their answer that are remembered; older ones are forgotten. */
export const MAX_PENDING_TOOL_LISTS = 64;

/** Options of {@link filterToolLists}. */
export interface FilterToolListsOptions {
  /** The server name, to start each notice with `MCP server "x": `. */
  readonly server?: string;
}

type RequestId = string | number;

/**
 * The decorator: forwards every call and callback, and filters the answers to `tools/list`.
 * `pid` and `stderr` are defined on an instance only when the inner transport has them, since
 * the SDK tells stdio from HTTP by `'pid' in t && 'stderr' in t`.
 */
class ToolListFilter extends TransportLayer {
  readonly #onSkip: (notice: string) => void;
  readonly #server: string | undefined;
  readonly #pending = new Set<RequestId>();
  /** A notification was handed over in this turn: a response now waits a microtask (#receive). */
  #notifiedThisTurn = false;
  #revision: string | undefined;

  constructor(inner: Transport, onSkip: (notice: string) => void, server: string | undefined) {
    super(inner);
    this.#onSkip = onSkip;
    this.#server = server;
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.#receive(message, extra);
  }

  protected override closed(): void {
    this.#pending.clear();
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = toolListRequestId(message);
    if (id !== undefined) {
      this.#pending.add(id);
      // A request that never gets an answer must not be remembered for ever.
      if (this.#pending.size > MAX_PENDING_TOOL_LISTS) {
        const oldest = this.#pending.values().next();
        if (oldest.done !== true) this.#pending.delete(oldest.value);
      }
    }
    try {
      await this.inner.send(message, options);
    } catch (error) {
      if (id !== undefined) this.#pending.delete(id);
      throw error;
    }
  }

  override setProtocolVersion(version: string): void {
    this.#revision = version;
    super.setProtocolVersion(version);
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const filtered = this.#filter(message);
    if ('id' in filtered && !('method' in filtered) && this.#notifiedThisTurn) {
      // The SDK hands a notification to its handler a microtask later, but settles a response
      // at once (and forgets the request's progress handler then): a response read in the same
      // turn as notifications would overtake them, and a call's last progress report would be
      // lost. Handed over a microtask later, it comes after them, in order.
      queueMicrotask(() => this.onmessage?.(filtered, extra));
      return;
    }
    this.onmessage?.(filtered, extra);
    if (!('id' in filtered) && !this.#notifiedThisTurn) {
      this.#notifiedThisTurn = true;
      queueMicrotask(() => {
        this.#notifiedThisTurn = false;
      });
    }
  }

  #filter(message: JSONRPCMessage): JSONRPCMessage {
    if (!('id' in message) || 'method' in message) return message;
    const id = message.id as RequestId;
    if (!this.#pending.delete(id)) return message;
    if (!('result' in message)) return message;
    const decision = filterToolList(message.result, {
      server: this.#server,
      protocolVersion: this.#revision,
    });
    for (const notice of decision.notices) this.#notify(notice);
    if (decision.result === message.result) return message;
    return { ...message, result: decision.result } as JSONRPCMessage;
  }

  #notify(notice: string): void {
    try {
      this.#onSkip(notice);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function toolListRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'tools/list' || !('id' in message)) {
    return undefined;
  }
  const id: unknown = message.id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Wraps a transport so that one malformed tool cannot fail a whole tool listing.
 *
 * The SDK validates a `tools/list` result strictly, and on the 2026 protocol before any schema
 * the caller passes, so a single bad entry makes `client.listTools()` throw and hides every
 * good tool. This decorator remembers the ids of outgoing `tools/list` requests and, in each
 * matching answer, removes the entries the SDK would reject (`filterToolList` of
 * `@garuda/mcp-tools` decides, by the MCP `Tool` schema), calling `onSkip` once for each with a
 * one-line, cleaned notice such as `MCP server "x": tool #8 "malformed" was skipped: its input
 * schema's type is not "object"` (at most `MAX_SKIP_NOTICES`, 20, per answer, then one summary).
 * Everything else passes through unchanged.
 *
 * The wrapper keeps every member the SDK reads: `start`, `send`, `close`, the `onmessage`,
 * `onerror` and `onclose` callbacks (set them on the wrapper, not the inner transport, which
 * the wrapper now owns), `sessionId` and `hasPerRequestStream` (read from the inner transport),
 * `setProtocolVersion`, `setSupportedProtocolVersions` when the inner transport has it, and the
 * `pid` and `stderr` getters when the inner transport has them (the SDK recognises stdio by
 * them during version negotiation). Other members of the inner transport (`stderrTail()`,
 * `finishAuth()`, …) are used on the inner transport directly.
 *
 * @param transport - A transport not yet started (e.g. a `ProcessTransport`).
 * @param onSkip - Receives one notice per removed tool; what it throws goes to `onerror`.
 * @param options - `server`: the name that starts each notice.
 * @returns The transport to pass to `client.connect()`.
 * @example
 * ```ts
 * const inner = new ProcessTransport({ command, args, env });
 * await client.connect(filterToolLists(inner, (n) => prompter.notice(n), { server: 'github' }));
 * const { tools } = await client.listTools(); // the good tools, even if one is malformed
 * ```
 */
export function filterToolLists(
  transport: Transport,
  onSkip: (notice: string) => void,
  options: FilterToolListsOptions = {},
): Transport {
  return new ToolListFilter(transport, onSkip, options.server);
}
