import {
  IMPORT_CLIENTS,
  type ImportClient,
  type ImportableServer,
  type ImportSourcesResult,
} from '@garuda/mcp-config';
import type { CommandContext } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { plural } from '../../format.js';
import {
  IMPORTED_LOCAL_NOTE,
  importedServerLines,
  noteLine,
  readOtherClients,
  writeImported,
} from '../../shared/import-servers.js';

/** What `import` was asked. */
export interface ImportArgs {
  /** `--from`: the clients to read (all when empty). */
  readonly from: readonly string[];
  /** `--project`: the user's own servers go to the project's file too. */
  readonly project: boolean;
  /** `--all`: write every importable server. */
  readonly all: boolean;
  /** `--only <name>`: write these (by their Garuda name). */
  readonly only: readonly string[];
}

/** Where a server goes: a repository's servers stay project servers, whatever is asked. */
function targetOf(server: ImportableServer, args: ImportArgs): 'user' | 'project' {
  return server.scope === 'project' || args.project ? 'project' : 'user';
}

/** `--from`, checked: clients Garuda reads. */
function clientsOf(args: ImportArgs): ImportClient[] {
  const clients: ImportClient[] = [];
  for (const client of args.from) {
    if (!(IMPORT_CLIENTS as readonly string[]).includes(client)) {
      throw usageError(
        `--from ${JSON.stringify(client)} is not a client Garuda reads: use one of ${IMPORT_CLIENTS.join(', ')}.`,
      );
    }
    clients.push(client as ImportClient);
  }
  if (args.all && args.only.length > 0) throw usageError('Give --all or --only, not both.');
  return clients;
}

/** The servers `--all` or `--only` chose; exit 2 for an `--only` name no server has. */
function chosenOf(args: ImportArgs, importable: readonly ImportableServer[]): ImportableServer[] {
  for (const name of args.only) {
    if (!importable.some((server) => server.name === name)) {
      throw usageError(
        `No importable server is called ${JSON.stringify(name)}. Run garuda-mcp import to see the names${
          importable.length > 0 ? ` (${importable.map((s) => s.name).join(', ')})` : ''
        }.`,
      );
    }
  }
  return args.all
    ? [...importable]
    : importable.filter((server) => args.only.includes(server.name));
}

/** The files found and their servers, as Garuda would write each one. */
function printFound(
  ctx: CommandContext,
  args: ImportArgs,
  result: ImportSourcesResult,
  found: ImportSourcesResult['files'],
): void {
  const { output } = ctx;
  const c = output.colour;
  output.out(c.bold('Files'));
  for (const file of found) {
    output.out(
      `  ${file.client.padEnd(14)} ${file.scope.padEnd(7)} ${file.file}${
        file.status === 'unusable' ? c.red(' (not readable)') : ''
      }`,
    );
    for (const problem of file.problems)
      output.out(`    ${c.red('problem:')} ${noteLine(problem)}`);
  }
  output.out('');
  output.out(c.bold('Servers'));
  if (result.servers.length === 0) {
    output.out('  none in these files');
  } else {
    for (const line of importedServerLines(result.servers, (s) => targetOf(s, args), c)) {
      output.out(line);
    }
  }
}

/** What was written, what failed, and what to do when nothing was chosen. */
function printOutcome(
  ctx: CommandContext,
  importable: readonly ImportableServer[],
  chosen: readonly ImportableServer[],
  { written, failed }: Awaited<ReturnType<typeof writeImported>>,
): void {
  const { output } = ctx;
  const c = output.colour;
  output.out('');
  if (written.length > 0) {
    for (const file of new Set(written.map((w) => w.file))) {
      const names = written.filter((w) => w.file === file).map((w) => w.server.name);
      output.out(
        c.green(`Imported ${plural(names.length, 'server')} into ${file}: ${names.join(', ')}.`),
      );
    }
    const local = written.filter(({ server }) => 'command' in server.entry);
    if (local.length > 0) {
      output.out(c.dim(IMPORTED_LOCAL_NOTE));
    }
  }
  for (const { server, reason } of failed) {
    output.err(`garuda-mcp: ${server.name} was not imported: ${reason}`);
  }
  if (chosen.length === 0) {
    output.out(
      importable.length === 0
        ? 'Nothing can be imported.'
        : `Nothing was written. Write them with --all, or some with --only <name> (${importable
            .map((s) => s.name)
            .join(', ')}).`,
    );
  }
}

/**
 * `garuda-mcp import [--from <client>]… [--project] [--all | --only <name>…]`: reads the MCP
 * servers of other clients' files (Claude Code, Claude Desktop, Cursor, VS Code, Gemini CLI,
 * Codex), shows each one as Garuda would write it (and why one cannot be imported), and writes
 * the chosen ones: `--all`, or `--only` by name. Without either it only shows them. A
 * repository's servers go to the project's file (they ask consent as usual); the user's own go
 * to the user's file, or with `--project` to the project's. A secret written out in another
 * client's file is never copied: the entry takes `${NAME}` and a warning says which variable to
 * set. Exit 0, 2 for a bad option or an unknown `--only` name, 3 when nothing could be written
 * for a config problem.
 */
export async function importCommand(ctx: CommandContext, args: ImportArgs): Promise<number> {
  const clients = clientsOf(args);
  const { globals, output } = ctx;
  const result = await readOtherClients(ctx, { clients });
  const importable = result.servers.filter((s): s is ImportableServer => s.importable);
  const chosen = chosenOf(args, importable);
  const outcome = await writeImported(ctx, chosen, (server) => targetOf(server, args));
  const { written, failed } = outcome;
  if (globals.json) {
    output.out(
      JSON.stringify(
        {
          files: result.files,
          servers: result.servers,
          written: written.map(({ server, file }) => ({ name: server.name, file })),
          failed: failed.map(({ server, reason }) => ({ name: server.name, reason })),
        },
        null,
        2,
      ),
    );
    return failed.length > 0 ? ExitCode.CONFIG : ExitCode.OK;
  }
  const found = result.files.filter((file) => file.status !== 'missing');
  if (found.length === 0) {
    output.out(
      `No other MCP client's file was found (looked for ${plural(result.files.length, 'file')}: ${[
        ...new Set(result.files.map((file) => file.client)),
      ].join(', ')}).`,
    );
    return ExitCode.OK;
  }
  printFound(ctx, args, result, found);
  printOutcome(ctx, importable, chosen, outcome);
  if (failed.length > 0) {
    throw new CliError(
      `${plural(failed.length, 'server')} could not be written (see above).`,
      ExitCode.CONFIG,
    );
  }
  return ExitCode.OK;
}
