import { ConfigError, ConfigErrorCode, setServerEnabled } from '@garuda/mcp-config';
import { readConfig } from '../cli-config.js';
import { writeSessionSwitch } from '../terminal-session.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { configFailure, fileOf, notInFile } from './server-file.js';

/**
 * `garuda-mcp enable <name> [--project]` / `disable`: sets the server's `"enabled"` in the
 * user's file (or the project's); every other byte stays. A disabled server is listed, not
 * started.
 */
/** Which switch `enable` / `disable` sets. */
export interface SetEnabledOptions {
  /** `--project`: the project's file. */
  readonly project: boolean;
  /** `--session`: this terminal session only, no file changed. */
  readonly session: boolean;
  readonly enabled: boolean;
}

/**
 * `enable|disable <name> --session`: the switch holds for every command of this terminal
 * session (Linux: the shell's session), and the config files are not touched.
 */
async function setSessionSwitch(
  ctx: CommandContext,
  name: string,
  enabled: boolean,
): Promise<number> {
  const config = await readConfig(ctx);
  if (!config.servers.some((server) => server.name === name)) {
    throw notInFile(ctx, config, name, false);
  }
  const { session } = ctx.globals;
  if (session === undefined) {
    throw new CliError(
      "--session needs the terminal session this command runs in, and this system does not show it: it is read from /proc on Linux, which shows none when the shell's session began outside this PID namespace (as in some containers). Use enable/disable without --session to change the file.",
      ExitCode.USAGE,
    );
  }
  await writeSessionSwitch(ctx.globals.home, session, name, enabled);
  const c = ctx.output.colour;
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify({ name, enabled, session: session.id }, null, 2));
  } else {
    ctx.output.out(
      `MCP server ${c.bold(name)} is ${enabled ? 'on' : 'off'} for this terminal session only (session ${session.id}); no file was changed.`,
    );
  }
  return ExitCode.OK;
}

export async function setEnabledCommand(
  ctx: CommandContext,
  name: string,
  options: SetEnabledOptions,
): Promise<number> {
  const { project, enabled } = options;
  if (options.session && project) {
    throw usageError('--session changes no file: it cannot be given with --project.');
  }
  if (options.session) return setSessionSwitch(ctx, name, enabled);
  const config = await readConfig(ctx);
  const { file } = fileOf(ctx, project);
  let result;
  try {
    result = await setServerEnabled({ file, name, enabled });
  } catch (error) {
    if (ConfigError.isInstance(error) && error.code === ConfigErrorCode.NOT_FOUND) {
      throw notInFile(ctx, config, name, project);
    }
    configFailure(ctx, error);
  }
  const c = ctx.output.colour;
  const flag = project ? ' --project' : '';
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify(result, null, 2));
  } else if (!result.changed) {
    ctx.output.out(
      `MCP server ${c.bold(name)} is already ${enabled ? 'enabled' : 'disabled'} in ${file}; nothing was changed.`,
    );
  } else if (enabled) {
    ctx.output.out(`Enabled MCP server ${c.bold(name)} in ${file}.`);
  } else {
    ctx.output.out(
      `Disabled MCP server ${c.bold(name)} in ${file}: it is listed, not started (garuda-mcp enable ${name}${flag} turns it on again).`,
    );
  }
  if (enabled && !config.servers.some((s) => s.name === name && s.file === file)) {
    ctx.output.err(
      ctx.output.errColour.yellow(
        `warning: MCP server ${JSON.stringify(name)} was not loaded (see the problems above): it does not start until they are fixed.`,
      ),
    );
  }
  return ExitCode.OK;
}
