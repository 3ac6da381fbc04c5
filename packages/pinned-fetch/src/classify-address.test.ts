import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADDRESS_CLASSES, classifyAddress, isPublicAddress } from './classify-address.js';
import type { AddressClass } from './classify-address.js';

// Every range of security-notes §1.5, with addresses at both ends where an off-by-one could
// hide, public neighbours just outside the ranges, and every spelling trick we know of.
const TABLE: ReadonlyArray<readonly [input: string, expected: AddressClass]> = [
  // IPv4 special-purpose ranges
  ['0.0.0.0', 'unspecified'],
  ['0.255.255.255', 'unspecified'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.0', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.0.1', 'linkLocal'],
  ['169.254.255.255', 'linkLocal'],
  ['192.0.0.1', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.0.9', 'reserved'],
  ['192.0.0.10', 'reserved'],
  ['192.0.0.170', 'reserved'],
  ['192.0.0.171', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.1', 'documentation'],
  ['203.0.113.255', 'documentation'],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.88.99.1', '6to4'],
  ['192.31.196.1', 'as112'],
  ['192.175.48.1', 'as112'],
  ['192.52.193.1', 'amt'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['254.255.255.255', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // cloud metadata endpoints, checked before the ranges that contain them
  ['169.254.169.254', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['192.0.0.192', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:0ec2:0000:0000:0000:0000:0000:0254', 'metadata'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:168.63.129.16', 'metadata'],
  ['::ffff:100.100.100.200', 'metadata'],
  ['::ffff:192.0.0.192', 'metadata'],
  // IPv4 public controls, including neighbours of blocked ranges
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  ['9.255.255.255', 'public'],
  ['11.0.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['168.63.129.17', 'public'],
  ['198.17.255.255', 'public'],
  ['198.20.0.0', 'public'],
  ['223.255.255.255', 'public'],
  // IPv6 special-purpose ranges
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::2', 'ipv4Compatible'],
  ['::7f00:1', 'ipv4Compatible'],
  ['::808:808', 'ipv4Compatible'],
  ['::ffff:0:7f00:1', 'ipv4Translated'],
  ['::ffff:0:808:808', 'ipv4Translated'],
  ['64:ff9b::a9fe:a9fe', 'nat64'],
  ['64:ff9b::8.8.8.8', 'nat64'],
  ['64:ff9b::7f00:1', 'nat64'],
  ['64:ff9b:1::1', 'nat64'],
  ['64:ff9b:1:ffff::1', 'nat64'],
  ['100::1', 'reserved'],
  ['100:0:0:1::1', 'notGlobalUnicast'],
  ['2001::1', 'teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['2001:1::1', 'reserved'],
  ['2001:1::2', 'reserved'],
  ['2001:1::3', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'amt'],
  ['2001:4:112::1', 'as112'],
  ['2001:10::1', 'reserved'],
  ['2001:20::1', 'reserved'],
  ['2001:30::1', 'reserved'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['2002::1', '6to4'],
  ['2002:a9fe:a9fe::1', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['2620:4f:8000::1', 'as112'],
  ['3fff::1', 'documentation'],
  ['3fff:fff:ffff::1', 'documentation'],
  ['5f00::1', 'reserved'],
  ['fc00::1', 'uniqueLocal'],
  ['fd00::2', 'uniqueLocal'],
  ['fdff:ffff::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['fec0::1', 'siteLocal'],
  ['feff::1', 'siteLocal'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['1000::1', 'notGlobalUnicast'],
  ['4000::1', 'notGlobalUnicast'],
  ['e000::1', 'notGlobalUnicast'],
  ['1fff:ffff::1', 'notGlobalUnicast'],
  // IPv6 public controls
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2001:200::1', 'public'],
  ['2a00:1450:4001::1', 'public'],
  ['3ffe:ffff::1', 'public'],
  ['2606:4700:4700:0:0:0:0:1111', 'public'],
  ['2606:4700:4700:0000:0000:0000:0000:1111', 'public'],
  ['2606:4700:4700::1111%eth0', 'public'],
  // IPv4-mapped: judged by the IPv4 part
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:127.0.0.1', 'loopback'],
  ['0:0:0:0:0:ffff:127.0.0.1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:255.255.255.255', 'broadcast'],
  ['::ffff:8.8.8.8', 'public'],
  ['::ffff:808:808', 'public'],
  // IPv4-compatible with a dotted tail: Node dials ::7f00:1, ipaddr.js would say "mapped"
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['::0.0.0.1', 'loopback'], // the same address as ::1
  ['::0.0.0.2', 'ipv4Compatible'],
  // brackets and zone ids
  ['[::1]', 'loopback'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['[2606:4700:4700::1111]', 'public'],
  ['fe80::1%eth0', 'linkLocal'],
  ['fe80::1%25eth0', 'linkLocal'],
  ['[fe80::1%eth0]', 'linkLocal'],
  ['FE80::1%1', 'linkLocal'],
  ['::1%lo', 'loopback'],
  // not IP literals (names and non-canonical spellings are resolved elsewhere)
  ['', 'invalid'],
  ['localhost', 'invalid'],
  ['example.com', 'invalid'],
  ['0x7f.1', 'invalid'],
  ['0x7f000001', 'invalid'],
  ['1', 'invalid'],
  ['127.1', 'invalid'],
  ['2130706433', 'invalid'],
  ['0177.0.0.1', 'invalid'],
  ['010.0.0.1', 'invalid'],
  ['127.0.0.1.', 'invalid'],
  [' 127.0.0.1', 'invalid'],
  ['127.0.0.1 ', 'invalid'],
  ['127.0.0.1\n', 'invalid'],
  ['１２７.０.０.１', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1.2.3.4/8', 'invalid'],
  ['1.2.3.4:80', 'invalid'],
  ['http://127.0.0.1', 'invalid'],
  ['[127.0.0.1]', 'invalid'],
  ['[::1', 'invalid'],
  ['::1]', 'invalid'],
  [':::1', 'invalid'],
  ['::1::', 'invalid'],
  ['::ffff:127.1', 'invalid'],
  ['::ffff:0x7f.0.0.1', 'invalid'],
  ['%eth0', 'invalid'],
];

describe('classifyAddress', () => {
  it.each(TABLE)('classifies %j as %s', (input, expected) => {
    expect(classifyAddress(input)).toBe(expected);
    expect(isPublicAddress(input)).toBe(expected === 'public');
  });

  it('reaches every documented class, and the table uses no other', () => {
    expect(new Set(TABLE.map(([, cls]) => cls))).toEqual(new Set(ADDRESS_CLASSES));
  });

  it('exports the classes as a frozen list without duplicates', () => {
    expect(Object.isFrozen(ADDRESS_CLASSES)).toBe(true);
    expect(new Set(ADDRESS_CLASSES).size).toBe(ADDRESS_CLASSES.length);
  });

  it('treats non-string input as invalid instead of throwing', () => {
    for (const value of [undefined, null, 2130706433, {}, ['127.0.0.1'], Symbol('x')]) {
      expect(classifyAddress(value as unknown as string)).toBe('invalid');
    }
  });
});

const octet = fc.integer({ min: 0, max: 255 });
const ipv4In = (a: number, b?: number): fc.Arbitrary<string> =>
  fc
    .tuple(b === undefined ? octet : fc.constant(b), octet, octet)
    .map(([x, y, z]) => `${a}.${x}.${y}.${z}`);
const anyIPv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const group = fc.integer({ min: 0, max: 0xffff });

describe('classifyAddress properties', () => {
  it('never throws and always returns a documented class', () => {
    const classes = new Set<string>(ADDRESS_CLASSES);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.ipV4(),
          fc.ipV4Extended(),
          fc.ipV6(),
          fc.ipV6().map((ip) => `[${ip}]`),
          fc.tuple(fc.ipV6(), fc.string()).map(([ip, zone]) => `${ip}%${zone}`),
        ),
        (input) => {
          expect(classes.has(classifyAddress(input))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never calls an address in 10/8, 127/8, 169.254/16 or 192.168/16 public, mapped or not', () => {
    const blocked = fc.oneof(ipv4In(10), ipv4In(127), ipv4In(169, 254), ipv4In(192, 168));
    fc.assert(
      fc.property(blocked, (ip) => {
        expect(isPublicAddress(ip)).toBe(false);
        expect(isPublicAddress(`::ffff:${ip}`)).toBe(false);
        expect(isPublicAddress(`[::ffff:${ip}]`)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('never calls an IPv6 address outside 2000::/3 public', () => {
    const first = group.filter((g) => g >> 13 !== 0b001);
    fc.assert(
      fc.property(fc.tuple(first, fc.array(group, { minLength: 7, maxLength: 7 })), ([g, rest]) => {
        const ip = [g, ...rest].map((n) => n.toString(16)).join(':');
        expect(isPublicAddress(ip)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('judges an IPv4-mapped address exactly like its IPv4 part', () => {
    fc.assert(
      fc.property(anyIPv4, (ip) => {
        expect(classifyAddress(`::ffff:${ip}`)).toBe(classifyAddress(ip));
      }),
      { numRuns: 2000 },
    );
  });

  it('never calls an embedded IPv4 form (NAT64, 6to4, Teredo, compatible, translated) public', () => {
    fc.assert(
      fc.property(anyIPv4, group, (ip, g) => {
        for (const form of [
          `64:ff9b::${ip}`,
          `64:ff9b:1::${ip}`,
          `2002:${g.toString(16)}::${ip}`,
          `2001:0:${g.toString(16)}::${ip}`,
          `::${ip}`,
          `::ffff:0:${ip}`,
        ]) {
          expect(isPublicAddress(form)).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
