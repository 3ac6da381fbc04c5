import {
  ConfigError,
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
import { table } from '../format.js';
import type { Colours } from '../output.js';

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
