// @modelcontextprotocol/server-everything behind the gateway: its config entry and the names and
// frames the gateway gives what it serves.
import { EVERYTHING } from './paths.js';

/** server-everything as a user's config starts it; `mark` (an argument it ignores) finds it. */
export function everything(mark: string): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, 'stdio', mark] };
}

/** The frame the gateway puts around what a tool of server-everything returned. */
export function framed(tool: string, body: string): string {
  return `<mcp_result server="everything" tool="${tool}">\n${body}\n</mcp_result>`;
}

/** The gateway's URI for one of server-everything's resources. */
export const gatewayUri = (uri: string): string => `garuda://everything/${encodeURIComponent(uri)}`;
