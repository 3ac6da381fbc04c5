import { rm, stat } from 'node:fs/promises';
import { ConfigError, ConfigErrorCode, commandLine, removeServer } from '@garuda/mcp-config';
import { serverHomeOf } from '@garuda/mcp-manager';
import { readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import { configFailure, fileOf, notInFile } from '../../shared/server-file.js';

/** A removed server's home folder: where it is, if it has one, and whether it was deleted. */
async function removedHome(
  ctx: CommandContext,
  name: string,
  project: boolean,
  deleteHome: boolean,
): Promise<{ readonly path: string; readonly kept: boolean } | undefined> {
  let home: string;
  try {
    const source = project ? 'project' : 'user';
    home = serverHomeOf(ctx.globals.serverHomesDir, { name, source }, ctx.globals.root);
  } catch {
    return undefined; // a name no folder can have: it never had a home
  }
  if ((await stat(home).catch(() => undefined)) === undefined) return undefined;
  if (!deleteHome) return { path: home, kept: true };
  await rm(home, { recursive: true, force: true });
  return { path: home, kept: false };
}

/**
 * `garuda-mcp remove <name> [--project] [--delete-home]`: removes the entry; every other byte
 * stays. Its home folder is kept (a server added again under the name finds its data), and said
 * so; `--delete-home` deletes it too.
 */
export async function removeCommand(
  ctx: CommandContext,
  name: string,
  project: boolean,
  deleteHome = false,
): Promise<number> {
  const config = await readConfig(ctx);
  const { file } = fileOf(ctx, project);
  try {
    const result = await removeServer({ file, name });
    const home = await removedHome(ctx, name, project, deleteHome);
    if (ctx.globals.json) {
      ctx.output.out(JSON.stringify(home === undefined ? result : { ...result, home }, null, 2));
      return ExitCode.OK;
    }
    ctx.output.out(`Removed MCP server ${ctx.output.colour.bold(name)} from ${result.file}.`);
    if (home?.kept === true) {
      ctx.output.out(
        `Its home folder ${home.path} is kept (a server added again as "${name}" finds its data there). ` +
          `To delete it: ${commandLine({ command: 'rm', args: ['-rf', '--', home.path] })}`,
      );
    } else if (home !== undefined) {
      ctx.output.out(`Deleted its home folder ${home.path}.`);
    }
    return ExitCode.OK;
  } catch (error) {
    if (ConfigError.isInstance(error) && error.code === ConfigErrorCode.NOT_FOUND) {
      throw notInFile(ctx, config, name, project);
    }
    configFailure(ctx, error);
  }
}
