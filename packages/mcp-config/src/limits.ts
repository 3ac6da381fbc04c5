/**
 * The largest configuration file that is read, in bytes (1 MiB). A larger file is reported as
 * a `FILE_TOO_LARGE` problem and none of its servers load; `addServer` / `removeServer` refuse
 * to edit it.
 *
 * @example
 * ```ts
 * show(`mcp.json may be at most ${MAX_CONFIG_BYTES} bytes`); // your UI: the package never prints
 * ```
 */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * How deep arrays and objects may nest. A real configuration needs 5 levels; the limit keeps
 * the recursive JSON parser far from the stack limit, whatever a file holds. @internal
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Problems listed per file; the rest are counted in one `TOO_MANY_PROBLEMS` problem, so a
 * hostile file cannot bury the user (or a log) under thousands of lines. @internal
 */
export const MAX_PROBLEMS_PER_FILE = 100;

/**
 * Syntax errors listed per file: after the first few, they are mostly echoes of the first.
 * @internal
 */
export const MAX_SYNTAX_ERRORS = 5;

/**
 * One expanded env or header value, in characters. Linux refuses a single environment string
 * longer than 128 KiB, so a longer value could not reach the server anyway. @internal
 */
export const MAX_VALUE_LENGTH = 100_000;

/**
 * All expanded values of one server together. `"${PATH}"` written thousands of times must not
 * turn a 1 MiB file into gigabytes of memory. @internal
 */
export const MAX_SERVER_EXPANSION = 1024 * 1024;

/** All expanded values of one `loadConfig` call together. @internal */
export const MAX_TOTAL_EXPANSION = 16 * 1024 * 1024;

/** How many characters of a name, key or value from a file a message quotes. @internal */
export const MAX_QUOTED_CHARS = 64;
