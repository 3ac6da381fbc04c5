// Public entry of @garuda/mcp-oauth. Empty until its issue lands; see README.md.
export {};
