import net from 'node:net';
import { Agent, buildConnector } from 'undici';
import { inspectAddress } from './classify-address.js';
import { BlockedAddressError, LookupFailedError, PinnedFetchErrorCode } from './errors.js';
import type { PinnedFetchError } from './errors.js';
import { readLocalAddresses, systemLocalAddresses } from './local-addresses.js';
import { resolveAgentOptions } from './pinned-agent-options.js';
import type { PinnedAgentOptions, ResolvedAgentOptions } from './pinned-agent-options.js';

type ConnectParams = buildConnector.Options;
type ConnectCallback = buildConnector.Callback;

// Errors after which the next checked address is worth a try: the address did not answer.
// TLS and protocol errors are not in the list, since another address of the same name would
// present the same certificate.
const NEXT_ADDRESS_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
  'EAFNOSUPPORT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Creates an undici `Agent` that connects only to addresses it has checked.
 *
 * For each new connection it takes the URL's host (one trailing dot removed). An IP literal is
 * classified directly. A name is resolved exactly once with `lookup(name, { all: true, order:
 * 'verbatim' })`; if **any** returned address is not allowed, nothing is dialled. Otherwise the
 * checked addresses are dialled in order (the next one only when an address does not answer),
 * by IP, so a second DNS answer can never change the destination. TLS still verifies the
 * certificate against the original name (it is sent as SNI), and the `Host` header is the
 * original `host:port`.
 *
 * Allowed are public addresses, plus loopback with `allowLoopback: true`; never private,
 * link-local, metadata, unspecified (`0.0.0.0`, `::`) or other special addresses, and never a
 * public address of one of this machine's own interfaces.
 *
 * Use it as the `dispatcher` of undici's `fetch` or `request` (not of Node's global `fetch`,
 * which bundles another undici major); {@link createPinnedFetch} does that for you.
 *
 * @param options - See {@link PinnedAgentOptions}.
 * @returns A new `Agent`; `close()` it when done.
 * @throws {@link PinnedFetchOptionsError} (code `FETCH_INVALID_OPTIONS`) for unusable options. Connection
 *   refusals are not thrown here: the request fails with a {@link BlockedAddressError} (code
 *   `FETCH_BLOCKED_ADDRESS`), a {@link LookupFailedError} (`FETCH_LOOKUP_FAILED`, `FETCH_NO_ADDRESSES`) or a
 *   {@link PinnedFetchError} (`FETCH_LOCAL_ADDRESSES_FAILED`), or with the socket error of the last
 *   address tried.
 * @example
 * ```ts
 * import { request } from 'undici';
 * import { createPinnedAgent } from '@garuda/pinned-fetch';
 *
 * const agent = createPinnedAgent({ connectTimeoutMs: 5_000 });
 * const { statusCode, body } = await request('https://example.com/', { dispatcher: agent });
 * ui.show(statusCode, await body.text());
 * await agent.close();
 * ```
 */
export function createPinnedAgent(options?: PinnedAgentOptions): Agent {
  const resolved = resolveAgentOptions(options);
  // One base connector for the agent, so its TLS session cache is shared across connections.
  const base = buildConnector({ timeout: resolved.connectTimeoutMs, ...resolved.tls });
  // A connect function, not `connect: { lookup }`: net.connect skips `lookup` for IP
  // literals, and a lookup hook cannot refuse an answer as a whole or pin the dialled address.
  const connect: buildConnector.connector = (params, callback) => {
    pinnedConnect(resolved, base, params, callback);
  };
  return new Agent({
    connect,
    ...(resolved.headersTimeoutMs === undefined
      ? {}
      : { headersTimeout: resolved.headersTimeoutMs }),
    ...(resolved.bodyTimeoutMs === undefined ? {} : { bodyTimeout: resolved.bodyTimeoutMs }),
  });
}

function pinnedConnect(
  options: ResolvedAgentOptions,
  base: buildConnector.connector,
  params: ConnectParams,
  callback: ConnectCallback,
): void {
  let settled = false;
  const fail = (error: Error): void => {
    if (settled) return;
    settled = true;
    callback(error, null);
  };
  const succeed: ConnectCallback = (...args) => {
    if (settled) return;
    settled = true;
    callback(...args);
  };

  const host = normaliseHost(params.hostname);
  const decide = (addresses: readonly string[]): void => {
    // This may run inside the resolver's callback, where a throw would be uncaught.
    try {
      const verdict = check(options, host, addresses);
      if (verdict instanceof Error) fail(verdict);
      else dialInOrder(base, params, host, verdict, 0, fail, succeed);
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
    }
  };

  if (net.isIP(host) !== 0) {
    decide([host]);
  } else if (host === '') {
    fail(
      new LookupFailedError(PinnedFetchErrorCode.LOOKUP_FAILED, host, new Error('empty host name')),
    );
  } else {
    resolveOnce(options, host, (error, addresses) => {
      if (error !== undefined) fail(error);
      else decide(addresses);
    });
  }
}

function normaliseHost(hostname: string): string {
  let host = String(hostname);
  // undici already strips the brackets of IPv6 literals; this keeps a direct caller safe too.
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  // `example.com.` and `example.com` are the same name; one spelling for lookup and SNI.
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

/**
 * Calls the lookup exactly once, with a time limit, and reduces whatever it returns to a list
 * of address strings (a lookup that ignores `all: true` and answers `(err, address, family)`
 * still works).
 */
function resolveOnce(
  options: ResolvedAgentOptions,
  host: string,
  done: (error: PinnedFetchError | undefined, addresses: string[]) => void,
): void {
  let settled = false;
  const settle = (error: PinnedFetchError | undefined, addresses: string[] = []): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    done(error, addresses);
  };
  const timer = setTimeout(() => {
    const timeout = Object.assign(new Error(`no answer within ${options.connectTimeoutMs} ms`), {
      code: 'ETIMEOUT',
    });
    settle(new LookupFailedError(PinnedFetchErrorCode.LOOKUP_FAILED, host, timeout));
  }, options.connectTimeoutMs);

  try {
    options.lookup(host, { all: true, order: 'verbatim' }, (error, result: unknown) => {
      if (error)
        return settle(new LookupFailedError(PinnedFetchErrorCode.LOOKUP_FAILED, host, error));
      const entries: unknown[] = Array.isArray(result) ? result : result == null ? [] : [result];
      if (entries.length === 0)
        return settle(new LookupFailedError(PinnedFetchErrorCode.NO_ADDRESSES, host));
      settle(undefined, entries.map(addressOf));
    });
  } catch (error) {
    settle(new LookupFailedError(PinnedFetchErrorCode.LOOKUP_FAILED, host, error));
  }
}

function addressOf(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (typeof entry === 'object' && entry !== null && 'address' in entry) {
    const { address } = entry;
    if (typeof address === 'string') return address;
  }
  // Anything else classifies as 'invalid' and is refused.
  return '(malformed lookup result)';
}

/**
 * Decides on the whole answer at once: every address must be allowed, otherwise nothing is
 * dialled. Returns the canonical addresses to dial, or the error to report.
 */
function check(
  options: ResolvedAgentOptions,
  host: string,
  addresses: readonly string[],
): string[] | PinnedFetchError {
  const dialable: string[] = [];
  const publicAddresses: string[] = [];
  for (const raw of addresses) {
    const { addressClass, address } = inspectAddress(raw);
    const allowed =
      addressClass === 'public' || (addressClass === 'loopback' && options.allowLoopback);
    if (!allowed || address === undefined) {
      return new BlockedAddressError({
        host,
        address: address ?? raw,
        addressClass: addressClass === 'public' ? 'invalid' : addressClass,
      });
    }
    dialable.push(address);
    if (addressClass === 'public') publicAddresses.push(address);
  }
  if (publicAddresses.length > 0) {
    let own: ReadonlySet<string>;
    try {
      own = readLocalAddresses(options.localAddresses ?? systemLocalAddresses);
    } catch (error) {
      return error as PinnedFetchError;
    }
    const mine = publicAddresses.find((address) => own.has(address));
    if (mine !== undefined) {
      return new BlockedAddressError({ host, address: mine, addressClass: 'thisHost' });
    }
  }
  return dialable;
}

function dialInOrder(
  base: buildConnector.connector,
  params: ConnectParams,
  host: string,
  addresses: readonly string[],
  index: number,
  fail: (error: Error) => void,
  succeed: ConnectCallback,
): void {
  const address = addresses[index];
  if (address === undefined) {
    fail(new Error('no address to connect to'));
    return;
  }
  // SNI and certificate checks use the name from the URL, never the dialled IP (RFC 6066
  // forbids IP literals as server names); the Host header is built by undici from the origin.
  const servername = params.protocol === 'https:' && net.isIP(host) === 0 ? host : undefined;
  try {
    base(
      {
        hostname: address,
        host: params.host,
        protocol: params.protocol,
        port: params.port,
        localAddress: params.localAddress,
        ...(servername === undefined ? {} : { servername }),
      },
      (error, socket) => {
        if (error === null) {
          succeed(null, socket);
        } else if (index + 1 < addresses.length && isNextAddressWorthTrying(error)) {
          dialInOrder(base, params, host, addresses, index + 1, fail, succeed);
        } else {
          fail(error);
        }
      },
    );
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
  }
}

function isNextAddressWorthTrying(error: Error): boolean {
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && NEXT_ADDRESS_CODES.has(code);
}
