import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Every value {@link classifyAddress} can return, in a fixed order (frozen).
 *
 * | class | ranges |
 * | --- | --- |
 * | `public` | global unicast: not in any range below (IPv6 also inside 2000::/3) |
 * | `loopback` | 127.0.0.0/8, ::1 |
 * | `private` | 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 |
 * | `linkLocal` | 169.254.0.0/16, fe80::/10 |
 * | `uniqueLocal` | fc00::/7 |
 * | `siteLocal` | fec0::/10 (deprecated) |
 * | `carrierGradeNat` | 100.64.0.0/10 |
 * | `multicast` | 224.0.0.0/4, ff00::/8 |
 * | `unspecified` | 0.0.0.0/8, :: |
 * | `broadcast` | 255.255.255.255 |
 * | `reserved` | 192.0.0.0/24, 240.0.0.0/4, 100::/64, 2001::/23 (rest), 5f00::/16 |
 * | `documentation` | 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32, 3fff::/20 |
 * | `benchmarking` | 198.18.0.0/15, 2001:2::/48 |
 * | `as112` | 192.31.196.0/24, 192.175.48.0/24, 2001:4:112::/48, 2620:4f:8000::/48 |
 * | `amt` | 192.52.193.0/24, 2001:3::/32 |
 * | `metadata` | cloud metadata endpoints: 169.254.169.254, 168.63.129.16, 100.100.100.200, 192.0.0.192, fd00:ec2::254 |
 * | `6to4` | 2002::/16, 192.88.99.0/24 (former relay anycast) |
 * | `teredo` | 2001::/32 |
 * | `nat64` | 64:ff9b::/96, 64:ff9b:1::/48 |
 * | `ipv4Translated` | ::ffff:0:0:0/96 |
 * | `ipv4Compatible` | ::/96 other than :: and ::1 (deprecated IPv4-compatible form) |
 * | `notGlobalUnicast` | any other IPv6 address outside 2000::/3 |
 * | `invalid` | not an IP address literal |
 *
 * IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) get the class of their IPv4 part.
 *
 * @example
 * ```ts
 * const counts = Object.fromEntries(ADDRESS_CLASSES.map((cls) => [cls, 0]));
 * ```
 */
export const ADDRESS_CLASSES = Object.freeze([
  'public',
  'loopback',
  'private',
  'linkLocal',
  'uniqueLocal',
  'siteLocal',
  'carrierGradeNat',
  'multicast',
  'unspecified',
  'broadcast',
  'reserved',
  'documentation',
  'benchmarking',
  'as112',
  'amt',
  'metadata',
  '6to4',
  'teredo',
  'nat64',
  'ipv4Translated',
  'ipv4Compatible',
  'notGlobalUnicast',
  'invalid',
] as const);

/**
 * What kind of address an IP literal is: `'public'`, or the reason it is not public.
 * See {@link ADDRESS_CLASSES} for the ranges behind each name.
 */
export type AddressClass = (typeof ADDRESS_CLASSES)[number];

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Rule<A extends Address> = readonly [range: [A, number], addressClass: AddressClass];

// Cloud metadata services answer with credentials, so they get their own class even where a
// range below would also catch them. 168.63.129.16 (Azure) is ordinary public unicast and is
// caught by nothing else.
const METADATA_ADDRESSES: ReadonlySet<string> = new Set([
  '169.254.169.254',
  '168.63.129.16',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
]);

// First match wins, so narrower ranges come before the ranges that contain them. The tables are
// parsed on the first classification (see rules()), not when the module loads: a process that
// reads a configuration but reaches no address (garuda-mcp list) would parse them for nothing.
const IPV4_CIDRS = [
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrierGradeNat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'linkLocal'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.31.196.0/24', 'as112'],
  ['192.52.193.0/24', 'amt'],
  ['192.88.99.0/24', '6to4'],
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'as112'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
] as const;

const IPV6_CIDRS = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'ipv4Compatible'],
  ['::ffff:0:0:0/96', 'ipv4Translated'],
  ['64:ff9b::/96', 'nat64'],
  ['64:ff9b:1::/48', 'nat64'],
  ['100::/64', 'reserved'],
  // Teredo hides the client's IPv4 address (XOR-obfuscated), so the whole prefix is refused.
  ['2001::/32', 'teredo'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:3::/32', 'amt'],
  ['2001:4:112::/48', 'as112'],
  ['2001::/23', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['2620:4f:8000::/48', 'as112'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'reserved'],
  ['fc00::/7', 'uniqueLocal'],
  ['fe80::/10', 'linkLocal'],
  ['fec0::/10', 'siteLocal'],
  ['ff00::/8', 'multicast'],
] as const;

interface Rules {
  readonly ipv4: readonly Rule<ipaddr.IPv4>[];
  readonly ipv6: readonly Rule<ipaddr.IPv6>[];
  readonly globalUnicast: [ipaddr.IPv6, number];
}

let parsedRules: Rules | undefined;

/** The range tables, parsed once. */
function rules(): Rules {
  parsedRules ??= {
    ipv4: IPV4_CIDRS.map(([cidr, cls]) => [ipaddr.IPv4.parseCIDR(cidr), cls] as const),
    ipv6: IPV6_CIDRS.map(([cidr, cls]) => [ipaddr.IPv6.parseCIDR(cidr), cls] as const),
    globalUnicast: ipaddr.IPv6.parseCIDR('2000::/3'),
  };
  return parsedRules;
}

/** The result of {@link inspectAddress}: the class and, for IP literals, the address to dial. */
export interface InspectedAddress {
  readonly addressClass: AddressClass;
  /**
   * Canonical text of the address that was judged (the IPv4 part of an IPv4-mapped address,
   * without brackets or zone id); `undefined` when the input is not an IP literal.
   */
  readonly address: string | undefined;
}

/**
 * Classifies an IP address literal: `'public'`, or the reason it is not public.
 *
 * Only strings that `net.isIP` accepts are IP literals; anything else (host names, `'127.1'`,
 * `'0x7f.1'`, `'2130706433'`) is `'invalid'`, because those spellings are resolved or normalised
 * elsewhere and the result must be classified instead. Surrounding brackets (`[::1]`) and an
 * IPv6 zone id (`fe80::1%eth0`) are accepted. Never throws.
 *
 * @param ip - An IPv4 or IPv6 address literal.
 * @returns `'public'`, or the class that explains why the address is not public.
 * @throws Never.
 * @example
 * ```ts
 * classifyAddress('8.8.8.8'); // 'public'
 * classifyAddress('::ffff:127.0.0.1'); // 'loopback'
 * classifyAddress('168.63.129.16'); // 'metadata'
 * ```
 */
export function classifyAddress(ip: string): AddressClass {
  return inspectAddress(ip).addressClass;
}

/**
 * Whether an IP address literal is a public (global unicast) address.
 *
 * @param ip - An IPv4 or IPv6 address literal.
 * @returns `true` exactly when {@link classifyAddress} returns `'public'`.
 * @throws Never.
 * @example
 * ```ts
 * isPublicAddress('1.1.1.1'); // true
 * isPublicAddress('10.0.0.1'); // false
 * ```
 */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

/**
 * Classifies an IP literal and returns the canonical address that was judged (internal: the
 * agent dials exactly this string and compares it with this host's interface addresses).
 *
 * @param ip - Any string.
 * @returns The class, plus the canonical address for IP literals.
 */
export function inspectAddress(ip: string): InspectedAddress {
  const literal = toCanonicalLiteral(ip);
  if (literal === undefined) return { addressClass: 'invalid', address: undefined };
  let parsed: Address;
  try {
    parsed = ipaddr.parse(literal);
  } catch {
    // Unreachable for strings net.isIP accepted, but a classifier must fail closed, not throw.
    return { addressClass: 'invalid', address: undefined };
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return inspectIPv4(v6.toIPv4Address());
    return inspectIPv6(v6);
  }
  return inspectIPv4(parsed as ipaddr.IPv4);
}

function inspectIPv4(addr: ipaddr.IPv4): InspectedAddress {
  const address = addr.toString();
  const addressClass =
    listedClass(address, rules().ipv4, (range) => addr.match(range)) ??
    // Defence in depth: a range a future ipaddr.js knows about and our table does not.
    (addr.range() === 'unicast' ? 'public' : 'reserved');
  return { addressClass, address };
}

function inspectIPv6(addr: ipaddr.IPv6): InspectedAddress {
  const address = addr.toRFC5952String();
  const addressClass =
    listedClass(address, rules().ipv6, (range) => addr.match(range)) ??
    // Only 2000::/3 is allocated for global unicast; everything else (including prefixes
    // assigned after this table was written) is refused.
    (!addr.match(rules().globalUnicast)
      ? 'notGlobalUnicast'
      : addr.range() === 'unicast'
        ? 'public'
        : 'reserved');
  return { addressClass, address };
}

/** The class the metadata list or the first matching rule gives, or undefined for neither. */
function listedClass<A extends Address>(
  text: string,
  rules: readonly Rule<A>[],
  matches: (range: [A, number]) => boolean,
): AddressClass | undefined {
  if (METADATA_ADDRESSES.has(text)) return 'metadata';
  for (const [range, cls] of rules) if (matches(range)) return cls;
  return undefined;
}

/**
 * Reduces the input to a string that both Node and ipaddr.js read the same way, or
 * `undefined` when it is not an IP literal.
 *
 * Node's `net.isIP` decides what is a literal, not ipaddr.js: ipaddr.js also accepts `'1'` and
 * `'0x7f.1'`, which Node does not treat as literals. A trailing dotted quad in IPv6
 * (`::127.0.0.1`) is rewritten as two hex groups by hand, because ipaddr.js reads
 * `::a.b.c.d` as IPv4-mapped while Node and the URL parser read it as IPv4-compatible
 * (`::7f00:1`), and the address we judge must be the one the socket would reach.
 */
function toCanonicalLiteral(input: string): string | undefined {
  if (typeof input !== 'string') return undefined;
  let text = input;
  const bracketed = text.startsWith('[') && text.endsWith(']');
  if (bracketed) text = text.slice(1, -1);
  const family = net.isIP(text);
  if (family === 4) return bracketed ? undefined : text;
  if (family !== 6) return undefined;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (!net.isIPv4(tail)) return text;
  const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
  const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  return `${text.slice(0, lastColon + 1)}${hex}`;
}
