import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ConfigError,
  ConfigErrorCode,
  FileUnusableError,
  InvalidServerError,
  addServer,
  commandLine,
  formatProblem,
  removeServer,
  secretArguments,
  setServerEnabled,
  type AddServerResult,
  type LoadConfigResult,
  type ServerEntry,
} from '@garuda/mcp-config';
import { serverHomeOf } from '@garuda/mcp-manager';
import { hiddenPathOf } from '@garuda/mcp-transport';
import { LockedFileError } from '@garuda/mcp-trust';
import { cliPaths, configuredNames, readConfig } from '../cli-config.js';
import { writeSessionSwitch } from '../terminal-session.js';
import type { CommandContext } from '../context.js';
import { didYouMean } from '../did-you-mean.js';
import { limitOf } from '../durations.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { looksLiteralSecret, MASK } from '../secrets.js';

/** What `add` was given. */
export interface AddArguments {
  readonly name: string;
  readonly project: boolean;
  /** `-- <command> [args…]` */
  readonly command: readonly string[];
  readonly url: string | undefined;
  readonly headers: readonly string[];
  readonly env: readonly string[];
  readonly network: boolean;
  readonly cwd: string | undefined;
  /** `--write <path>`, repeatable. */
  readonly write: readonly string[];
  /** `--read <path>`, repeatable. */
  readonly read: readonly string[];
  /** `--timeout <ms>`, as typed. */
  readonly timeout: string | undefined;
  /** `--start-timeout <seconds>`, as typed: written as the entry's `startTimeoutMs`. */
  readonly startTimeout?: string | undefined;
  readonly replace: boolean;
}

/** The call time limit the config accepts (the schema's range). */
const TIMEOUT_RANGE = { min: 1000, max: 600_000, default: 60_000 } as const;

/** `K=V` pairs into an object; `K` must be non-empty and given once. */
function pairs(values: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at <= 0) throw usageError(`${flag} takes NAME=VALUE, got ${JSON.stringify(value)}.`);
    const key = value.slice(0, at);
    if (Object.hasOwn(out, key)) throw usageError(`${flag} ${key} is given twice.`);
    out[key] = value.slice(at + 1);
  }
  return out;
}

/** `--timeout` as milliseconds, checked as the config schema checks `timeoutMs`. */
function timeoutOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(ms >= TIMEOUT_RANGE.min && ms <= TIMEOUT_RANGE.max)) {
    throw usageError(
      `--timeout takes the call time limit in milliseconds, a whole number from ` +
        `${TIMEOUT_RANGE.min} to ${TIMEOUT_RANGE.max} (default ${TIMEOUT_RANGE.default}), got ${JSON.stringify(text)}.`,
    );
  }
  return ms;
}

function fileOf(ctx: CommandContext, project: boolean) {
  const paths = cliPaths(ctx);
  return project
    ? { file: paths.projectFile, source: 'project' as const }
    : { file: paths.userFile, source: 'user' as const };
}

/**
 * A config error as CLI output: what is wrong and exit 3 (2 for a wrong argument). Problems
 * this run has told already (the file's, before the edit) are not repeated.
 */
function configFailure(ctx: CommandContext, error: unknown): never {
  if (FileUnusableError.isInstance(error)) {
    const fresh = error.problems.filter((p) => !ctx.shownProblems.has(formatProblem(p)));
    throw new CliError(
      `${error.file} was not changed: fix ${fresh.length === error.problems.length ? 'its problems' : 'the problems listed above'} first.` +
        fresh.map((p) => `\n  ${formatProblem(p)}`).join(''),
      ExitCode.CONFIG,
    );
  }
  if (InvalidServerError.isInstance(error)) {
    // The entry was never in the file, so its problems have no place there: messages only.
    const file = error.problems[0]?.file;
    throw new CliError(
      `Nothing was saved${file === undefined ? '' : ` to ${file}`}:` +
        error.problems.map((p) => `\n  ${p.message}`).join(''),
      ExitCode.CONFIG,
    );
  }
  // The config file's lock errors come from @garuda/mcp-trust, passed through by mcp-config.
  if (ConfigError.isInstance(error) || LockedFileError.isInstance(error)) {
    throw new CliError(
      error.message,
      error.code === ConfigErrorCode.INVALID_ARGUMENT ? ExitCode.USAGE : ExitCode.CONFIG,
    );
  }
  throw error;
}

/**
 * Exit 2 for a name the chosen file does not have: where it is instead (the other file), or
 * the names of that file that are close to it.
 */
function notInFile(
  ctx: CommandContext,
  config: LoadConfigResult,
  name: string,
  project: boolean,
): CliError {
  const { file } = fileOf(ctx, project);
  const other = fileOf(ctx, !project).file;
  const label = project ? 'the project file' : 'your file';
  if (configuredNames(config, other).includes(name)) {
    return new CliError(
      `There is no MCP server ${JSON.stringify(name)} in ${label} (${file}); it is in ` +
        `${project ? 'your file' : 'the project file'} (${other}): ` +
        `${project ? 'leave out --project' : 'add --project'}.`,
      ExitCode.USAGE,
    );
  }
  return new CliError(
    `There is no MCP server ${JSON.stringify(name)} in ${label} (${file}).` +
      `${didYouMean(name, configuredNames(config))} (garuda-mcp list shows every server and its file.)`,
    ExitCode.USAGE,
  );
}

/** What became of the old entry's fields, one line each (nothing for a new server). */
function replacedLines(ctx: CommandContext, result: AddServerResult, project: boolean): string[] {
  const lines: string[] = [];
  if (result.kept.length > 0) {
    const disabled = result.kept.includes('enabled') && !result.def.enabled;
    lines.push(
      `Kept from the old entry: ${result.kept.join(', ')}` +
        (disabled
          ? ` (it stays disabled: garuda-mcp enable ${result.name}${project ? ' --project' : ''} turns it on).`
          : '.'),
    );
  }
  const kind = result.def.kind === 'local' ? 'a local server' : 'a remote server';
  const why = (reason: string, one: boolean): string => {
    const them = one ? 'it' : 'them';
    switch (reason) {
      case 'other-kind':
        return `${kind} does not take ${them}`;
      case 'invalid':
        return `the old ${one ? 'value' : 'values'} would not load`;
      case 'unknown':
        return `no server takes ${them}`;
      default:
        return 'not given';
    }
  };
  const byReason = new Map<string, string[]>();
  for (const { field, reason } of result.dropped) {
    byReason.set(reason, [...(byReason.get(reason) ?? []), field]);
  }
  if (byReason.size > 0) {
    lines.push(
      `Dropped from the old entry: ${[...byReason]
        .map(([reason, fields]) => `${fields.join(', ')} (${why(reason, fields.length === 1)})`)
        .join('; ')}.`,
    );
  }
  return lines.map((line) => ctx.output.colour.dim(line));
}

/** Where a configured path leads: `~/…` from the home folder, relative from the project root. */
function fullPath(ctx: CommandContext, p: string): string {
  const home = p === '~' || p.startsWith('~/');
  return home ? path.join(ctx.io.userHome, p.slice(1)) : path.resolve(ctx.globals.root, p);
}

/** Exit 2 for a `--read` the sandbox would refuse anyway: Garuda's home or a socket place. */
function refuseNeverShown(ctx: CommandContext, paths: readonly string[]): void {
  for (const p of paths) {
    if (p.includes('\0')) continue; // the config's own check says so
    const match = hiddenPathOf(fullPath(ctx, p), {
      home: ctx.io.userHome,
      garudaHome: ctx.globals.home,
    });
    if (match?.kind === 'garudaHome' || match?.kind === 'system') {
      throw usageError(
        `--read ${JSON.stringify(p)} leads into ${match.kind === 'garudaHome' ? "Garuda's own folder (its tokens and trust)" : `${match.path}, whose sockets lead out of the sandbox`}: no server may read it.`,
      );
    }
  }
}

/**
 * Warnings about write or read paths that will keep the server from starting or mean another
 * place.
 */
async function pathWarnings(
  ctx: CommandContext,
  flag: '--write' | '--read',
  paths: readonly string[],
  project: boolean,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const p of paths) {
    const home = p === '~' || p.startsWith('~/');
    if (!home && !path.isAbsolute(p) && !project) {
      warnings.push(
        `${flag} ${JSON.stringify(p)} is relative: it is taken from the project root of each run ` +
          `(write an absolute path for one ${flag === '--write' ? 'folder' : 'place'}).`,
      );
      continue;
    }
    const full = fullPath(ctx, p);
    const info = await stat(full).catch(() => undefined);
    if (info === undefined) {
      warnings.push(
        `${flag} ${JSON.stringify(p)}: ${full} does not exist (yet); the server does not start until it does.`,
      );
    }
  }
  return warnings;
}

/**
 * `garuda-mcp add <name> [--project] -- <command> [args…]` or `add <name> --url <url>
 * [--header K=V]…`: writes the entry to the user's file (or the project's with `--project`),
 * keeping every other byte of the file. Nothing is started. `--replace` gives an existing
 * server a new command line or URL, and the fields its flags give; the old entry's other
 * fields stay, and what is kept or dropped is said.
 */
export async function addCommand(ctx: CommandContext, args: AddArguments): Promise<number> {
  const hasCommand = args.command.length > 0;
  if (hasCommand === (args.url !== undefined)) {
    throw usageError('Give either -- <command> [args…] or --url <url>, not both and not neither.');
  }
  if (hasCommand && args.headers.length > 0) throw usageError('--header is for --url servers.');
  if (
    !hasCommand &&
    (args.env.length > 0 ||
      args.network ||
      args.cwd !== undefined ||
      args.write.length > 0 ||
      args.read.length > 0)
  ) {
    throw usageError('--env, --network, --cwd, --write and --read are for command servers.');
  }
  if (args.write.some((p) => p === '')) throw usageError('--write needs a folder.');
  if (args.read.some((p) => p === '')) throw usageError('--read needs a file or folder.');
  refuseNeverShown(ctx, args.read);
  const timeoutMs = timeoutOf(args.timeout);
  const startTimeoutMs =
    args.startTimeout === undefined ? undefined : limitOf('--start-timeout', args.startTimeout);
  const startLimit = startTimeoutMs === undefined ? {} : { startTimeoutMs };
  const config = await readConfig(ctx);
  let def: ServerEntry;
  if (hasCommand) {
    const [command = '', ...rest] = args.command;
    const env = pairs(args.env, '--env');
    def = {
      command,
      ...(rest.length > 0 ? { args: rest } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
      ...(args.network ? { network: true } : {}),
      ...(args.write.length > 0 ? { writePaths: [...new Set(args.write)] } : {}),
      ...(args.read.length > 0 ? { readPaths: [...new Set(args.read)] } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...startLimit,
    };
  } else {
    const headers = pairs(args.headers, '--header');
    def = {
      url: args.url ?? '',
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...startLimit,
    };
  }
  const { file, source } = fileOf(ctx, args.project);
  let result: AddServerResult;
  try {
    result = await addServer({
      file,
      name: args.name,
      def,
      source,
      replace: args.replace,
      keepOtherFields: args.replace,
    });
  } catch (error) {
    if (ConfigError.isInstance(error) && error.code === ConfigErrorCode.SERVER_EXISTS) {
      throw new CliError(
        `MCP server ${JSON.stringify(args.name)} is already in ${file}.\n` +
          `Use --replace to give it this command line (its other fields stay), or remove it first.`,
        ExitCode.CONFIG,
      );
    }
    configFailure(ctx, error);
  }
  const c = ctx.output.colour;
  // Arguments are kept as written (no ${NAME} in them): a secret there is in the file, and is
  // not shown again here.
  const written = 'command' in result.def ? (result.def.args ?? []) : [];
  const secretArgs = secretArguments(written);
  const what = commandLine(
    secretArgs.length === 0
      ? result.def
      : {
          ...result.def,
          args: written.map(
            (arg, i) => secretArgs.find((a) => a.index === i)?.shown.replace('…', MASK) ?? arg,
          ),
        },
  );
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify(result, null, 2));
  } else {
    ctx.output.out(
      `${result.action === 'added' ? 'Added' : 'Replaced'} MCP server ${c.bold(args.name)} in ${result.file}${result.createdFile ? ' (new file)' : ''}: ${what}`,
    );
    for (const line of replacedLines(ctx, result, args.project)) ctx.output.out(line);
  }
  const e = ctx.output.errColour;
  const literal = [...args.headers, ...args.env].filter((pair) =>
    looksLiteralSecret(pair.slice(pair.indexOf('=') + 1)),
  );
  if (literal.length > 0) {
    ctx.output.err(
      e.yellow(
        `warning: ${literal.map((pair) => pair.slice(0, pair.indexOf('='))).join(', ')} looks like a secret written out. ` +
          `Prefer \${NAME} (taken from your environment when the server starts)` +
          (source === 'project' ? ': a project file is usually shared with others.' : '.'),
      ),
    );
  }
  for (const secret of secretArgs) {
    const variable = secret.variable ?? 'NAME';
    ctx.output.err(
      e.yellow(
        `warning: the argument ${secret.shown} looks like a secret written out, and arguments ` +
          `are kept in ${result.file} as written. If the server can read it from its ` +
          `environment, prefer --env ${variable}='\${${variable}}' (taken from your environment ` +
          "when the server starts; see the server's documentation for the variable it reads)" +
          (source === 'project' ? ': a project file is usually shared with others.' : '.'),
      ),
    );
  }
  for (const warning of [
    ...(await pathWarnings(ctx, '--write', args.write, args.project)),
    ...(await pathWarnings(ctx, '--read', args.read, args.project)),
  ]) {
    ctx.output.err(e.yellow(`warning: ${warning}`));
  }
  if (
    source === 'project' &&
    config.servers.some((s) => s.source === 'user' && s.name === args.name)
  ) {
    ctx.output.err(
      e.yellow(
        `warning: your own file has a server named ${JSON.stringify(args.name)} too, so this project one is ignored (a repository cannot replace a server you configured): give it another name.`,
      ),
    );
  }
  if (source === 'project') {
    ctx.output.err(
      e.dim('Project servers ask for consent before they first start (garuda-mcp status).'),
    );
  }
  return ExitCode.OK;
}

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
