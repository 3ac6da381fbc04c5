import {
  ConfigError,
  ConfigErrorCode,
  addServer,
  commandLine,
  secretArguments,
  type AddServerResult,
  type ServerEntry,
} from '@garuda/mcp-config';
import { readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { limitOf } from '../../durations.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { MASK } from '../../secrets.js';
import { configFailure, fileOf } from '../../shared/server-file.js';
import { addWarnings, refuseNeverShown } from './add-warnings.js';

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

/** Exit 2 for flags that do not go together, or that name no folder. */
function checkArguments(ctx: CommandContext, args: AddArguments): void {
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
}

/** The entry the flags describe: a local command or a remote URL, with its limits. */
function entryOf(args: AddArguments): ServerEntry {
  const timeoutMs = timeoutOf(args.timeout);
  const startTimeoutMs =
    args.startTimeout === undefined ? undefined : limitOf('--start-timeout', args.startTimeout);
  const limits = {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
  };
  if (args.command.length > 0) {
    const [command = '', ...rest] = args.command;
    const env = pairs(args.env, '--env');
    return {
      command,
      ...(rest.length > 0 ? { args: rest } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(args.cwd === undefined ? {} : { cwd: args.cwd }),
      ...(args.network ? { network: true } : {}),
      ...(args.write.length > 0 ? { writePaths: [...new Set(args.write)] } : {}),
      ...(args.read.length > 0 ? { readPaths: [...new Set(args.read)] } : {}),
      ...limits,
    };
  }
  const headers = pairs(args.headers, '--header');
  return {
    url: args.url ?? '',
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...limits,
  };
}

/** Writes the entry; an existing name without `--replace` is exit 3 with what to do. */
async function writeEntry(
  ctx: CommandContext,
  args: AddArguments,
  def: ServerEntry,
  { file, source }: ReturnType<typeof fileOf>,
): Promise<AddServerResult> {
  try {
    return await addServer({
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
}

/**
 * The written entry's command line, a secret-looking argument masked: arguments are kept as
 * written (no ${NAME} in them), so a secret there is in the file, and is not shown again here.
 */
function shownCommandLine(result: AddServerResult): string {
  const written = 'command' in result.def ? (result.def.args ?? []) : [];
  const secretArgs = secretArguments(written);
  return commandLine(
    secretArgs.length === 0
      ? result.def
      : {
          ...result.def,
          args: written.map(
            (arg, i) => secretArgs.find((a) => a.index === i)?.shown.replace('…', MASK) ?? arg,
          ),
        },
  );
}

/**
 * `garuda-mcp add <name> [--project] -- <command> [args…]` or `add <name> --url <url>
 * [--header K=V]…`: writes the entry to the user's file (or the project's with `--project`),
 * keeping every other byte of the file. Nothing is started. `--replace` gives an existing
 * server a new command line or URL, and the fields its flags give; the old entry's other
 * fields stay, and what is kept or dropped is said.
 */
export async function addCommand(ctx: CommandContext, args: AddArguments): Promise<number> {
  checkArguments(ctx, args);
  const def = entryOf(args);
  const config = await readConfig(ctx);
  const target = fileOf(ctx, args.project);
  const result = await writeEntry(ctx, args, def, target);
  const c = ctx.output.colour;
  if (ctx.globals.json) {
    ctx.output.out(JSON.stringify(result, null, 2));
  } else {
    ctx.output.out(
      `${result.action === 'added' ? 'Added' : 'Replaced'} MCP server ${c.bold(args.name)} in ${result.file}${result.createdFile ? ' (new file)' : ''}: ${shownCommandLine(result)}`,
    );
    for (const line of replacedLines(ctx, result, args.project)) ctx.output.out(line);
  }
  await addWarnings(ctx, args, result, config);
  return ExitCode.OK;
}
