// The package's limits and defaults, as one read-only record: the public name of each.
import { DEFAULT_MAX_MESSAGE_BYTES } from './process-transport.js';

/**
 * The limits and defaults of `@garuda/mcp-transport`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /** The largest JSON-RPC message read from a server by default: 4 MiB. */
  defaultMaxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
} as const);
