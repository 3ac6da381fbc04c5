// The shapes this package hands out. Everything in them that came from a server has been
// cleaned already (cleanLine for one-line fields, cleanText otherwise).
import type { ResultContent } from './result-content.js';

/** A tool as given to the model (from `adaptTools`). */
export interface McpTool {
  /** `mcp__<server>__<tool>`, matching `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  /** Server name. */
  readonly server: string;
  /** The tool's MCP name, as the server knows it (used for the call). */
  readonly tool: string;
  /** `[From MCP server "x". …]` plus the cleaned description, at most 2 000 characters. */
  readonly description: string;
  /** The cleaned, tag-neutralised input schema (a JSON object, at most 20 000 characters as JSON). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Never true: a server's read-only hint is not trusted. */
  readonly readOnly: false;
  /** The server's hints, cleaned, each marked `(not verified)`. */
  readonly hints: readonly string[];
}

/** A tool call's result as the model reads it (from `formatResult`). */
export interface CallResult {
  /** `<mcp_result server="x" tool="y">…</mcp_result>`: cleaned, tag-neutralised, capped. */
  readonly text: string;
  /** The server's own `isError`. */
  readonly isError: boolean;
  /**
   * The result's content blocks typed, for hosts that render images, audio, links or resources
   * themselves (the model reads `text`); empty when the result had no list of blocks.
   */
  readonly content: readonly ResultContent[];
}

/**
 * A value as a person is shown it in a call preview: cleaned JSON text (every string and key
 * through `cleanText`, tags neutralised), pretty-printed with two spaces when it is an object or
 * an array, capped.
 */
export interface PreviewValue {
  /**
   * The JSON text, e.g. `"is:open"`, `5` or `[\n  "bug"\n]`. A string's line breaks and tabs
   * stay escaped (`\n`), so only an object's or array's own layout spans lines. When cut, it ends
   * with `capText`'s marker (`[… N more characters cut]`).
   */
  readonly value: string;
  /** Whether `value` was cut to fit the preview's budget. */
  readonly truncated: boolean;
}

/** One top-level argument of a call, as a person is shown it (from `callPreview`). */
export interface PreviewArgument extends PreviewValue {
  /**
   * The argument's name, cleaned to one line, tag-neutralised, at most 200 code points (`…` when
   * cut). Two names that differ only in removed characters each keep their own entry.
   */
  readonly name: string;
}

/** What a person is shown before a tool runs (from `callPreview`); `callPreviewText` words it. */
export interface CallPreview {
  /** Server name. */
  readonly server: string;
  /** The tool's MCP name (cleaned). */
  readonly tool: string;
  /** The name the model used, `mcp__<server>__<tool>`. */
  readonly name: string;
  /** The server's hints, each marked as not verified, e.g. `read-only (not verified)`. */
  readonly hints: readonly string[];
  /**
   * The arguments, one entry per top-level property in the model's order: at most 50, their
   * values at most 4 000 characters together. Empty for no arguments (`{}`), and when the
   * arguments are not a JSON object (then `nonObjectArguments` holds them).
   */
  readonly arguments: readonly PreviewArgument[];
  /** How many top-level arguments are not in `arguments` (past the first 50); 0 when none. */
  readonly omittedArguments: number;
  /**
   * Only when the arguments are not a JSON object — an array, a string, a number, `null`, a
   * `Date`…, none of which a tool call takes: the whole value, capped at 4 000 characters.
   */
  readonly nonObjectArguments?: PreviewValue;
}
