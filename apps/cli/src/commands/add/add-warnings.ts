import { stat } from 'node:fs/promises';
import path from 'node:path';
import { secretArguments, type AddServerResult, type LoadConfigResult } from '@garuda/mcp-config';
import { hiddenPathOf } from '@garuda/mcp-transport';
import type { CommandContext } from '../../context.js';
import { usageError } from '../../exit-codes.js';
import { looksLiteralSecret } from '../../secrets.js';
import type { AddArguments } from './add.js';

/** Where a configured path leads: `~/…` from the home folder, relative from the project root. */
function fullPath(ctx: CommandContext, p: string): string {
  const home = p === '~' || p.startsWith('~/');
  return home ? path.join(ctx.io.userHome, p.slice(1)) : path.resolve(ctx.globals.root, p);
}

/** Exit 2 for a `--read` the sandbox would refuse anyway: Garuda's home or a socket place. */
export function refuseNeverShown(ctx: CommandContext, paths: readonly string[]): void {
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

/** Secrets written out in `--header` or `--env` values, or in the arguments: prefer ${NAME}. */
function secretWarnings(args: AddArguments, result: AddServerResult): string[] {
  const shared = args.project ? ': a project file is usually shared with others.' : '.';
  const literal = [...args.headers, ...args.env].filter((pair) =>
    looksLiteralSecret(pair.slice(pair.indexOf('=') + 1)),
  );
  const warnings: string[] = [];
  if (literal.length > 0) {
    warnings.push(
      `${literal.map((pair) => pair.slice(0, pair.indexOf('='))).join(', ')} looks like a secret written out. ` +
        `Prefer \${NAME} (taken from your environment when the server starts)` +
        shared,
    );
  }
  const written = 'command' in result.def ? (result.def.args ?? []) : [];
  for (const secret of secretArguments(written)) {
    const variable = secret.variable ?? 'NAME';
    warnings.push(
      `the argument ${secret.shown} looks like a secret written out, and arguments ` +
        `are kept in ${result.file} as written. If the server can read it from its ` +
        `environment, prefer --env ${variable}='\${${variable}}' (taken from your environment ` +
        "when the server starts; see the server's documentation for the variable it reads)" +
        shared,
    );
  }
  return warnings;
}

/** The warnings and notes after an entry was written, on stderr. */
export async function addWarnings(
  ctx: CommandContext,
  args: AddArguments,
  result: AddServerResult,
  config: LoadConfigResult,
): Promise<void> {
  const e = ctx.output.errColour;
  for (const warning of [
    ...secretWarnings(args, result),
    ...(await pathWarnings(ctx, '--write', args.write, args.project)),
    ...(await pathWarnings(ctx, '--read', args.read, args.project)),
  ]) {
    ctx.output.err(e.yellow(`warning: ${warning}`));
  }
  const project = args.project;
  if (project && config.servers.some((s) => s.source === 'user' && s.name === args.name)) {
    ctx.output.err(
      e.yellow(
        `warning: your own file has a server named ${JSON.stringify(args.name)} too, so this project one is ignored (a repository cannot replace a server you configured): give it another name.`,
      ),
    );
  }
  if (project) {
    ctx.output.err(
      e.dim('Project servers ask for consent before they first start (garuda-mcp status).'),
    );
  }
}
