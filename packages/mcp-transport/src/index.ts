// Public entry of @garuda/mcp-transport. Empty until its issue lands; see README.md.
export {};
