// The JSON Schema of an mcp.json, made from the same zod schemas the loader checks each server
// with, so an editor completes and checks the file as garuda-mcp reads it. It describes the
// shape: the loader also checks what a schema cannot say (a URL's scheme and address, reserved
// headers, `path_scoped` only for a declared read or write server…).
import * as z from 'zod/mini';
import { SERVER_NAME, localServerSchema, remoteServerSchema } from './server-schema.js';

/**
 * Where the published schema is read from: the `mcp.schema.json` of this package on the npm CDN.
 * `garuda-mcp` writes it as the `"$schema"` of each config file it creates.
 */
export const MCP_CONFIG_SCHEMA_URL = 'https://unpkg.com/@garuda/mcp-config/mcp.schema.json';

/**
 * The JSON Schema (draft 2020-12) of a Garuda `mcp.json`: `"$schema"` (optional), and
 * `"servers"` or `"mcpServers"` (not both), name → a local (`command`) or a remote (`url`)
 * server, with every field garuda-mcp knows and no other. The package ships it as
 * `@garuda/mcp-config/mcp.schema.json`.
 *
 * @returns A fresh JSON object.
 * @example
 * ```ts
 * const schema = mcpConfigJsonSchema();
 * schema.$id; // 'https://unpkg.com/@garuda/mcp-config/mcp.schema.json'
 * ```
 */
export function mcpConfigJsonSchema(): Record<string, unknown> {
  const server = z.union([localServerSchema, remoteServerSchema]);
  const servers = z.record(z.string().check(z.regex(SERVER_NAME)), server);
  const file = z.strictObject({
    $schema: z.optional(z.string()),
    servers: z.optional(servers),
    mcpServers: z.optional(servers),
  });
  // `unrepresentable: 'any'`: a refinement (such as "not __proto__") has no JSON Schema form; the
  // loader still checks it.
  const generated = z.toJSONSchema(file, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const { $schema: dialect, ...rest } = generated;
  return {
    $schema: dialect,
    $id: MCP_CONFIG_SCHEMA_URL,
    title: 'Garuda MCP servers (mcp.json)',
    description:
      'MCP servers for garuda-mcp: local ones (command, args, env, cwd, network, writePaths, readPaths) run in an OS sandbox, remote ones (url, headers, oauth) over Streamable HTTP. garuda-mcp checks more than this schema can say.',
    ...rest,
    // One list of servers: a file with both is refused.
    not: { required: ['servers', 'mcpServers'] },
  };
}
