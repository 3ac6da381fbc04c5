// The package's limits and defaults, as one read-only record: the public name of each.
import { MAX_AUDIT_TEXT_CHARS } from './audit-chain.js';

/**
 * The limits and defaults of `@garuda/mcp-audit`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /** The most characters of argument or result text a line holds when the host opts in. */
  maxAuditTextChars: MAX_AUDIT_TEXT_CHARS,
} as const);
