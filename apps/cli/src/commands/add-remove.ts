import {
  ConfigError,
  ConfigErrorCode,
  addServer,
  commandLine,
  formatProblem,
  removeServer,
  type ServerEntry,
} from '@garuda/mcp-config';
import { cliPaths } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';

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
  readonly replace: boolean;
}

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

/** A value that looks like a secret written out instead of `${NAME}`. */
function looksLiteralSecret(value: string): boolean {
  return !value.includes('${') && /\b(bearer|token|basic)\b|[A-Za-z0-9_\-.]{24,}/i.test(value);
}

function fileOf(ctx: CommandContext, project: boolean) {
  const paths = cliPaths(ctx);
  return project
    ? { file: paths.projectFile, source: 'project' as const }
    : { file: paths.userFile, source: 'user' as const };
}

/** A config error as CLI output: what is wrong (each problem on its line) and exit 3. */
function configFailure(error: unknown): never {
  if (ConfigError.isInstance(error)) {
    const problems = (error as { problems?: readonly Parameters<typeof formatProblem>[0][] })
      .problems;
    const details = problems?.map((problem) => `  ${formatProblem(problem)}`).join('\n');
    throw new CliError(
      details ? `${error.message}\n${details}` : error.message,
      error.code === ConfigErrorCode.INVALID_ARGUMENT ? ExitCode.USAGE : ExitCode.CONFIG,
    );
  }
  throw error;
}

/**
 * `garuda-mcp add <name> [--project] -- <command> [args…]` or `add <name> --url <url>
 * [--header K=V]…`: writes the entry to the user's file (or the project's with `--project`),
 * keeping every other byte of the file. Nothing is started.
 */
export async function addCommand(ctx: CommandContext, args: AddArguments): Promise<number> {
  const hasCommand = args.command.length > 0;
  if (hasCommand === (args.url !== undefined)) {
    throw usageError('Give either -- <command> [args…] or --url <url>, not both and not neither.');
  }
  if (hasCommand && args.headers.length > 0) throw usageError('--header is for --url servers.');
  if (!hasCommand && (args.env.length > 0 || args.network || args.cwd !== undefined)) {
    throw usageError('--env, --network and --cwd are for command servers.');
  }
  let def: ServerEntry;
  if (hasCommand) {
    const [command = '', ...rest] = args.command;
    const env = pairs(args.env, '--env');
    def = {
      command,
      ...(rest.length > 0 ? { args: rest } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(args.network ? { network: true } : {}),
      ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
    };
  } else {
    const headers = pairs(args.headers, '--header');
    def = { url: args.url ?? '', ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  }
  const { file, source } = fileOf(ctx, args.project);
  let result;
  try {
    result = await addServer({ file, name: args.name, def, source, replace: args.replace });
  } catch (error) {
    if (ConfigError.isInstance(error) && error.code === ConfigErrorCode.SERVER_EXISTS) {
      throw new CliError(
        `${error.message}\nUse --replace to overwrite it, or remove it first.`,
        ExitCode.CONFIG,
      );
    }
    configFailure(error);
  }
  const c = ctx.output.colour;
  const what = commandLine(result.def);
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify({ ...result, def: result.def }, null, 2));
  } else {
    ctx.output.out(
      `${result.action === 'added' ? 'Added' : 'Replaced'} MCP server ${c.bold(args.name)} in ${result.file}${result.createdFile ? ' (new file)' : ''}: ${what}`,
    );
  }
  const literal = [...args.headers, ...args.env].filter((pair) =>
    looksLiteralSecret(pair.slice(pair.indexOf('=') + 1)),
  );
  if (literal.length > 0) {
    ctx.output.err(
      c.yellow(
        `warning: ${literal.map((pair) => pair.slice(0, pair.indexOf('='))).join(', ')} looks like a secret written out. ` +
          `Prefer \${NAME} (taken from your environment when the server starts)` +
          (source === 'project' ? ': a project file is usually shared with others.' : '.'),
      ),
    );
  }
  if (source === 'project') {
    ctx.output.err(
      c.dim('Project servers ask for consent before they first start (garuda-mcp status).'),
    );
  }
  return ExitCode.OK;
}

/** `garuda-mcp remove <name> [--project]`: removes the entry; every other byte stays. */
export async function removeCommand(
  ctx: CommandContext,
  name: string,
  project: boolean,
): Promise<number> {
  const { file } = fileOf(ctx, project);
  try {
    const result = await removeServer({ file, name });
    if (ctx.globals.json) ctx.output.out(JSON.stringify(result, null, 2));
    else ctx.output.out(`Removed MCP server ${ctx.output.colour.bold(name)} from ${result.file}.`);
    return ExitCode.OK;
  } catch (error) {
    if (ConfigError.isInstance(error) && error.code === ConfigErrorCode.NOT_FOUND) {
      const other = fileOf(ctx, !project).file;
      throw new CliError(
        `${error.message}\n${project ? 'Without --project it looks in' : 'With --project it looks in'} ${other}.`,
        ExitCode.CONFIG,
      );
    }
    configFailure(error);
  }
}
