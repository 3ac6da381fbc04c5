// Public entry of @garuda/mcp-manager. Empty until its issue lands; see README.md.
export {};
