// The shapes this package hands out. Everything in them that came from a server has been
// cleaned already (cleanLine for one-line fields, cleanText otherwise).

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
}

/** What a person is shown before a tool runs (from `callPreview`). */
export interface CallPreview {
  /** Server name. */
  readonly server: string;
  /** The tool's MCP name (cleaned). */
  readonly tool: string;
  /** The name the model used, `mcp__<server>__<tool>`. */
  readonly name: string;
  /** The server's hints, each marked as not verified, e.g. `read-only (not verified)`. */
  readonly hints: readonly string[];
  /** The arguments as cleaned, pretty JSON, capped. */
  readonly arguments: string;
}
