import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  InvalidOptionsError,
  localAddressesError,
  LookupFailedError,
  PinnedFetchError,
  PinnedFetchErrorCode,
} from './errors.js';

const dnsError = Object.assign(new Error('getaddrinfo ENOTFOUND evil.test'), { code: 'ENOTFOUND' });

const samples = [
  {
    error: new BlockedAddressError({
      host: 'evil.test',
      address: '127.0.0.1',
      addressClass: 'loopback',
    }),
    Class: BlockedAddressError,
    name: 'BlockedAddressError',
    code: 'BLOCKED_ADDRESS',
  },
  {
    error: new LookupFailedError('LOOKUP_FAILED', 'evil.test', dnsError),
    Class: LookupFailedError,
    name: 'LookupFailedError',
    code: 'LOOKUP_FAILED',
  },
  {
    error: new LookupFailedError('NO_ADDRESSES', 'empty.test'),
    Class: LookupFailedError,
    name: 'LookupFailedError',
    code: 'NO_ADDRESSES',
  },
  {
    error: new InvalidOptionsError('connectTimeoutMs', 'expected a positive number'),
    Class: InvalidOptionsError,
    name: 'InvalidOptionsError',
    code: 'INVALID_OPTIONS',
  },
  {
    error: localAddressesError(new Error('uv_interface_addresses failed')),
    Class: PinnedFetchError,
    name: 'PinnedFetchError',
    code: 'LOCAL_ADDRESSES_FAILED',
  },
] as const;

describe('error classes', () => {
  it('has stable, frozen codes', () => {
    expect(PinnedFetchErrorCode).toEqual({
      BLOCKED_ADDRESS: 'BLOCKED_ADDRESS',
      LOOKUP_FAILED: 'LOOKUP_FAILED',
      NO_ADDRESSES: 'NO_ADDRESSES',
      INVALID_OPTIONS: 'INVALID_OPTIONS',
      LOCAL_ADDRESSES_FAILED: 'LOCAL_ADDRESSES_FAILED',
    });
    expect(Object.isFrozen(PinnedFetchErrorCode)).toBe(true);
  });

  it.each(samples)(
    '$name ($code) has its code, name, base class and marker',
    ({ error, Class, name, code }) => {
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(PinnedFetchError);
      expect(error).toBeInstanceOf(Class);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      expect(PinnedFetchError.isInstance(error)).toBe(true);
      expect(Class.isInstance(error)).toBe(true);
      expect(String(error)).toMatch(new RegExp(`^${name}: `));
      for (const other of samples) {
        const above = other.Class === Class || Class.prototype instanceof other.Class;
        expect(other.Class.isInstance(error)).toBe(above);
      }
    },
  );

  it('passes the cause through', () => {
    expect(new LookupFailedError('LOOKUP_FAILED', 'evil.test', dnsError).cause).toBe(dnsError);
    expect('cause' in new LookupFailedError('NO_ADDRESSES', 'empty.test')).toBe(false);
    const inner = new Error('EACCES');
    expect(localAddressesError(inner).cause).toBe(inner);
    expect(new PinnedFetchError('INVALID_OPTIONS', 'x', { cause: inner }).cause).toBe(inner);
    expect('cause' in new PinnedFetchError('INVALID_OPTIONS', 'x')).toBe(false);
  });

  it('recognises errors from another copy of the package by their markers', () => {
    const foreign = {
      name: 'BlockedAddressError',
      code: 'BLOCKED_ADDRESS',
      [Symbol.for('garuda.pinned-fetch.PinnedFetchError')]: true,
      [Symbol.for('garuda.pinned-fetch.BlockedAddressError')]: true,
    };
    expect(PinnedFetchError.isInstance(foreign)).toBe(true);
    expect(BlockedAddressError.isInstance(foreign)).toBe(true);
    expect(LookupFailedError.isInstance(foreign)).toBe(false);
  });

  it('does not mistake look-alikes for its errors', () => {
    const lookAlike = Object.assign(new Error('x'), {
      name: 'BlockedAddressError',
      code: 'BLOCKED_ADDRESS',
    });
    for (const value of [
      lookAlike,
      { [Symbol.for('garuda.pinned-fetch.PinnedFetchError')]: 'yes' },
      { [Symbol('garuda.pinned-fetch.PinnedFetchError')]: true },
      null,
      undefined,
      'BlockedAddressError',
      42,
    ]) {
      expect(PinnedFetchError.isInstance(value)).toBe(false);
      expect(BlockedAddressError.isInstance(value)).toBe(false);
    }
  });
});

describe('messages', () => {
  it('says what was refused, why, and what to do', () => {
    const error = new BlockedAddressError({
      host: 'evil.test',
      address: '127.0.0.1',
      addressClass: 'loopback',
    });
    expect(error.message).toBe(
      'refused to connect to "evil.test" at 127.0.0.1: a loopback address. Only public ' +
        'addresses are allowed; to reach a server on this machine on purpose, create the fetch ' +
        'with allowLoopback: true.',
    );
    expect(error.host).toBe('evil.test');
    expect(error.address).toBe('127.0.0.1');
    expect(error.addressClass).toBe('loopback');
  });

  it.each([
    ['metadata', 'a cloud metadata endpoint'],
    ['thisHost', "an address of this machine's own network interfaces"],
    ['nat64', 'a NAT64 address'],
    ['private', 'resolves only to public addresses'],
  ] as const)('explains the %s class', (addressClass, text) => {
    const error = new BlockedAddressError({ host: 'a.test', address: '10.0.0.1', addressClass });
    expect(error.message).toContain(text);
  });

  it('JSON-quotes host names so control characters cannot reach a terminal', () => {
    const host = 'evil\u001b[2J\u0007.test\r\nfake: line\u202e\u200b';
    const messages = [
      new BlockedAddressError({ host, address: '127.0.0.1', addressClass: 'loopback' }).message,
      new LookupFailedError('LOOKUP_FAILED', host, dnsError).message,
      new LookupFailedError('NO_ADDRESSES', host).message,
      new BlockedAddressError({ host: 'a.test', address: `1.2.3.4\u001b`, addressClass: 'invalid' })
        .message,
    ];
    for (const message of messages) {
      expect(message).toMatch(/^[\x20-\x7e]*$/);
    }
    expect(messages[0]).toContain('"evil\\u001b[2J\\u0007.test\\r\\nfake: line\\u202e\\u200b"');
  });

  it('cuts very long values', () => {
    const { message } = new LookupFailedError('NO_ADDRESSES', 'a'.repeat(10_000));
    expect(message.length).toBeLessThan(400);
    expect(message).toContain(`"${'a'.repeat(256)}\\u2026"`);
  });

  it('names the resolver error code in a lookup failure', () => {
    expect(new LookupFailedError('LOOKUP_FAILED', 'evil.test', dnsError).message).toBe(
      'could not resolve "evil.test" (ENOTFOUND); check the host name and this machine\'s DNS settings.',
    );
    expect(new LookupFailedError('LOOKUP_FAILED', 'x.test', new Error('boom')).message).toContain(
      '(boom)',
    );
    expect(new LookupFailedError('LOOKUP_FAILED', 'x.test', 'weird').message).toContain(
      '(unknown error)',
    );
  });

  it('names the option at fault', () => {
    const error = new InvalidOptionsError('tls.servername', 'not supported');
    expect(error.option).toBe('tls.servername');
    expect(error.message).toBe('invalid option tls.servername: not supported');
  });
});
