import type { McpManager } from '@garuda/mcp-manager';
import type { Server } from '@modelcontextprotocol/server';

/** What a list's handlers need: the server they answer on, the manager, its start, the end. */
export interface Offered {
  readonly server: Server;
  readonly mcp: McpManager;
  /** Settles once the manager's start ended: lists wait for it. */
  readonly started: Promise<void>;
  /** Ends every request's work. */
  readonly signal: AbortSignal;
}
