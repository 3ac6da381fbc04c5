// The bound on a URI a server gives, shared by the resource views and a tool's MCP Apps
// metadata (its own file, so neither imports the other).

/** The longest resource URI or URI template taken from a server, in UTF-16 code units. */
export const MAX_RESOURCE_URI_CHARS = 8_192;
