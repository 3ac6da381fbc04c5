// `garuda-mcp install <host> --move`: the host's own MCP servers go behind the gateway. They are
// imported into Garuda's user file exactly as `garuda-mcp import` imports them, and then taken
// out of the host's file, which keeps only the gateway's entry (and what could not be moved).
// The order loses nothing: Garuda's file first (each server one atomic edit, all undone when one
// fails), then a backup of the host's file beside it, then the host's file replaced atomically.
import { open, readFile, rm, stat } from 'node:fs/promises';
import {
  removeServer,
  type ImportClient,
  type ImportFile,
  type ImportServer,
  type ImportableServer,
} from '@garuda/mcp-config';
import { capText, cleanLine } from '@garuda/mcp-sanitize';
import { findNodeAtLocation, parseTree, visit } from 'jsonc-parser';
import { cliPaths } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { plural } from '../../format.js';
import type { Colours } from '../../output.js';
import { importedServerLines, noteLine, writeImported } from '../../shared/import-servers.js';
import { serverTableLines, tomlLayout, withoutLines, type TomlLayout } from './toml-tables.js';

/** The host's file as `install` read it. */
export interface HostFile {
  readonly host: string;
  readonly client: ImportClient;
  readonly file: string;
  /** The key of the server list: `mcpServers`, `servers` (VS Code), `mcp_servers` (Codex). */
  readonly key: string;
  readonly format: 'json' | 'toml';
  /** The file's bytes, and the same as text. */
  readonly bytes: Buffer;
  readonly text: string;
}

/** How a server of the host is taken out of its file. */
export type Removal =
  | { readonly kind: 'json'; readonly offset: number }
  | { readonly kind: 'toml'; readonly lines: readonly [number, number][] };

/** Why a server of the host stays in its file. */
export type StayReason = 'not-importable' | 'not-a-table' | 'not-read';

/** One server of the host's own list (the gateway's entry is never one). */
export interface HostServer {
  /** Its name as the host's file writes it; never printed (see `shown`). */
  readonly raw: string;
  /** Its name for the terminal: cleaned and capped, as import shows it. */
  readonly shown: string;
  /** How `garuda-mcp import` reads it; undefined when import could not read it from the file. */
  readonly imported: ImportServer | undefined;
  /** How it is taken out of the file; undefined when that cannot be done safely. */
  readonly removal: Removal | undefined;
}

/** A server that moves: how import writes it, and how it leaves the host's file. */
export interface MovingServer extends HostServer {
  readonly imported: ImportableServer;
  readonly removal: Removal;
}

/** What a move would do. */
export interface MovePlan {
  /** The import's view of the host's file (its problems as a whole). */
  readonly file: ImportFile | undefined;
  readonly servers: readonly HostServer[];
  readonly moving: readonly MovingServer[];
  readonly staying: readonly { server: HostServer; why: StayReason }[];
}

/** A name from a file, for the terminal (import cleans and caps it the same way). */
function shownName(raw: string): string {
  return capText(cleanLine(raw.slice(0, 1000)), 64);
}

/** The servers of a JSON host file's list, with where each is written, in file order. */
function jsonServers(text: string, key: string): { raw: string; offset: number; at: string }[] {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const list = root === undefined ? undefined : findNodeAtLocation(root, [key]);
  if (list?.type !== 'object') return [];
  // Line and column as jsonc-parser counts them, which is how import places a server.
  const places = new Map<number, string>();
  visit(
    text,
    {
      onObjectProperty: (_name, offset, _length, line, column, pathSupplier) => {
        const path = pathSupplier();
        if (path.length === 1 && path[0] === key) places.set(offset, `${line + 1}:${column + 1}`);
      },
    },
    { allowTrailingComma: true },
  );
  return (list.children ?? []).flatMap((property) => {
    const name = property.children?.[0]?.value as unknown;
    if (typeof name !== 'string') return [];
    return [{ raw: name, offset: property.offset, at: places.get(property.offset) ?? '' }];
  });
}

/**
 * The host's own servers (every one but `gateway`), each matched to how import reads it by the
 * place where the file writes it (import gives each server's line and column), so a name that
 * cleaning changed can never be mistaken for another.
 *
 * @param host - The host's file.
 * @param gateway - The name of the gateway's entry (`garuda`), left out.
 * @param imported - What `readImportSources` read for this host's client.
 */
export function hostServers(
  host: HostFile,
  gateway: string,
  imported: readonly ImportServer[],
): HostServer[] {
  const ours = imported.filter(
    (server) =>
      server.file === host.file && server.path.length === 2 && server.path[0] === host.key,
  );
  if (host.format === 'json') {
    return jsonServers(host.text, host.key)
      .filter((entry) => entry.raw !== gateway)
      .map((entry) => {
        const match = ours.find((server) => `${server.line}:${server.column}` === entry.at);
        return {
          raw: entry.raw,
          shown: match?.sourceName ?? shownName(entry.raw),
          imported: match,
          removal: { kind: 'json', offset: entry.offset },
        };
      });
  }
  const layout = tomlLayout(host.text);
  const servers: HostServer[] = [];
  for (const server of ours) {
    const header = layout?.tables.find(
      (table) =>
        table.line + 1 === server.line && table.path.length >= 2 && table.path[0] === host.key,
    );
    const raw = header?.path[1];
    if (raw === gateway || (raw === undefined && server.sourceName === gateway)) continue;
    servers.push({
      raw: raw ?? server.sourceName,
      shown: server.sourceName,
      imported: server,
      removal:
        layout === undefined || raw === undefined ? undefined : tomlRemoval(layout, raw, server),
    });
  }
  if (servers.length === 0 && ours.length === 0 && layout !== undefined) {
    // Import could not read the file: its tables are still named, and stay.
    const names = new Set<string>();
    for (const table of layout.tables) {
      const raw = table.path[1];
      if (table.path[0] === host.key && raw !== undefined && raw !== gateway) names.add(raw);
    }
    for (const raw of names) {
      servers.push({ raw, shown: shownName(raw), imported: undefined, removal: undefined });
    }
  }
  return servers;
}

/**
 * The lines of `[mcp_servers.<raw>]` and its sub-tables, when that table is where the server is
 * written and where import found it first; undefined otherwise (an inline table, dotted keys).
 */
function tomlRemoval(layout: TomlLayout, raw: string, server: ImportServer): Removal | undefined {
  const own = layout.tables.filter(
    (table) => table.path[0] === 'mcp_servers' && table.path[1] === raw,
  );
  const first = own[0];
  if (first === undefined || first.line + 1 !== server.line) return undefined;
  if (!own.some((table) => table.path.length === 2 && !table.array)) return undefined;
  if (own.some((table) => table.path.length === 2 && table.array)) return undefined;
  return { kind: 'toml', lines: serverTableLines(layout, raw) };
}

/** Which of the host's servers move and which stay (and why). */
export function movePlan(servers: readonly HostServer[], file: ImportFile | undefined): MovePlan {
  const moving: MovingServer[] = [];
  const staying: { server: HostServer; why: StayReason }[] = [];
  for (const server of servers) {
    const { imported, removal } = server;
    if (imported === undefined) staying.push({ server, why: 'not-read' });
    else if (!imported.importable) staying.push({ server, why: 'not-importable' });
    else if (removal === undefined) staying.push({ server, why: 'not-a-table' });
    else moving.push({ ...server, imported, removal });
  }
  return { file, servers, moving, staying };
}

/** Why a server stays, in words. */
function stayText(why: StayReason, host: HostFile): string {
  switch (why) {
    case 'not-importable':
      return 'it cannot be imported (see above)';
    case 'not-a-table':
      return `garuda-mcp only takes out [${host.key}.<name>] tables, and it is written another way`;
    case 'not-read':
      return 'garuda-mcp import cannot read it from the file';
  }
}

/**
 * What moving would do, for the screen: the host's servers as import shows them (where each
 * goes, its warnings, why one cannot be imported), then which stay where they are.
 */
export function movePlanLines(
  plan: MovePlan,
  host: HostFile,
  userFile: string,
  c: Colours,
): string[] {
  const lines: string[] = [];
  for (const problem of plan.file?.problems ?? []) {
    lines.push(`  ${c.red('problem:')} ${host.file}: ${noteLine(problem)}`);
  }
  const read = plan.servers.flatMap((server) => (server.imported ? [server.imported] : []));
  const moving = new Set(plan.moving.map((server) => server.imported));
  if (read.length > 0) {
    lines.push(
      ...importedServerLines(read, (server) => (moving.has(server) ? 'user' : undefined), c),
    );
  }
  lines.push('');
  if (plan.moving.length > 0) {
    lines.push(
      `Moving imports ${plural(plan.moving.length, 'server')} into ${userFile} (as garuda-mcp import does: ` +
        `${plan.moving.map((server) => server.imported.name).join(', ')}), then writes a backup of ` +
        `${host.file} beside it and takes them out of its "${host.key}", where the garuda entry stands in for them.`,
    );
  }
  for (const { server, why } of plan.staying) {
    lines.push(`${c.yellow('stays:')} ${server.shown}: ${stayText(why, host)}.`);
  }
  return lines;
}

/** The names of servers, for one line. */
export function shownNames(servers: readonly HostServer[]): string {
  return servers.map((server) => server.shown).join(', ');
}

/** `text` (Codex's TOML) without the moving servers' tables; undefined when that is not safe. */
export function tomlWithout(text: string, moving: readonly MovingServer[]): string | undefined {
  const layout = tomlLayout(text);
  if (layout === undefined) return undefined;
  const lines = moving.flatMap((server) =>
    server.removal.kind === 'toml' ? server.removal.lines : [],
  );
  const after = withoutLines(text, layout, lines);
  const check = tomlLayout(after);
  const names = new Set(moving.map((server) => server.raw));
  if (
    check === undefined ||
    check.tables.some((table) => table.path[0] === 'mcp_servers' && names.has(table.path[1] ?? ''))
  ) {
    return undefined;
  }
  return after;
}

/** `<file>.garuda-backup-<UTC time>`, never one that exists: written whole, with `mode`. */
export async function writeBackup(file: string, bytes: Buffer, now: Date): Promise<string> {
  const mode = (await stat(file)).mode & 0o777;
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
  for (let n = 1; n <= 100; n++) {
    const backup = `${file}.garuda-backup-${stamp}${n === 1 ? '' : `-${n}`}`;
    let handle;
    try {
      // wx: a new file or none. Made for its owner only, given the old file's mode once written.
      handle = await open(backup, 'wx', mode & 0o700);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      await handle.writeFile(bytes);
      await handle.sync();
      await handle.chmod(mode);
    } catch (error) {
      await handle.close();
      await rm(backup, { force: true });
      throw error;
    }
    await handle.close();
    return backup;
  }
  throw new Error('too many backups of this file at the same second');
}

/**
 * Moves the plan's servers: imports them into Garuda's user file, checks that the host's file
 * is still what was read, writes its backup, then replaces it with `after` (by `write`). When a
 * step fails, the servers imported are removed again and the host's file is as it was.
 *
 * @returns The backup's path and the Garuda names the servers got.
 * @throws CliError (exit 3) when a step fails, saying what was undone.
 */
export async function moveServers(
  ctx: CommandContext,
  host: HostFile,
  plan: MovePlan,
  after: string,
  write: (text: string) => Promise<void>,
): Promise<{ backup: string; names: string[] }> {
  const userFile = cliPaths(ctx).userFile;
  const { written, failed } = await writeImported(
    ctx,
    plan.moving.map((server) => server.imported),
    () => 'user',
  );
  const undo = async (why: string): Promise<never> => {
    const left: string[] = [];
    for (const { server } of written) {
      await removeServer({ file: userFile, name: server.name }).catch(() => left.push(server.name));
    }
    throw new CliError(
      `${why}\nNothing was moved: ${host.file} is as it was` +
        (written.length === 0
          ? '.'
          : left.length === 0
            ? `, and the servers imported into ${userFile} were removed again.`
            : `, but ${left.join(', ')} could not be removed from ${userFile} again (garuda-mcp remove <name>).`),
      ExitCode.CONFIG,
    );
  };
  if (failed.length > 0) {
    await undo(
      failed
        .map(({ server, reason }) => `${server.name} could not be imported: ${reason}`)
        .join('\n'),
    );
  }
  const now = await readFile(host.file).catch(() => undefined);
  if (now === undefined || !now.equals(host.bytes)) {
    await undo(
      `${host.file} changed while garuda-mcp was moving its servers (is ${host.host} running? quit it first).`,
    );
  }
  let backup = '';
  try {
    backup = await writeBackup(host.file, host.bytes, new Date());
  } catch (error) {
    await undo(`The backup of ${host.file} could not be written: ${(error as Error).message}.`);
  }
  try {
    await write(after);
  } catch (error) {
    await undo(`${(error as Error).message} (the backup ${backup} stays).`);
  }
  return { backup, names: written.map(({ server }) => server.name) };
}
