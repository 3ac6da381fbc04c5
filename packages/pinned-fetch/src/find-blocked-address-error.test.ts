import { describe, expect, it } from 'vitest';
import { BlockedAddressError, LookupFailedError } from './errors.js';
import { findBlockedAddressError, isBlockedAddressError } from './find-blocked-address-error.js';

const blocked = new BlockedAddressError({
  host: 'rebind.test',
  address: '127.0.0.1',
  addressClass: 'loopback',
});

function wrap(error: unknown, times: number): unknown {
  let current = error;
  for (let i = 0; i < times; i++) current = new Error(`layer ${i}`, { cause: current });
  return current;
}

describe('findBlockedAddressError', () => {
  it('finds the error itself and behind fetch\'s "fetch failed"', () => {
    expect(findBlockedAddressError(blocked)).toBe(blocked);
    const fetchFailed = new TypeError('fetch failed', { cause: blocked });
    expect(findBlockedAddressError(fetchFailed)).toBe(blocked);
    expect(isBlockedAddressError(fetchFailed)).toBe(true);
  });

  it('walks several cause links and AggregateError members', () => {
    expect(findBlockedAddressError(wrap(blocked, 5))).toBe(blocked);
    const aggregate = new AggregateError([new Error('a'), wrap(blocked, 2)], 'all failed');
    expect(findBlockedAddressError(new TypeError('fetch failed', { cause: aggregate }))).toBe(
      blocked,
    );
  });

  it('recognises a blocked error from another copy of the package', () => {
    const foreign = {
      message: 'refused',
      [Symbol.for('garuda.pinned-fetch.PinnedFetchError')]: true,
      [Symbol.for('garuda.pinned-fetch.BlockedAddressError')]: true,
    };
    expect(findBlockedAddressError(new TypeError('fetch failed', { cause: foreign }))).toBe(
      foreign,
    );
  });

  it('returns undefined for other errors and non-errors', () => {
    const lookup = new LookupFailedError('FETCH_LOOKUP_FAILED', 'x.test', new Error('ENOTFOUND'));
    for (const value of [
      lookup,
      new TypeError('fetch failed', { cause: lookup }),
      new Error('plain'),
      null,
      undefined,
      'FETCH_BLOCKED_ADDRESS',
      { code: 'FETCH_BLOCKED_ADDRESS' },
    ]) {
      expect(findBlockedAddressError(value)).toBeUndefined();
      expect(isBlockedAddressError(value)).toBe(false);
    }
  });

  it('stops on cycles, at a depth limit, and on throwing getters', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    expect(findBlockedAddressError(a)).toBeUndefined();

    expect(findBlockedAddressError(wrap(blocked, 16))).toBe(blocked);
    expect(findBlockedAddressError(wrap(blocked, 17))).toBeUndefined();

    const hostile = new Error('hostile');
    Object.defineProperty(hostile, 'cause', {
      get() {
        throw new Error('gotcha');
      },
    });
    expect(() => findBlockedAddressError(hostile)).not.toThrow();
    expect(findBlockedAddressError(hostile)).toBeUndefined();
  });
});
