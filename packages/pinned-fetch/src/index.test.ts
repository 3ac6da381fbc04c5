import { checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

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
  checkPublicEntry(api, DOCUMENTED_VALUES, api.PinnedFetchErrorCode, import.meta.url);

  it('exports the documented types', () => {
    // Compile-time check (tsc --noEmit covers test files): each type is importable and usable.
    const cls: api.AddressClass = 'public';
    const blocked: api.BlockedAddressClass = 'thisHost';
    const code: api.PinnedFetchErrorCode = 'BLOCKED_ADDRESS';
    const options: api.PinnedFetchOptions & api.PinnedAgentOptions = { allowLoopback: false };
    const tls: api.PinnedTlsOptions = { rejectUnauthorized: true };
    const lookup: api.LookupFunction | undefined = undefined;
    const input: api.PinnedFetchInput = 'https://example.com/';
    const init: api.PinnedFetchInit = { method: 'GET' };
    const fetcher: api.PinnedFetch | undefined = undefined;
    expect([cls, blocked, code, options, tls, lookup, input, init, fetcher]).toHaveLength(9);
  });
});
