// The package's limits and defaults, as one read-only record: the public name of each.
import {
  DEFAULT_MAX_RESULT_CHARS,
  MAX_TOOL_PATTERNS,
  MAX_TOOL_PATTERN_CHARS,
} from './control-fields.js';
import { MAX_CONFIG_BYTES } from './limits.js';
import { MAX_IMPORT_FILE_BYTES } from './read-source-file.js';

/**
 * The limits and defaults of `@garuda/mcp-config`, read-only. Each is the value the package
 * itself uses.
 *
 * @example
 * ```ts
 * show(`mcp.json may be at most ${LIMITS.maxConfigBytes} bytes`); // your UI: the package never prints
 * ```
 */
export const LIMITS = Object.freeze({
  /**
   * The largest configuration file that is read, in bytes (1 MiB). A larger file is reported as
   * a `FILE_TOO_LARGE` problem and none of its servers load; `addServer` / `removeServer` refuse
   * to edit it.
   */
  maxConfigBytes: MAX_CONFIG_BYTES,
  /**
   * The largest file of another client that is read, in bytes (16 MiB): Claude Code's
   * `~/.claude.json` grows to several megabytes; anything larger is reported as `FILE_TOO_LARGE`.
   */
  maxImportFileBytes: MAX_IMPORT_FILE_BYTES,
  /** How much result text the model reads before the rest goes to a spill file, by default. */
  defaultMaxResultChars: DEFAULT_MAX_RESULT_CHARS,
  /** The longest tool name or pattern in `allowTools`, `denyTools` and `directTools`. */
  maxToolPatternChars: MAX_TOOL_PATTERN_CHARS,
  /** The most entries in one of those lists. */
  maxToolPatterns: MAX_TOOL_PATTERNS,
} as const);
