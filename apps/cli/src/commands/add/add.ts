import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ConfigError,
  ConfigErrorCode,
  addServer,
  commandLine,
  secretArguments,
  type AddServerResult,
  type ServerEntry,
} from '@garuda/mcp-config';

import { hiddenPathOf } from '@garuda/mcp-transport';

import { readConfig } from '../../cli-config.js';

import type { CommandContext } from '../../context.js';

import { limitOf } from '../../durations.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { looksLiteralSecret, MASK } from '../../secrets.js';
import { configFailure, fileOf } from '../../shared/server-file.js';

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
