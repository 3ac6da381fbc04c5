import {
  ConfigProblemCode,
  defaultPaths,
  formatProblem,
  loadConfig,
  type ConfigProblem,
  type DefaultPaths,
  type LoadConfigResult,
  type ServerConfig,
} from '@garuda/mcp-config';
import type { StatusRow } from '@garuda/mcp-manager';
import type { CommandContext } from './context.js';
import { didYouMean } from './did-you-mean.js';
import { CliError, ExitCode } from './exit-codes.js';
import { rowDetail } from './format.js';
import type { DeclinedQuestion } from './prompter.js';

/** The files of this run: `--home` and `--root` resolved. */
export function cliPaths(ctx: CommandContext): DefaultPaths {
  return defaultPaths({ home: ctx.globals.home, root: ctx.globals.root });
}

/**
 * Both config files read (nothing started), every problem told on stderr first: file, line,
 * column and what to do. Each problem is told once per run (the manager's notices of the same
 * problems are left out).
 */
export async function readConfig(ctx: CommandContext): Promise<LoadConfigResult> {
  const paths = cliPaths(ctx);
  const config = await loadConfig({
    userFile: paths.userFile,
    projectFile: paths.projectFile,
    env: ctx.io.env,
  });
  reportProblems(ctx, config.problems);
  return config;
}

/**
 * Whether a problem is only a warning about one server: a `${NAME}` it takes is not set. That
 * server does not start (the manager says why); the file and every other server are fine, so it
 * never makes a command exit 3.
 */
export function isServerWarning(problem: ConfigProblem): boolean {
  return problem.code === ConfigProblemCode.MISSING_VARIABLE;
}

/** The problems that make a command exit 3: all but {@link isServerWarning}'s. */
export function configProblems(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return problems.filter((problem) => !isServerWarning(problem));
}

/** Tells each problem not told yet on stderr, one line each. */
export function reportProblems(ctx: CommandContext, problems: readonly ConfigProblem[]): void {
  const c = ctx.output.errColour;
  for (const problem of problems) {
    const line = formatProblem(problem);
    if (ctx.shownProblems.has(line)) continue;
    ctx.shownProblems.add(line);
    ctx.output.err(
      `${c.yellow(isServerWarning(problem) ? 'warning:' : 'config problem:')} ${line}`,
    );
  }
}

/** The prefix of the manager's notice for a config problem (`MCP configuration: <problem>`). */
const MANAGER_PROBLEM_NOTICE = 'MCP configuration: ';

/** Whether a notice of the manager repeats a config problem this run has shown already. */
export function isShownProblemNotice(ctx: CommandContext, text: string): boolean {
  return (
    text.startsWith(MANAGER_PROBLEM_NOTICE) &&
    ctx.shownProblems.has(text.slice(MANAGER_PROBLEM_NOTICE.length))
  );
}

/** Problems after which no server of their file was read at all. */
function leavesFileUnread(problem: ConfigProblem): boolean {
  if (problem.server !== undefined) return false;
  switch (problem.code) {
    case ConfigProblemCode.FILE_UNREADABLE:
    case ConfigProblemCode.FILE_TOO_LARGE:
    case ConfigProblemCode.FILE_NOT_TEXT:
    case ConfigProblemCode.INVALID_JSON:
    case ConfigProblemCode.TOO_DEEP:
    case ConfigProblemCode.NOT_AN_OBJECT:
      return true;
    case ConfigProblemCode.DUPLICATE_KEY:
      return problem.field === 'servers' || problem.field === 'mcpServers';
    default:
      return false;
  }
}

/** The files none of whose servers could be read, in order. */
export function unreadFiles(problems: readonly ConfigProblem[]): string[] {
  return [...new Set(problems.filter(leavesFileUnread).map((p) => p.file))];
}

/** Every server name written in the files: the valid ones and those with problems. */
export function configuredNames(config: LoadConfigResult, file?: string): string[] {
  return [
    ...new Set([
      ...config.servers.filter((s) => file === undefined || s.file === file).map((s) => s.name),
      ...config.problems.flatMap((p) =>
        p.server !== undefined && (file === undefined || p.file === file) ? [p.server] : [],
      ),
    ]),
  ];
}

/** `a`, `a and b`. */
function both(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * What to say when no server was loaded: that none is configured, or, when files have
 * problems, which files to fix (never "none configured" for a file that could not be read).
 */
export function noServersLine(problems: readonly ConfigProblem[]): string {
  if (problems.length === 0) {
    return 'No MCP servers are configured. Add one with: garuda-mcp add <name> -- <command> [args…]';
  }
  const files = [...new Set(problems.map((p) => p.file))];
  return `No MCP server was loaded: fix the problems listed above in ${both(files)}.`;
}

/** Exit 2 for a server name that no file has, with the names that are close to it. */
export function unknownServer(name: string, candidates: readonly string[]): CliError {
  return new CliError(
    `No MCP server named ${JSON.stringify(name)} is configured.${didYouMean(name, candidates)} ` +
      '(garuda-mcp list shows every server and its file.)',
    ExitCode.USAGE,
  );
}

/** `garuda-mcp remove <name>` for the file the server is in. */
function removeLine(ctx: CommandContext, name: string, file: string): string {
  const project = file === cliPaths(ctx).projectFile;
  return `garuda-mcp remove ${name}${project ? ' --project' : ''}`;
}

/**
 * The configured server `name`, or the error that says why there is none: its entry is
 * invalid (exit 3, with its problems), its file could not be read (exit 3), or no file has it
 * (exit 2, with close names).
 */
export function findServer(
  ctx: CommandContext,
  config: LoadConfigResult,
  name: string,
): ServerConfig {
  const server = config.servers.find((s) => s.name === name);
  if (server !== undefined) return server;
  const own = config.problems.filter((p) => p.server === name);
  const first = own[0];
  if (first !== undefined) {
    return configProblemOf(ctx, name, first.file, own);
  }
  const unread = unreadFiles(config.problems);
  if (unread.length > 0) {
    throw new CliError(
      `MCP server ${JSON.stringify(name)} was not found, and ${both(unread)} could not be read ` +
        `(see the problems above), so it may be in there: fix ${unread.length === 1 ? 'that file' : 'those files'} first.`,
      ExitCode.CONFIG,
    );
  }
  throw unknownServer(name, configuredNames(config));
}

function configProblemOf(
  ctx: CommandContext,
  name: string,
  file: string,
  problems: readonly ConfigProblem[],
): never {
  const clash = problems.every((p) => p.code === ConfigProblemCode.NAME_CLASH);
  const fix = clash
    ? 'Rename it in the project file to use it.'
    : `Fix it there, or remove it: ${removeLine(ctx, name, file)}`;
  throw new CliError(
    `MCP server ${JSON.stringify(name)} cannot be used: its entry in ${file} ${clash ? 'is ignored' : 'is invalid'}:\n` +
      `${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n${fix}`,
    ExitCode.CONFIG,
  );
}

const STATE_WORDS: Readonly<Record<StatusRow['state'], string>> = {
  connected: 'is connected',
  disabled: 'is disabled',
  denied: 'did not start',
  starting: 'is still starting',
  ready: 'has not started yet',
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
  if (row.state === 'disabled') {
    return new CliError(
      `MCP server "${server}" is disabled in the ${row.source} file: turn it on with ` +
        `garuda-mcp enable ${server}${row.source === 'project' ? ' --project' : ''}`,
      ExitCode.SERVER,
    );
  }
  const detail = rowDetail(row, declined);
  return new CliError(
    `MCP server "${server}" ${STATE_WORDS[row.state]}${detail ? `: ${detail}` : ''}.`,
    ExitCode.SERVER,
  );
}
