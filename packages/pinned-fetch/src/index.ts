// Public entry of @garuda/pinned-fetch: named re-exports only; anything not listed is internal.
export { classifyAddress } from './classify-address.js';
export type { AddressClass } from './classify-address.js';
export {
  BlockedAddressError,
  PinnedFetchOptionsError,
  LookupFailedError,
  PinnedFetchError,
  PinnedFetchErrorCode,
} from './errors.js';
export { findBlockedAddressError, isBlockedAddressError } from './find-blocked-address-error.js';
export { createPinnedAgent } from './pinned-agent.js';
export { checkPinnedFetchOptions } from './pinned-agent-options.js';
export type {
  LookupFunction,
  PinnedAgentOptions,
  PinnedFetchOptions,
} from './pinned-agent-options.js';
export { createPinnedFetch } from './pinned-fetch.js';
export type { PinnedFetch } from './pinned-fetch.js';
