import { checkErrorSamples, checkForeignCopies } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  BlockedAddressError,
  PinnedFetchOptionsError,
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
    code: 'FETCH_BLOCKED_ADDRESS',
  },
  {
    error: new LookupFailedError('FETCH_LOOKUP_FAILED', 'evil.test', dnsError),
    Class: LookupFailedError,
    name: 'LookupFailedError',
    code: 'FETCH_LOOKUP_FAILED',
  },
  {
    error: new LookupFailedError('FETCH_NO_ADDRESSES', 'empty.test'),
    Class: LookupFailedError,
    name: 'LookupFailedError',
    code: 'FETCH_NO_ADDRESSES',
  },
  {
    error: new PinnedFetchOptionsError('connectTimeoutMs', 'expected a positive number'),
    Class: PinnedFetchOptionsError,
    name: 'PinnedFetchOptionsError',
    code: 'FETCH_INVALID_OPTIONS',
  },
  {
    error: localAddressesError(new Error('uv_interface_addresses failed')),
    Class: PinnedFetchError,
    name: 'PinnedFetchError',
    code: 'FETCH_LOCAL_ADDRESSES_FAILED',
  },
] as const;

describe('error classes', () => {
  it('has stable, frozen codes', () => {
    expect(PinnedFetchErrorCode).toEqual({
      BLOCKED_ADDRESS: 'FETCH_BLOCKED_ADDRESS',
      LOOKUP_FAILED: 'FETCH_LOOKUP_FAILED',
      NO_ADDRESSES: 'FETCH_NO_ADDRESSES',
      INVALID_OPTIONS: 'FETCH_INVALID_OPTIONS',
      LOCAL_ADDRESSES_FAILED: 'FETCH_LOCAL_ADDRESSES_FAILED',
    });
    expect(Object.isFrozen(PinnedFetchErrorCode)).toBe(true);
  });

  checkErrorSamples(PinnedFetchError, samples);

  it.each(samples)('$name ($code) prints its name first', ({ error, name }) => {
    expect(String(error)).toMatch(new RegExp(`^${name}: `));
  });

  it('passes the cause through', () => {
    expect(new LookupFailedError('FETCH_LOOKUP_FAILED', 'evil.test', dnsError).cause).toBe(
      dnsError,
    );
    expect('cause' in new LookupFailedError('FETCH_NO_ADDRESSES', 'empty.test')).toBe(false);
    const inner = new Error('EACCES');
    expect(localAddressesError(inner).cause).toBe(inner);
    expect(new PinnedFetchError('FETCH_INVALID_OPTIONS', 'x', { cause: inner }).cause).toBe(inner);
    expect('cause' in new PinnedFetchError('FETCH_INVALID_OPTIONS', 'x')).toBe(false);
  });

  it('recognises errors from another copy of the package by their markers', () => {
    const foreign = {
      name: 'BlockedAddressError',
      code: 'FETCH_BLOCKED_ADDRESS',
      [Symbol.for('garuda.pinned-fetch.PinnedFetchError')]: true,
      [Symbol.for('garuda.pinned-fetch.BlockedAddressError')]: true,
    };
    expect(PinnedFetchError.isInstance(foreign)).toBe(true);
    expect(BlockedAddressError.isInstance(foreign)).toBe(true);
    expect(LookupFailedError.isInstance(foreign)).toBe(false);
  });

  checkForeignCopies(PinnedFetchError, 'garuda.pinned-fetch.PinnedFetchError', [
    BlockedAddressError,
    LookupFailedError,
    PinnedFetchOptionsError,
  ]);
});
