import { brand, CodedError, quote } from '@garuda/internal';
import type { AddressClass } from './classify-address.js';

/** The marker scope of this package's error classes. */
const SCOPE = 'garuda.pinned-fetch';

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
  BLOCKED_ADDRESS: 'FETCH_BLOCKED_ADDRESS',
  /** The DNS lookup failed or timed out. */
  LOOKUP_FAILED: 'FETCH_LOOKUP_FAILED',
  /** The DNS lookup succeeded with no addresses. */
  NO_ADDRESSES: 'FETCH_NO_ADDRESSES',
  /** The options given to `createPinnedAgent` / `createPinnedFetch` are not usable. */
  INVALID_OPTIONS: 'FETCH_INVALID_OPTIONS',
  /** This host's own interface addresses could not be read, so no address could be checked. */
  LOCAL_ADDRESSES_FAILED: 'FETCH_LOCAL_ADDRESSES_FAILED',
} as const);

/** One of the values of {@link PinnedFetchErrorCode}. */
export type PinnedFetchErrorCode = (typeof PinnedFetchErrorCode)[keyof typeof PinnedFetchErrorCode];

/**
 * Why an address was refused: its {@link AddressClass}, or `'thisHost'` for a public address
 * that belongs to one of this machine's own network interfaces.
 */
export type BlockedAddressClass = Exclude<AddressClass, 'public'> | 'thisHost';

/**
 * Quotes text that came from a URL, a DNS answer or a caller, for use inside a message: JSON
 * string syntax, with everything outside printable ASCII escaped, so control characters, bidi
 * overrides and look-alikes cannot reach a terminal or a log. Long values are cut. Escaping to
 * ASCII needs no Unicode tables, so this package still depends on no other package of ours.
 */
function quoteAscii(text: string): string {
  return quote(text, { max: 256, ascii: true });
}

/**
 * Base class of every error this package creates, and the class of those that carry no more
 * than their `code` (`FETCH_LOCAL_ADDRESSES_FAILED`). Check `code` (see {@link PinnedFetchErrorCode})
 * rather than the message.
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
export class PinnedFetchError extends CodedError<PinnedFetchErrorCode> {
  /**
   * Whether `value` is a {@link PinnedFetchError} (any subclass), also when it comes from another
   * copy of this package. A plain function: `errors.filter(PinnedFetchError.isInstance)` works.
   *
   * @param value - Anything, typically a caught error.
   * @returns `true` for errors of this package.
   * @example
   * ```ts
   * if (PinnedFetchError.isInstance(e)) ui.show(e.code);
   * ```
   */
  static readonly isInstance = brand(this, SCOPE, 'PinnedFetchError');
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
 * address that is not allowed (code `FETCH_BLOCKED_ADDRESS`). When several addresses were returned
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
  /**
   * Whether `value` itself is a {@link BlockedAddressError} (from any copy of this package).
   * To search a `cause` chain, use {@link findBlockedAddressError}.
   */
  static override readonly isInstance = brand(this, SCOPE, 'BlockedAddressError');

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
      `refused to connect to ${quoteAscii(host)} at ${quoteAscii(address).slice(1, -1)}: ` +
        `${CLASS_DESCRIPTIONS[addressClass] ?? 'not allowed'}. ` +
        `Only public addresses are allowed; ${adviceFor(addressClass)}.`,
    );
    this.host = host;
    this.address = address;
    this.addressClass = addressClass;
  }
}

/**
 * The DNS lookup for a host gave no address to check: it failed or timed out (code
 * `FETCH_LOOKUP_FAILED`, `cause` is the resolver's error), or it succeeded with no addresses (code
 * `FETCH_NO_ADDRESSES`). Nothing was dialled.
 *
 * @example
 * ```ts
 * if (LookupFailedError.isInstance(e.cause)) ui.show(`${e.cause.host}: ${e.cause.code}`);
 * ```
 */
export class LookupFailedError extends PinnedFetchError {
  /** Whether `value` is a {@link LookupFailedError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'LookupFailedError');

  declare readonly code:
    typeof PinnedFetchErrorCode.LOOKUP_FAILED | typeof PinnedFetchErrorCode.NO_ADDRESSES;
  /** The host name that could not be resolved. */
  readonly host: string;

  /**
   * @param code - `FETCH_LOOKUP_FAILED`, or `FETCH_NO_ADDRESSES` for an answer without addresses.
   * @param host - The host name that was looked up.
   * @param cause - The resolver's error (for `FETCH_LOOKUP_FAILED`).
   */
  constructor(
    code: typeof PinnedFetchErrorCode.LOOKUP_FAILED | typeof PinnedFetchErrorCode.NO_ADDRESSES,
    host: string,
    cause?: unknown,
  ) {
    super(
      code,
      code === PinnedFetchErrorCode.NO_ADDRESSES
        ? `${quoteAscii(host)} resolved to no addresses; check the host name and its DNS records.`
        : `could not resolve ${quoteAscii(host)} (${quoteAscii(lookupReason(cause)).slice(1, -1)}); ` +
            "check the host name and this machine's DNS settings.",
      { cause },
    );
    this.host = host;
  }
}

function lookupReason(cause: unknown): string {
  if (typeof cause === 'object' && cause !== null && 'code' in cause) {
    if (typeof cause.code === 'string') return cause.code;
  }
  return cause instanceof Error ? cause.message : 'unknown error';
}

/**
 * The options passed to `createPinnedAgent` or `createPinnedFetch` are not usable
 * (code `FETCH_INVALID_OPTIONS`). Thrown synchronously by the factory.
 *
 * @example
 * ```ts
 * try {
 *   createPinnedFetch({ connectTimeoutMs: -1 });
 * } catch (e) {
 *   if (PinnedFetchOptionsError.isInstance(e)) ui.error(e.option, e.message);
 * }
 * ```
 */
export class PinnedFetchOptionsError extends PinnedFetchError {
  /** Whether `value` is a {@link PinnedFetchOptionsError}, from any copy of this package. */
  static override readonly isInstance = brand(this, SCOPE, 'PinnedFetchOptionsError');

  /** The option at fault, e.g. `connectTimeoutMs` or `tls.ca`. */
  readonly option: string;

  /**
   * @param option - The option at fault.
   * @param problem - What is wrong with it and what is expected.
   */
  constructor(option: string, problem: string) {
    super(PinnedFetchErrorCode.INVALID_OPTIONS, `invalid option ${option}: ${problem}`);
    this.option = option;
  }
}

/**
 * This machine's interface addresses could not be read, so no address could be checked against
 * them and nothing was dialled (code `FETCH_LOCAL_ADDRESSES_FAILED`). @internal
 *
 * @param cause - The error thrown while reading the interface addresses.
 */
export function localAddressesError(cause: unknown): PinnedFetchError {
  return new PinnedFetchError(
    PinnedFetchErrorCode.LOCAL_ADDRESSES_FAILED,
    "could not read this machine's network interface addresses, so the connection was not " +
      'attempted; pass localAddresses (e.g. () => []) to supply them yourself.',
    { cause },
  );
}
