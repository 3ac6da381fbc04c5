import {
  defaultPaths,
  loadConfig,
  type DefaultPaths,
  type LoadConfigResult,
} from '@garuda/mcp-config';
import type { StatusRow } from '@garuda/mcp-manager';
import type { CommandContext } from './context.js';
import { CliError, ExitCode } from './exit-codes.js';

/** The files of this run: `--home` and `--root` resolved. */
export function cliPaths(ctx: CommandContext): DefaultPaths {
  return defaultPaths({ home: ctx.globals.home, root: ctx.globals.root });
}

/** Both config files read (nothing started), e.g. to find which server a name belongs to. */
export function readConfig(ctx: CommandContext): Promise<LoadConfigResult> {
  const paths = cliPaths(ctx);
  return loadConfig({ userFile: paths.userFile, projectFile: paths.projectFile, env: ctx.io.env });
}

/** Exit 4 with the server's state and why, when the command needs it connected. */
export function notConnected(server: string, row: StatusRow | undefined): CliError {
  return new CliError(
    `MCP server "${server}" is ${row?.state ?? 'not configured'}${row?.detail ? `: ${row.detail}` : ''}.`,
    ExitCode.SERVER,
  );
}
