import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type { ConnectionOptions } from 'node:tls';
import { PinnedFetchOptionsError } from './errors.js';

/**
 * A DNS lookup with the shape of `dns.lookup` as the agent calls it: always with
 * `{ all: true, order: 'verbatim' }`, once per connection.
 */
export type LookupFunction = (
  hostname: string,
  options: { all: true; order: 'verbatim' },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The TLS settings a pinned agent accepts (a subset of `tls.ConnectionOptions`). */
export type PinnedTlsOptions = Pick<
  ConnectionOptions,
  'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'ciphers' | 'minVersion' | 'rejectUnauthorized'
>;

/** Options of `createPinnedAgent` (and `createPinnedFetch`). Every field is optional. */
export interface PinnedAgentOptions {
  /**
   * Also allow loopback addresses (127.0.0.0/8, ::1), e.g. for tests or a server the user runs
   * on this machine. It never allows private or other special ranges: an answer that mixes
   * loopback and private addresses is still refused. Default `false`.
   */
  readonly allowLoopback?: boolean;
  /** Resolver with `dns.lookup`'s shape, called exactly once per connection. Default `dns.lookup`. */
  readonly lookup?: LookupFunction;
  /**
   * Time limit in milliseconds for the DNS lookup, and again for each address dialled.
   * Default 10 000.
   */
  readonly connectTimeoutMs?: number;
  /**
   * This machine's own interface addresses, read at every connection; public addresses in
   * this list are refused (a service bound to 0.0.0.0 answers on them too). Default: the
   * addresses from `os.networkInterfaces()`. Pass `() => []` to skip the check.
   */
  readonly localAddresses?: () => Iterable<string>;
  /** Certificates and TLS settings for https, e.g. `{ ca }` for a private CA. */
  readonly tls?: PinnedTlsOptions;
  /** Time limit for the response headers, in milliseconds (0: none). undici's default: 300 000. */
  readonly headersTimeoutMs?: number;
  /** Time limit between body chunks, in milliseconds (0: none). undici's default: 300 000. */
  readonly bodyTimeoutMs?: number;
}

/** Options of `createPinnedFetch`: the same as {@link PinnedAgentOptions}. */
export type PinnedFetchOptions = PinnedAgentOptions;

/** Validated options with defaults filled in (internal). */
export interface ResolvedAgentOptions {
  readonly allowLoopback: boolean;
  readonly lookup: LookupFunction;
  readonly connectTimeoutMs: number;
  readonly localAddresses: (() => Iterable<string>) | undefined;
  readonly tls: PinnedTlsOptions;
  readonly headersTimeoutMs: number | undefined;
  readonly bodyTimeoutMs: number | undefined;
}

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'allowLoopback',
  'lookup',
  'connectTimeoutMs',
  'localAddresses',
  'tls',
  'headersTimeoutMs',
  'bodyTimeoutMs',
]);
const TLS_OPTION_NAMES: ReadonlySet<string> = new Set([
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'ciphers',
  'minVersion',
  'rejectUnauthorized',
]);
const TLS_VERSIONS: ReadonlySet<unknown> = new Set(['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
// Assigned without a cast so the compiler checks that dns.lookup fits the documented shape.
const defaultLookup: LookupFunction = dns.lookup;
// setTimeout's ceiling; larger values fire at once.
const MAX_TIMEOUT_MS = 2_147_483_647;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return `a ${typeof value}`;
}

function checkTimeout(name: string, value: unknown, min: 0 | 1): number | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < min ||
    value > MAX_TIMEOUT_MS
  ) {
    throw new PinnedFetchOptionsError(
      name,
      `expected a whole number of milliseconds from ${min} to ${MAX_TIMEOUT_MS}, got ${describe(value)}`,
    );
  }
  return value;
}

function isKeyMaterial(value: unknown): boolean {
  return typeof value === 'string' || value instanceof Uint8Array;
}

function checkTls(value: unknown): PinnedTlsOptions {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    throw new PinnedFetchOptionsError('tls', `expected an object, got ${describe(value)}`);
  }
  const picked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // A closed list, so nothing here can redirect the socket (host, lookup, socket,
    // servername, checkServerIdentity…) behind the address check.
    if (!TLS_OPTION_NAMES.has(key)) {
      throw new PinnedFetchOptionsError(
        `tls.${key}`,
        `not supported; use one of ${[...TLS_OPTION_NAMES].join(', ')}`,
      );
    }
    if (item === undefined) continue;
    if (key === 'rejectUnauthorized' && typeof item !== 'boolean') {
      throw new PinnedFetchOptionsError(
        'tls.rejectUnauthorized',
        `expected a boolean, got ${describe(item)}`,
      );
    }
    if (key === 'minVersion' && !TLS_VERSIONS.has(item)) {
      throw new PinnedFetchOptionsError(
        'tls.minVersion',
        `expected one of ${[...TLS_VERSIONS].join(', ')}`,
      );
    }
    if ((key === 'passphrase' || key === 'ciphers') && typeof item !== 'string') {
      throw new PinnedFetchOptionsError(`tls.${key}`, `expected a string, got ${describe(item)}`);
    }
    if (
      (key === 'ca' || key === 'cert' || key === 'key' || key === 'pfx') &&
      !isKeyMaterial(item) &&
      !(Array.isArray(item) && item.every((part) => isKeyMaterial(part) || isPlainObject(part)))
    ) {
      throw new PinnedFetchOptionsError(
        `tls.${key}`,
        `expected PEM/DER text or a Buffer (or an array of them), got ${describe(item)}`,
      );
    }
    picked[key] = item;
  }
  return picked as PinnedTlsOptions;
}

/**
 * Checks options for `createPinnedFetch` or `createPinnedAgent` without making
 * either: what they would refuse is refused here with the same error. A host that builds its
 * fetch on first use (and so loads the HTTP client only then) still tells a bad option at once.
 *
 * @param options - What the caller would pass.
 * @throws {@link PinnedFetchOptionsError} for anything unusable.
 * @example
 * checkPinnedFetchOptions({ connectTimeoutMs: 5_000 }); // fine
 * checkPinnedFetchOptions({ allowLoopbak: true }); // throws: unknown option
 */
export function checkPinnedFetchOptions(options: unknown): void {
  resolveAgentOptions(options);
}

/**
 * Validates the options of a pinned agent and fills in defaults (internal).
 *
 * @param options - What the caller passed.
 * @returns The resolved options.
 * @throws {@link PinnedFetchOptionsError} for anything unusable.
 */
export function resolveAgentOptions(options: unknown): ResolvedAgentOptions {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) {
    throw new PinnedFetchOptionsError('options', `expected an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    // A misspelt opt-out must not silently leave the caller with a different policy.
    if (!OPTION_NAMES.has(key)) {
      throw new PinnedFetchOptionsError(
        key,
        `unknown option; known options are ${[...OPTION_NAMES].join(', ')}`,
      );
    }
  }
  const { allowLoopback, lookup, localAddresses } = options;
  if (allowLoopback !== undefined && typeof allowLoopback !== 'boolean') {
    throw new PinnedFetchOptionsError(
      'allowLoopback',
      `expected a boolean, got ${describe(allowLoopback)}`,
    );
  }
  if (lookup !== undefined && typeof lookup !== 'function') {
    throw new PinnedFetchOptionsError(
      'lookup',
      `expected a function with the shape of dns.lookup, got ${describe(lookup)}`,
    );
  }
  if (localAddresses !== undefined && typeof localAddresses !== 'function') {
    throw new PinnedFetchOptionsError(
      'localAddresses',
      `expected a function returning addresses, got ${describe(localAddresses)}`,
    );
  }
  return {
    allowLoopback: allowLoopback ?? false,
    lookup: (lookup as LookupFunction | undefined) ?? defaultLookup,
    connectTimeoutMs: checkTimeout('connectTimeoutMs', options.connectTimeoutMs, 1) ?? 10_000,
    localAddresses: localAddresses as (() => Iterable<string>) | undefined,
    tls: checkTls(options.tls),
    headersTimeoutMs: checkTimeout('headersTimeoutMs', options.headersTimeoutMs, 0),
    bodyTimeoutMs: checkTimeout('bodyTimeoutMs', options.bodyTimeoutMs, 0),
  };
}
