import {
  defaultPaths,
  loadConfig,
  type DefaultPaths,
  type LoadConfigResult,
} from '@garuda/mcp-config';
import type { StatusRow } from '@garuda/mcp-manager';
import type { CommandContext } from './context.js';
import { CliError, ExitCode } from './exit-codes.js';
import { rowDetail } from './format.js';
import type { DeclinedQuestion } from './prompter.js';

/** The files of this run: `--home` and `--root` resolved. */
export function cliPaths(ctx: CommandContext): DefaultPaths {
  return defaultPaths({ home: ctx.globals.home, root: ctx.globals.root });
}

/** Both config files read (nothing started), e.g. to find which server a name belongs to. */
export function readConfig(ctx: CommandContext): Promise<LoadConfigResult> {
  const paths = cliPaths(ctx);
  return loadConfig({ userFile: paths.userFile, projectFile: paths.projectFile, env: ctx.io.env });
}

const STATE_WORDS: Readonly<Record<StatusRow['state'], string>> = {
  connected: 'is connected',
  disabled: 'is disabled',
  denied: 'did not start',
  starting: 'is still starting',
  failed: 'could not be used',
  stopped: 'is stopped',
};

/** Exit 4 with the server's state and why, when the command needs it connected. */
export function notConnected(
  server: string,
  row: StatusRow | undefined,
  declined: readonly DeclinedQuestion[] = [],
): CliError {
  if (row === undefined) {
    return new CliError(
      `No MCP server named "${server}" is configured (see garuda-mcp status).`,
      ExitCode.SERVER,
    );
  }
  const detail = rowDetail(row, declined);
  return new CliError(
    `MCP server "${server}" ${STATE_WORDS[row.state]}${detail ? `: ${detail}` : ''}.`,
    ExitCode.SERVER,
  );
}
