import type { AddressClass } from './classify-address.js';

/**
 * The stable `code` of every {@link PinnedFetchError}. Compare against these instead of
 * messages or class names.
 *
 * @example
 * ```ts
 * if (PinnedFetchError.isInstance(e.cause) && e.cause.code === PinnedFetchErrorCode.LOOKUP_FAILED) {
 *   // retry later
 * }
 * ```
 */
export const PinnedFetchErrorCode = Object.freeze({
  /** A host resolved to (or was) an address that is not allowed. Nothing was dialled. */
  BLOCKED_ADDRESS: 'BLOCKED_ADDRESS',
  /** The DNS lookup failed or timed out. */
  LOOKUP_FAILED: 'LOOKUP_FAILED',
  /** The DNS lookup succeeded with no addresses. */
  NO_ADDRESSES: 'NO_ADDRESSES',
  /** The options given to `createPinnedAgent` / `createPinnedFetch` are not usable. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** This host's own interface addresses could not be read, so no address could be checked. */
  LOCAL_ADDRESSES_FAILED: 'LOCAL_ADDRESSES_FAILED',
} as const);

/** One of the values of {@link PinnedFetchErrorCode}. */
export type PinnedFetchErrorCode = (typeof PinnedFetchErrorCode)[keyof typeof PinnedFetchErrorCode];

/**
 * Why an address was refused: its {@link AddressClass}, or `'thisHost'` for a public address
 * that belongs to one of this machine's own network interfaces.
 */
export type BlockedAddressClass = Exclude<AddressClass, 'public'> | 'thisHost';

const MARKERS = {
  PinnedFetchError: Symbol.for('garuda.pinned-fetch.PinnedFetchError'),
  BlockedAddressError: Symbol.for('garuda.pinned-fetch.BlockedAddressError'),
  LookupFailedError: Symbol.for('garuda.pinned-fetch.LookupFailedError'),
  NoAddressesError: Symbol.for('garuda.pinned-fetch.NoAddressesError'),
  InvalidOptionsError: Symbol.for('garuda.pinned-fetch.InvalidOptionsError'),
  LocalAddressesError: Symbol.for('garuda.pinned-fetch.LocalAddressesError'),
} as const;

// Markers instead of `instanceof`, so an error made by another copy of this package (two
// versions in one node_modules tree) is still recognised.
function mark(target: object, marker: symbol): void {
  Object.defineProperty(target, marker, { value: true, enumerable: false });
}

function hasMarker(value: unknown, marker: symbol): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}

/**
 * Quotes text that came from a URL, a DNS answer or a caller, for use inside a message: JSON
 * string syntax, with everything outside printable ASCII escaped, so control characters,
 * bidi overrides and look-alikes cannot reach a terminal or a log. Long values are cut.
 * Written here rather than taken from @garuda/mcp-sanitize, because this package depends on
 * no other package of ours; escaping to ASCII is stricter than cleaning and needs no tables.
 */
export function quote(text: string): string {
  const cut = text.length > 256 ? `${text.slice(0, 256)}…` : text;
  return JSON.stringify(cut).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Base class of every error this package creates. Check `code` (see
 * {@link PinnedFetchErrorCode}) rather than the message.
 *
 * @example
 * ```ts
 * try {
 *   await pinnedFetch(url);
 * } catch (e) {
 *   const blocked = findBlockedAddressError(e);
 *   if (blocked) ui.warn(blocked.message);
 * }
 * ```
 */
export class PinnedFetchError extends Error {
  /** Stable machine-readable reason; one of {@link PinnedFetchErrorCode}. */
  readonly code: PinnedFetchErrorCode;

  /**
   * @param code - One of {@link PinnedFetchErrorCode}.
   * @param message - What happened and what to do about it.
   * @param options - `cause`: the underlying error, kept as `error.cause`.
   */
  constructor(code: PinnedFetchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PinnedFetchError';
    this.code = code;
    mark(this, MARKERS.PinnedFetchError);
  }

  /**
   * Whether `value` is a {@link PinnedFetchError}, also when it comes from another copy of
   * this package.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package (any subclass).
   * @example
   * ```ts
   * if (PinnedFetchError.isInstance(e)) ui.show(e.code);
   * ```
   */
  static isInstance(value: unknown): value is PinnedFetchError {
    return hasMarker(value, MARKERS.PinnedFetchError);
  }
}

const CLASS_DESCRIPTIONS: Readonly<Record<BlockedAddressClass, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique local address',
  siteLocal: 'a site-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
  as112: 'an AS112 address',
  amt: 'an AMT relay address',
  metadata: 'a cloud metadata endpoint',
  '6to4': 'a 6to4 address (it embeds an IPv4 address)',
  teredo: 'a Teredo address (it embeds an IPv4 address)',
  nat64: 'a NAT64 address (it embeds an IPv4 address)',
  ipv4Translated: 'an IPv4-translated address',
  ipv4Compatible: 'an IPv4-compatible address',
  notGlobalUnicast: 'not a global unicast address',
  invalid: 'not a valid IP address',
  thisHost: "an address of this machine's own network interfaces",
};

function adviceFor(addressClass: BlockedAddressClass): string {
  if (addressClass === 'loopback') {
    return 'to reach a server on this machine on purpose, create the fetch with allowLoopback: true';
  }
  if (addressClass === 'thisHost') {
    return 'to reach a server on this machine on purpose, use 127.0.0.1 or [::1] with allowLoopback: true';
  }
  return 'use a host name that resolves only to public addresses';
}

/**
 * The connection was refused before any packet was sent: the host is, or resolved to, an
 * address that is not allowed (code `BLOCKED_ADDRESS`). When several addresses were returned
 * and any one is not allowed, none is dialled.
 *
 * `fetch` reports it as the `cause` of a `TypeError: fetch failed`; use
 * {@link findBlockedAddressError} or {@link isBlockedAddressError} to get at it.
 *
 * @example
 * ```ts
 * const blocked = findBlockedAddressError(e);
 * if (blocked) ui.show(blocked.host, blocked.address, blocked.addressClass);
 * ```
 */
export class BlockedAddressError extends PinnedFetchError {
  /** The host name or IP literal from the URL (trailing dot removed). */
  readonly host: string;
  /** The address that was refused. */
  readonly address: string;
  /** Why it was refused. */
  readonly addressClass: BlockedAddressClass;

  /**
   * @param details - The host from the URL, the refused address and why it was refused.
   */
  constructor(details: { host: string; address: string; addressClass: BlockedAddressClass }) {
    const { host, address, addressClass } = details;
    super(
      PinnedFetchErrorCode.BLOCKED_ADDRESS,
      `refused to connect to ${quote(host)} at ${quote(address).slice(1, -1)}: ` +
        `${CLASS_DESCRIPTIONS[addressClass] ?? 'not allowed'}. ` +
        `Only public addresses are allowed; ${adviceFor(addressClass)}.`,
    );
    this.name = 'BlockedAddressError';
    this.host = host;
    this.address = address;
    this.addressClass = addressClass;
    mark(this, MARKERS.BlockedAddressError);
  }

  /**
   * Whether `value` itself is a {@link BlockedAddressError} (from any copy of this package).
   * To search a `cause` chain, use {@link findBlockedAddressError}.
   *
   * @param value - Anything.
   * @returns `true` for a blocked-address error.
   * @example
   * ```ts
   * BlockedAddressError.isInstance(e.cause);
   * ```
   */
  static override isInstance(value: unknown): value is BlockedAddressError {
    return hasMarker(value, MARKERS.BlockedAddressError);
  }
}

/**
 * The DNS lookup for a host failed or timed out (code `LOOKUP_FAILED`). `cause` is the
 * resolver's error.
 *
 * @example
 * ```ts
 * if (LookupFailedError.isInstance(e.cause)) ui.show(e.cause.host);
 * ```
 */
export class LookupFailedError extends PinnedFetchError {
  /** The host name that could not be resolved. */
  readonly host: string;

  /**
   * @param host - The host name that was looked up.
   * @param cause - The resolver's error.
   */
  constructor(host: string, cause: unknown) {
    const reason =
      typeof cause === 'object' &&
      cause !== null &&
      'code' in cause &&
      typeof cause.code === 'string'
        ? cause.code
        : cause instanceof Error
          ? cause.message
          : 'unknown error';
    super(
      PinnedFetchErrorCode.LOOKUP_FAILED,
      `could not resolve ${quote(host)} (${quote(reason).slice(1, -1)}); ` +
        "check the host name and this machine's DNS settings.",
      { cause },
    );
    this.name = 'LookupFailedError';
    this.host = host;
    mark(this, MARKERS.LookupFailedError);
  }

  /**
   * Whether `value` is a {@link LookupFailedError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for a lookup failure.
   * @example
   * ```ts
   * LookupFailedError.isInstance(e.cause);
   * ```
   */
  static override isInstance(value: unknown): value is LookupFailedError {
    return hasMarker(value, MARKERS.LookupFailedError);
  }
}

/**
 * The DNS lookup for a host succeeded but returned no addresses (code `NO_ADDRESSES`).
 *
 * @example
 * ```ts
 * if (NoAddressesError.isInstance(e.cause)) ui.show(`${e.cause.host} has no addresses`);
 * ```
 */
export class NoAddressesError extends PinnedFetchError {
  /** The host name that resolved to nothing. */
  readonly host: string;

  /**
   * @param host - The host name that was looked up.
   */
  constructor(host: string) {
    super(
      PinnedFetchErrorCode.NO_ADDRESSES,
      `${quote(host)} resolved to no addresses; check the host name and its DNS records.`,
    );
    this.name = 'NoAddressesError';
    this.host = host;
    mark(this, MARKERS.NoAddressesError);
  }

  /**
   * Whether `value` is a {@link NoAddressesError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for an empty lookup answer.
   * @example
   * ```ts
   * NoAddressesError.isInstance(e.cause);
   * ```
   */
  static override isInstance(value: unknown): value is NoAddressesError {
    return hasMarker(value, MARKERS.NoAddressesError);
  }
}

/**
 * The options passed to `createPinnedAgent` or `createPinnedFetch` are not usable
 * (code `INVALID_OPTIONS`). Thrown synchronously by the factory.
 *
 * @example
 * ```ts
 * try {
 *   createPinnedFetch({ connectTimeoutMs: -1 });
 * } catch (e) {
 *   if (InvalidOptionsError.isInstance(e)) ui.error(e.message);
 * }
 * ```
 */
export class InvalidOptionsError extends PinnedFetchError {
  /** The option at fault, e.g. `connectTimeoutMs` or `tls.ca`. */
  readonly option: string;

  /**
   * @param option - The option at fault.
   * @param problem - What is wrong with it and what is expected.
   */
  constructor(option: string, problem: string) {
    super(PinnedFetchErrorCode.INVALID_OPTIONS, `invalid option ${option}: ${problem}`);
    this.name = 'InvalidOptionsError';
    this.option = option;
    mark(this, MARKERS.InvalidOptionsError);
  }

  /**
   * Whether `value` is an {@link InvalidOptionsError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for an options error.
   * @example
   * ```ts
   * InvalidOptionsError.isInstance(e);
   * ```
   */
  static override isInstance(value: unknown): value is InvalidOptionsError {
    return hasMarker(value, MARKERS.InvalidOptionsError);
  }
}

/**
 * This machine's interface addresses could not be read, so no address could be checked
 * against them and nothing was dialled (code `LOCAL_ADDRESSES_FAILED`). `cause` is the
 * underlying error.
 *
 * @example
 * ```ts
 * // In a sandbox without access to the interface list, opt out explicitly:
 * createPinnedFetch({ localAddresses: () => [] });
 * ```
 */
export class LocalAddressesError extends PinnedFetchError {
  /**
   * @param cause - The error thrown while reading the interface addresses.
   */
  constructor(cause: unknown) {
    super(
      PinnedFetchErrorCode.LOCAL_ADDRESSES_FAILED,
      "could not read this machine's network interface addresses, so the connection was not " +
        'attempted; pass localAddresses (e.g. () => []) to supply them yourself.',
      { cause },
    );
    this.name = 'LocalAddressesError';
    mark(this, MARKERS.LocalAddressesError);
  }

  /**
   * Whether `value` is a {@link LocalAddressesError} (from any copy of this package).
   *
   * @param value - Anything.
   * @returns `true` for an interface-list failure.
   * @example
   * ```ts
   * LocalAddressesError.isInstance(e.cause);
   * ```
   */
  static override isInstance(value: unknown): value is LocalAddressesError {
    return hasMarker(value, MARKERS.LocalAddressesError);
  }
}
