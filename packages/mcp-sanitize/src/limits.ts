// The package's limits and defaults, as one read-only record: the public name of each.
import { MAX_TAGS } from './neutralize-tags.js';
import { MAX_URL_LENGTH } from './check-url.js';

/**
 * The limits and defaults of `@garuda/mcp-sanitize`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /** The most tag names one list may hold. */
  maxTags: MAX_TAGS,
  /** The longest URL {@link checkUrl} takes (a `data:` icon included). */
  maxUrlLength: MAX_URL_LENGTH,
} as const);
