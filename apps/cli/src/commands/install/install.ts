import { fileURLToPath } from 'node:url';
import { confirm } from '../../prompts.js';
import {
  HOSTS,
  HostFileError,
  applyHostInstall,
  planHostInstall,
  type HostInstallPlan,
  type HostMovePlan,
} from '@garuda/mcp-config';
import { cliPaths, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { plural } from '../../format.js';
import { IMPORTED_LOCAL_NOTE, importLabel } from '../../shared/import-servers.js';
import { hostErrorText, movePlanLines, shownNames } from './install-move.js';

/** The hosts `garuda-mcp install` knows (mcp-config's descriptors), by the name it takes. */
const INSTALL_BY_NAME: ReadonlyMap<string, (typeof HOSTS)[number]> = new Map(
  [...HOSTS]
    .sort((a, b) => a.installOrder - b.installOrder)
    .map((host) => [host.installName, host]),
);

/** The names `garuda-mcp install` takes, in the order help lists them. */
export const INSTALL_HOSTS: readonly string[] = [...INSTALL_BY_NAME.keys()];

/**
 * The command line a host runs: this very Node and this very CLI (hosts such as Claude Desktop
 * start servers with a short PATH, so a bare `garuda-mcp` may not be found), `serve`, and the
 * project root.
 */
function gatewayCommand(root: string): { command: string; args: string[] } {
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  return { command: process.execPath, args: [bin, 'serve', '--root', root] };
}

/** What `install` was asked besides the host. */
export interface InstallOptions {
  /**
   * `--move` (true): move the host's own servers behind the gateway without asking;
   * `--no-move` (false): leave them; neither: ask on a terminal, else leave them.
   */
  readonly move: boolean | undefined;
}

/** A yes/no question on the terminal (no on Ctrl-C or a closed input). */
async function ask(ctx: CommandContext, message: string): Promise<boolean> {
  return confirm(
    { message, default: false },
    {
      input: ctx.io.stdin,
      output: ctx.io.stderr as unknown as NodeJS.WritableStream,
      signal: ctx.signal,
    },
  ).catch(() => false);
}

/**
 * `garuda-mcp install <host>`: shows the entry it would add to the host's own MCP config (the
 * `serve` command line with this project's root), writes it after a yes (or `--yes`), and keeps
 * every other byte of that file: a JSON file is edited in place (comments and formatting kept),
 * Codex's TOML gets a table appended. An entry that is already there is left alone.
 *
 * When the host's file has servers of its own, they are listed, and moving them behind the
 * gateway is offered as a second question (`--move` answers yes, `--no-move` no; without a
 * terminal the answer is no): they are imported into Garuda's user file as `garuda-mcp import`
 * does, a backup of the host's file is written beside it, and the host's server list is left
 * with the garuda entry and the servers that could not be moved.
 *
 * @returns 0 when written, moved or already there; 4 when the entry was declined; 3 when the
 *   move could not be done (nothing of it is left behind).
 */
export async function installCommand(
  ctx: CommandContext,
  host: string,
  options: InstallOptions = { move: undefined },
): Promise<number> {
  const descriptor = INSTALL_BY_NAME.get(host);
  if (descriptor === undefined) {
    throw usageError(
      `garuda-mcp install takes one of ${INSTALL_HOSTS.join(', ')}, not ${JSON.stringify(host)}.`,
    );
  }
  const { io, globals, output } = ctx;
  const userFile = cliPaths(ctx).userFile;
  const said = {
    name: host,
    client: descriptor.id,
    format: descriptor.format,
    key: descriptor.serversKey,
  };
  const failed = (error: unknown): never => {
    if (!HostFileError.isInstance(error)) throw error;
    throw new CliError(hostErrorText(error, said, userFile), ExitCode.CONFIG);
  };
  const plan = await planHostInstall({
    host: descriptor.id,
    userHome: io.userHome,
    root: globals.root,
    platform: io.platform ?? process.platform,
    // The same places `garuda-mcp import` reads.
    ...(io.env.APPDATA === undefined ? {} : { appData: io.env.APPDATA }),
    ...gatewayCommand(globals.root),
    existingNames: async () => (await readConfig(ctx)).servers.map((server) => server.name),
  }).catch(failed);
  const { file, move: movable } = plan;
  // Moving is asked about (or done, with --move); the plan is shown in full only then.
  const offered = options.move === true || (options.move === undefined && globals.interactive);
  const mayMove = offered && movable !== undefined && movable.moving.length > 0;

  showPlan(ctx, plan, offered, userFile);
  if (plan.addition !== undefined) {
    const yes = globals.yes || (globals.interactive && (await ask(ctx, `Write it to ${file}?`)));
    if (!yes) {
      output.err(
        globals.interactive
          ? 'Nothing was written.'
          : `Nothing was written: there is no terminal to ask on; pass --yes to write it${
              options.move === true ? ' (--move moves the servers only together with it)' : ''
            }.`,
      );
      return ExitCode.SERVER;
    }
  }
  const move =
    mayMove &&
    (options.move === true ||
      (await ask(
        ctx,
        `Move ${plural(movable?.moving.length ?? 0, 'server')} behind the gateway (into ${userFile}, out of ${file})?`,
      )));
  const done = await applyHostInstall(plan, { move, userFile }).catch(failed);
  if (done.moved !== undefined && movable !== undefined) {
    return movedLines(ctx, plan, movable, done.moved, userFile);
  }
  if (plan.addition === undefined) {
    output.out(
      descriptor.format !== 'toml'
        ? `${host}: the garuda entry is already in ${file}; nothing to do.`
        : `${host}: ${file} already has [${descriptor.serversKey}.${plan.name}]; garuda-mcp leaves it as it is (edit it by hand to change it).`,
    );
  } else {
    output.out(`${host}: added the garuda entry to ${file}. Restart ${host} to use it.`);
  }
  if (movable !== undefined) output.err(stillDirect(ctx, host, movable, offered, options.move));
  return ExitCode.OK;
}

/** The entry install would add, the host's own servers, and the servers it leaves. */
function showPlan(
  ctx: CommandContext,
  plan: HostInstallPlan,
  offered: boolean,
  userFile: string,
): void {
  const { output, globals } = ctx;
  const host = plan.host.installName;
  const { file, move } = plan;
  if (plan.addition !== undefined) {
    output.err(
      `garuda-mcp install ${host} adds this entry to ${file}${plan.exists ? '' : ' (a new file)'}:\n\n` +
        plan.addition.replace(/^/gm, '  ') +
        `\n\nThe host then starts garuda-mcp serve for ${globals.root}; every other line of the file stays as it is.`,
    );
  }
  if (move !== undefined) {
    const count = plural(move.servers.length, 'MCP server');
    if (offered) {
      output.err(
        `\n${file} also has ${count} of its own, which ${host} starts directly, not behind the gateway:\n`,
      );
      for (const line of movePlanLines(plan, move, userFile, output.errColour)) output.err(line);
    } else {
      output.err(
        `\n${file} also has ${count} of its own, which ${host} starts directly: ${shownNames(move.servers)}.`,
      );
    }
  }
  if (plan.elsewhere.length > 0) {
    const one = plan.elsewhere.length === 1;
    output.err(
      `${file} also has ${plural(plan.elsewhere.length, 'server')} for one project only (${plan.elsewhere.map(importLabel).join(', ')}): ` +
        `install leaves ${one ? 'it as it is' : 'them as they are'} (garuda-mcp import --from ${plan.host.id} lists ${one ? 'it' : 'them'}).`,
    );
  }
}

/** Which of the host's servers it still starts itself, and why (the move was not done). */
function stillDirect(
  ctx: CommandContext,
  host: string,
  move: HostMovePlan,
  offered: boolean,
  asked: boolean | undefined,
): string {
  const why =
    move.moving.length === 0
      ? `none of them can be moved${offered ? ' (see above)' : ''}`
      : asked === false
        ? '--no-move'
        : ctx.globals.interactive
          ? 'you said no'
          : 'there is no terminal to ask on';
  return (
    `${host} still starts ${shownNames(move.servers)} directly, not behind the gateway (${why}).` +
    (move.moving.length > 0
      ? ` To move ${move.servers.length === 1 ? 'it' : 'them'}: garuda-mcp install ${host} --move`
      : '')
  );
}

/** What a move did. */
function movedLines(
  ctx: CommandContext,
  plan: HostInstallPlan,
  move: HostMovePlan,
  moved: { names: readonly string[]; backup: string },
  userFile: string,
): number {
  const { output } = ctx;
  const host = plan.host.installName;
  output.out(
    `${host}: moved ${plural(moved.names.length, 'server')} behind the gateway: ${moved.names.join(', ')} (now in ${userFile}).`,
  );
  output.out(
    `${plan.file} now starts garuda-mcp serve${
      move.staying.length > 0
        ? `, and still ${plural(move.staying.length, 'server')} of its own that could not be moved: ${shownNames(move.staying.map((s) => s.server))}`
        : ' only'
    }. Its old text is in ${moved.backup}.`,
  );
  if (move.moving.some((server) => 'command' in server.imported.entry)) {
    output.out(output.colour.dim(IMPORTED_LOCAL_NOTE));
  }
  output.out(`Restart ${host} to use it.`);
  return ExitCode.OK;
}
