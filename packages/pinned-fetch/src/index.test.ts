import { checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('public entry', () => {
  checkPublicEntry(api, api.PinnedFetchErrorCode, import.meta.url);

  it('exports the documented types', () => {
    // Compile-time check (tsc --noEmit covers test files): each type is importable and usable.
    const cls: api.AddressClass = 'public';
    const blocked: api.BlockedAddressError['addressClass'] = 'thisHost';
    const code: api.PinnedFetchErrorCode = 'FETCH_BLOCKED_ADDRESS';
    const options: api.PinnedFetchOptions & api.PinnedAgentOptions = { allowLoopback: false };
    const tls: NonNullable<api.PinnedAgentOptions['tls']> = { rejectUnauthorized: true };
    const lookup: api.LookupFunction | undefined = undefined;
    const input: Parameters<api.PinnedFetch>[0] = 'https://example.com/';
    const init: NonNullable<Parameters<api.PinnedFetch>[1]> = { method: 'GET' };
    const fetcher: api.PinnedFetch | undefined = undefined;
    expect([cls, blocked, code, options, tls, lookup, input, init, fetcher]).toHaveLength(9);
  });
});
