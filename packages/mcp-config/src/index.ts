// Public entry of @garuda/mcp-config. Empty until its issue lands; see README.md.
export {};
