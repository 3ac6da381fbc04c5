// Entry of the garuda-mcp CLI. Empty until the CLI issue lands; see README.md.
export {};
