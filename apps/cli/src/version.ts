// The CLI's version: put in at build time from apps/cli/package.json (tsup's `define`, and
// vitest's for tests that load the source), so `--version` and the `clientInfo` every server is
// sent say the version that was published, wherever the built files end up.
declare const __GARUDA_MCP_VERSION__: string;

/** The version of this `garuda-mcp`, as its package.json had it when it was built. */
export const CLI_VERSION: string = __GARUDA_MCP_VERSION__;
