import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { PinnedFetchError } from './errors.js';
import { readLocalAddresses, systemLocalAddresses } from './local-addresses.js';

describe('systemLocalAddresses', () => {
  it("lists every address of this machine's interfaces", () => {
    const expected = Object.values(os.networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((entry) => entry.address);
    expect(systemLocalAddresses()).toEqual(expected);
    expect(systemLocalAddresses()).toContain('127.0.0.1');
  });
});

describe('readLocalAddresses', () => {
  it('canonicalises addresses so other spellings of the same address match', () => {
    const set = readLocalAddresses(() => [
      '2606:4700:4700:0000:0000:0000:0000:1111',
      '::ffff:93.184.216.34',
      'fe80::1%eth0',
      'not an address',
    ]);
    expect([...set].sort()).toEqual(['2606:4700:4700::1111', '93.184.216.34', 'fe80::1'].sort());
  });

  it('wraps a failing source in a PinnedFetchError LOCAL_ADDRESSES_FAILED', () => {
    const cause = new Error('EACCES');
    let thrown: unknown;
    try {
      readLocalAddresses(() => {
        throw cause;
      });
    } catch (error) {
      thrown = error;
    }
    expect(PinnedFetchError.isInstance(thrown)).toBe(true);
    expect((thrown as PinnedFetchError).code).toBe('FETCH_LOCAL_ADDRESSES_FAILED');
    expect((thrown as Error).cause).toBe(cause);
  });
});
