// A transport that wraps another and passes everything through, for the manager's layers over a
// server's transport (the tool list filter, the tasks wire): each overrides only what it changes.
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';

/** `setSupportedProtocolVersions` of a layer whose inner transport has one. */
function forwardSupportedVersions(this: TransportLayer, versions: string[]): void {
  innerOf(this).setSupportedProtocolVersions?.(versions);
}

/** The transport a layer wraps (module-level accessors read it through this). */
function innerOf(layer: TransportLayer): Transport {
  return (layer as unknown as { readonly inner: Transport }).inner;
}

const PID: PropertyDescriptor = {
  get(this: TransportLayer) {
    return (innerOf(this) as unknown as Record<string, unknown>)['pid'];
  },
  enumerable: true,
  configurable: true,
};

const STDERR: PropertyDescriptor = {
  get(this: TransportLayer) {
    return (innerOf(this) as unknown as Record<string, unknown>)['stderr'];
  },
  enumerable: true,
  configurable: true,
};

/**
 * Forwards every call and callback of `inner`. `pid` and `stderr` are defined on an instance
 * only when the inner transport has them, since the SDK tells stdio from HTTP by
 * `'pid' in t && 'stderr' in t`. A layer overrides {@link TransportLayer.receive} to see each
 * incoming message first, {@link TransportLayer.closed} to hear the end, and `send` to see each
 * outgoing one. @internal
 */
export class TransportLayer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  declare setSupportedProtocolVersions?: (versions: string[]) => void;

  protected readonly inner: Transport;

  constructor(inner: Transport) {
    this.inner = inner;
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.closed();
      this.onclose?.();
    };
    if (typeof inner.setSupportedProtocolVersions === 'function') {
      this.setSupportedProtocolVersions = forwardSupportedVersions;
    }
    // The same descriptor objects for every layer: the getters are shared, so each layer keeps
    // the class's object shape instead of two closures and a dictionary of its own per server.
    if ('pid' in inner) Object.defineProperty(this, 'pid', PID);
    if ('stderr' in inner) Object.defineProperty(this, 'stderr', STDERR);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** An incoming message: handed to `onmessage` as it is. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** The inner transport closed (before `onclose` is told). */
  protected closed(): void {}
}
