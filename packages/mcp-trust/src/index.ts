// Public entry of @garuda/mcp-trust. Empty until its issue lands; see README.md.
export {};
