// The requests of the tasks extension, sent beside the SDK client on the same transport. The
// SDK (2.4) refuses a `tools/call` answered with `resultType: "task"` on the 2026-07-28 protocol,
// and knows no `tasks/*` method, so these requests bypass its codecs: this decorator sends them
// with ids of its own and takes their answers before the client sees them.
import {
  ProtocolError,
  type Client,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/client';
import { isRecord } from '@garuda/internal';
import { TransportLayer } from '../common/transport-layer.js';
import {
  CLIENT_CAPABILITIES_META_KEY_V2,
  TASKS_EXTENSION_ID_V2,
  hasTaskServerCapabilityV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';

/** The prefix of this decorator's request ids (the SDK's ids are numbers: they never clash). */
const ID_PREFIX = 'garuda-task-';

interface Waiting {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A transport decorator that can also send requests of its own ({@link TaskWire.request}).
 * Everything else passes through unchanged: `pid` and `stderr` are kept when the inner
 * transport has them (the SDK tells stdio by them). @internal
 */
export class TaskWire extends TransportLayer {
  readonly #waiting = new Map<string, Waiting>();
  #next = 0;
  #closed = false;

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!this.#take(message)) super.receive(message, extra);
  }

  protected override closed(): void {
    this.#closed = true;
    for (const waiting of this.#waiting.values()) {
      waiting.reject(new Error('the connection closed'));
    }
    this.#waiting.clear();
  }

  /**
   * Sends one request and waits for its answer. An abort sends `notifications/cancelled`.
   *
   * @param method - The method.
   * @param params - Its params, framed by the caller (the 2026 `_meta` envelope included).
   * @param signal - Ends the wait (the caller's time limit is in it).
   * @returns The result object, as the server sent it.
   * @throws `ProtocolError` for an error answer; an `Error` when the connection closed, the
   *   answer was not an object, or `signal` aborted (its reason).
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    signal.throwIfAborted();
    if (this.#closed) throw new Error('the connection closed');
    const id = `${ID_PREFIX}${++this.#next}`;
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
    });
    const onAbort = () => {
      const waiting = this.#waiting.get(id);
      if (waiting === undefined) return;
      this.#waiting.delete(id);
      waiting.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      this.inner
        .send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'cancelled by the client' },
        })
        .catch(() => {});
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.inner.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage);
      return await answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.#waiting.delete(id);
    }
  }

  /** Settles one of this decorator's requests with `message`; `false` when it is not one. */
  #take(message: JSONRPCMessage): boolean {
    if (!('id' in message) || 'method' in message) return false;
    const id: unknown = message.id;
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return false;
    const waiting = this.#waiting.get(id);
    // An answer to a request given up on (aborted) is dropped, not handed to the SDK.
    if (waiting === undefined) return true;
    this.#waiting.delete(id);
    if ('error' in message && isRecord(message.error)) {
      const { code, message: text, data } = message.error as Record<string, unknown>;
      waiting.reject(
        new ProtocolError(
          typeof code === 'number' ? code : -32603,
          typeof text === 'string' ? text : 'the server answered with an error',
          data,
        ),
      );
    } else if ('result' in message && isRecord(message.result)) {
      waiting.resolve(message.result);
    } else {
      waiting.reject(new Error('the server answered with no result object'));
    }
    return true;
  }
}

/** The 2026-07-28 `_meta` envelope keys a request of the modern protocol carries. */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/**
 * Whether the server declared the tasks extension on the 2026-07-28 protocol. A 2025 server's
 * tasks (the older, built-in generation) are not used: its calls stay plain calls. @internal
 */
export function serverRunsTasks(client: Client): boolean {
  return (
    client.getProtocolEra() === 'modern' &&
    hasTaskServerCapabilityV2(client.getServerCapabilities())
  );
}

/**
 * `params` with the 2026 envelope the SDK would have added (protocol version, client info, the
 * client's capabilities) and the tasks extension among the capabilities, which is what lets a
 * server answer a `tools/call` with a task. A key of the caller's own `_meta` with the same name
 * is replaced. @internal
 */
export function frameTaskRequest(
  client: Client,
  params: Record<string, unknown>,
  envelope: Record<string, unknown>,
): Record<string, unknown> {
  const meta = isRecord(params._meta) ? params._meta : {};
  const capabilities = isRecord(envelope.clientCapabilities) ? envelope.clientCapabilities : {};
  const extensions = isRecord(capabilities.extensions) ? capabilities.extensions : {};
  return {
    ...params,
    _meta: {
      ...meta,
      [PROTOCOL_VERSION_KEY]: client.getNegotiatedProtocolVersion(),
      [CLIENT_INFO_KEY]: envelope.clientInfo,
      [CLIENT_CAPABILITIES_META_KEY_V2]: {
        ...capabilities,
        extensions: { ...extensions, [TASKS_EXTENSION_ID_V2]: {} },
      },
    },
  };
}
