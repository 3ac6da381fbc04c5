import {
  ConfigError,
  IMPORT_CLIENTS,
  addServer,
  commandLine,
  formatProblem,
  readImportSources,
  type ImportClient,
  type ImportNote,
  type ImportServer,
  type ImportSourcesResult,
  type ImportableServer,
  type ServerSource,
} from '@garuda/mcp-config';
import process from 'node:process';
import { cleanLine } from '@garuda/mcp-sanitize';
import { LockedFileError } from '@garuda/mcp-trust';
import { cliPaths, readConfig } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { plural, table } from '../format.js';
import type { Colours } from '../output.js';

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

/** One note (a warning or a problem) of an import, on one line. */
export function noteLine(note: ImportNote): string {
  const where = note.line === undefined ? '' : ` (line ${note.line})`;
  return `${cleanLine(note.message)}${where}`;
}

/** How a server is named on the screen: its Garuda name, or the name it has in its file. */
export function importLabel(server: ImportServer): string {
  return server.importable ? server.name : cleanLine(server.sourceName);
}

/** Said after local servers were imported: what changes for them under Garuda. */
export const IMPORTED_LOCAL_NOTE =
  'Local servers run in the sandbox without network access until you allow it (set ' +
  '"network": true in the entry), and a project server asks for your consent before ' +
  'it first starts.';

/**
 * Other clients' servers as `import` reads them (`clients` and `scopes` narrow the files; all
 * by default), named so that no name clashes with a server of Garuda's files.
 */
export async function readOtherClients(
  ctx: CommandContext,
  narrow: { clients?: readonly ImportClient[]; scopes?: readonly ServerSource[] } = {},
): Promise<ImportSourcesResult> {
  const { globals, io } = ctx;
  const config = await readConfig(ctx);
  return readImportSources({
    userHome: io.userHome,
    root: globals.root,
    platform: io.platform ?? process.platform,
    ...(io.env.APPDATA === undefined ? {} : { appData: io.env.APPDATA }),
    ...(narrow.clients !== undefined && narrow.clients.length > 0
      ? { clients: narrow.clients }
      : {}),
    ...(narrow.scopes === undefined ? {} : { scopes: narrow.scopes }),
    existingNames: config.servers.map((server) => server.name),
  });
}

/** What {@link writeImported} wrote, and what it could not write and why. */
export interface ImportWrites {
  readonly written: readonly { server: ImportableServer; file: string }[];
  readonly failed: readonly { server: ImportableServer; reason: string }[];
}

/**
 * Writes each server into Garuda's user or project file (`targetOf` says which), one atomic
 * edit each; a server that cannot be written (a config problem, a lock) is reported, not thrown.
 */
export async function writeImported(
  ctx: CommandContext,
  chosen: readonly ImportableServer[],
  targetOf: (server: ImportableServer) => ServerSource,
): Promise<ImportWrites> {
  const paths = cliPaths(ctx);
  const written: { server: ImportableServer; file: string }[] = [];
  const failed: { server: ImportableServer; reason: string }[] = [];
  for (const server of chosen) {
    const target = targetOf(server);
    const file = target === 'project' ? paths.projectFile : paths.userFile;
    try {
      await addServer({ file, name: server.name, def: server.entry, source: target });
      written.push({ server, file });
    } catch (error) {
      // The config file's lock errors come from @garuda/mcp-trust, passed through by mcp-config.
      if (!ConfigError.isInstance(error) && !LockedFileError.isInstance(error)) throw error;
      const problems = (error as { problems?: readonly Parameters<typeof formatProblem>[0][] })
        .problems;
      failed.push({
        server,
        reason: problems?.map((problem) => formatProblem(problem)).join('; ') ?? error.message,
      });
    }
  }
  return { written, failed };
}

/**
 * The servers as `import` shows them: a table (name, client, the Garuda file each goes to or
 * `-`, its command line or URL), then each server's warnings, or why it cannot be imported.
 */
export function importedServerLines(
  servers: readonly ImportServer[],
  goesTo: (server: ImportableServer) => string | undefined,
  c: Colours,
): string[] {
  const lines = [
    table(
      ['  NAME', 'FROM', 'GOES TO', 'COMMAND OR URL'],
      servers.map((server) => [
        `  ${importLabel(server)}`,
        server.client,
        (server.importable ? goesTo(server) : undefined) ?? '-',
        server.importable ? commandLine(server.entry) : 'cannot be imported',
      ]),
      (column, cell, row) => {
        const server = servers[row];
        if (column === 0) return c.bold(cell);
        if (column === 3 && server?.importable === false) return c.red(cell);
        return cell;
      },
    ),
  ];
  for (const server of servers) {
    const notes = server.importable ? server.warnings : [...server.problems, ...server.warnings];
    if (notes.length === 0) continue;
    lines.push(`  ${c.bold(importLabel(server))} (${server.client}, ${server.file}):`);
    for (const note of notes) {
      const kind = server.importable ? c.yellow('warning:') : c.red('problem:');
      lines.push(`    ${kind} ${noteLine(note)}`);
    }
  }
  return lines;
}

/** Where a server goes: a repository's servers stay project servers, whatever is asked. */
function targetOf(server: ImportableServer, args: ImportArgs): 'user' | 'project' {
  return server.scope === 'project' || args.project ? 'project' : 'user';
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
  const { globals, output } = ctx;
  const result = await readOtherClients(ctx, { clients });
  const importable = result.servers.filter((s): s is ImportableServer => s.importable);
  const chosen = args.all
    ? importable
    : importable.filter((server) => args.only.includes(server.name));
  for (const name of args.only) {
    if (!importable.some((server) => server.name === name)) {
      throw usageError(
        `No importable server is called ${JSON.stringify(name)}. Run garuda-mcp import to see the names${
          importable.length > 0 ? ` (${importable.map((s) => s.name).join(', ')})` : ''
        }.`,
      );
    }
  }

  const { written, failed } = await writeImported(ctx, chosen, (server) => targetOf(server, args));

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

  const c = output.colour;
  const found = result.files.filter((file) => file.status !== 'missing');
  if (found.length === 0) {
    output.out(
      `No other MCP client's file was found (looked for ${plural(result.files.length, 'file')}: ${[
        ...new Set(result.files.map((file) => file.client)),
      ].join(', ')}).`,
    );
    return ExitCode.OK;
  }
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
  if (failed.length > 0) {
    throw new CliError(
      `${plural(failed.length, 'server')} could not be written (see above).`,
      ExitCode.CONFIG,
    );
  }
  return ExitCode.OK;
}
