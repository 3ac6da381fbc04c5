import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import type {
  AddressClass,
  BlockedAddressClass,
  LookupFunction,
  PinnedAgentOptions,
  PinnedFetch,
  PinnedFetchErrorCode,
  PinnedFetchInit,
  PinnedFetchInput,
  PinnedFetchOptions,
  PinnedTlsOptions,
} from './index.js';

// The public surface, as documented in README.md. Adding or removing an export is a
// deliberate change: update the README and this list together.
const DOCUMENTED_VALUES = [
  'ADDRESS_CLASSES',
  'BlockedAddressError',
  'InvalidOptionsError',
  'LookupFailedError',
  'PinnedFetchError',
  'PinnedFetchErrorCode',
  'classifyAddress',
  'createPinnedAgent',
  'createPinnedFetch',
  'findBlockedAddressError',
  'isBlockedAddressError',
  'isPublicAddress',
];

describe('public entry', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([...DOCUMENTED_VALUES].sort());
  });

  it('exports the documented types', () => {
    // Compile-time check (tsc --noEmit covers test files): each type is importable and usable.
    const cls: AddressClass = 'public';
    const blocked: BlockedAddressClass = 'thisHost';
    const code: PinnedFetchErrorCode = 'BLOCKED_ADDRESS';
    const options: PinnedFetchOptions & PinnedAgentOptions = { allowLoopback: false };
    const tls: PinnedTlsOptions = { rejectUnauthorized: true };
    const lookup: LookupFunction | undefined = undefined;
    const input: PinnedFetchInput = 'https://example.com/';
    const init: PinnedFetchInit = { method: 'GET' };
    const fetcher: PinnedFetch | undefined = undefined;
    expect([cls, blocked, code, options, tls, lookup, input, init, fetcher]).toHaveLength(9);
  });
});
