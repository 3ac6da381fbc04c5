import type { ServerConfig } from '@garuda/mcp-config';
import type { CommandContext } from '../context.js';

/** Whether a server starts in this terminal: its `--session` switch, else its file's `enabled`. */
export function enabledHere(ctx: CommandContext, server: ServerConfig): boolean {
  return Object.hasOwn(ctx.globals.sessionSwitches, server.name)
    ? (ctx.globals.sessionSwitches[server.name] as boolean)
    : server.def.enabled;
}

/** `yes`, `no`, or `no (this session)` when a `--session` switch differs from the file. */
export function enabledLabel(ctx: CommandContext, server: ServerConfig): string {
  const here = enabledHere(ctx, server);
  return `${here ? 'yes' : 'no'}${here === server.def.enabled ? '' : ' (this session)'}`;
}
