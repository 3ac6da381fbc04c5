// Test helpers shared by the *.test.ts files (not part of the package: index.ts does not
// export them, so tsup leaves them out). Real servers on loopback, a table-driven fake
// resolver, and a guard that keeps every test on loopback.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { LookupFunction } from '../../src/pinned-agent-options.js';

/** What a test server saw. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly servername: string | undefined;
}

/** A running loopback server. */
export interface TestServer {
  readonly host: string;
  readonly port: number;
  /** `http(s)://host:port` with IPv6 hosts in brackets. */
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** TCP connections accepted (also those that never sent a request). */
  connections: number;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const defaultHandler: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
};

async function listen(
  server: http.Server | https.Server,
  host: string,
  scheme: 'http' | 'https',
  handler: Handler,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const state: TestServer = {
    host,
    port: 0,
    origin: '',
    requests,
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => {
    state.connections += 1;
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const servername = (req.socket as Partial<TLSSocket>).servername;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        servername: typeof servername === 'string' ? servername : undefined,
      });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = net.isIPv6(host) ? `[${host}]` : host;
  return Object.assign(state, { port, origin: `${scheme}://${hostPart}:${port}` });
}

/** Starts an HTTP server on a loopback address (default 127.0.0.1). */
export function startHttpServer(
  host = '127.0.0.1',
  handler: Handler = defaultHandler,
): Promise<TestServer> {
  return listen(http.createServer(), host, 'http', handler);
}

/** Starts an HTTPS server on 127.0.0.1 with the given key and certificate. */
export function startHttpsServer(
  credentials: { key: string; cert: string },
  handler: Handler = defaultHandler,
): Promise<TestServer> {
  return listen(https.createServer(credentials), '127.0.0.1', 'https', handler);
}

/** A port on 127.0.0.1 with nothing listening (free at the time of the call). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether this machine can listen on ::1. */
export async function hasIPv6Loopback(): Promise<boolean> {
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '::1', () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return true;
  } catch {
    return false;
  }
}

/** A fake resolver: names map to addresses, or to an error. Counts calls per name. */
export function fakeLookup(table: Record<string, readonly string[] | Error>): {
  lookup: LookupFunction;
  calls: Map<string, number>;
} {
  const calls = new Map<string, number>();
  const lookup: LookupFunction = (hostname, _options, callback) => {
    calls.set(hostname, (calls.get(hostname) ?? 0) + 1);
    const entry = table[hostname];
    setImmediate(() => {
      if (entry === undefined) {
        const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
        });
        callback(error, []);
      } else if (entry instanceof Error) {
        callback(entry, []);
      } else {
        callback(
          null,
          entry.map((address) => ({ address, family: net.isIP(address) })),
        );
      }
    });
  };
  return { lookup, calls };
}

function isLoopbackLiteral(host: string): boolean {
  return (net.isIPv4(host) && host.startsWith('127.')) || host === '::1';
}

/**
 * Makes every outgoing TCP connection of this process fail unless it goes to 127.0.0.0/8 or
 * ::1, and records the targets. A safety net, so a bug in the code under test can never send
 * a packet anywhere else; the tests also assert on `attempts`.
 */
export function guardLoopbackOnly(): { attempts: string[]; restore(): void } {
  const original = net.Socket.prototype.connect;
  const attempts: string[] = [];
  const guarded = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const isIpc =
      (typeof first === 'string' && !/^\d+$/.test(first)) ||
      (typeof first === 'object' && first !== null && 'path' in first && first.path != null);
    if (!isIpc) {
      const host =
        typeof first === 'object' && first !== null
          ? String((first as { host?: unknown }).host ?? 'localhost')
          : String(args[1] ?? 'localhost');
      attempts.push(host);
      if (!isLoopbackLiteral(host)) {
        throw new Error(`test guard: refusing to dial ${JSON.stringify(host)}`);
      }
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  };
  net.Socket.prototype.connect = guarded as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}
