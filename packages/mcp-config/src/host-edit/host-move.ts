// Moving a host's own MCP servers behind the gateway: they are imported into Garuda's user file
// exactly as `readImportSources` reads them, and then taken out of the host's file, which keeps
// only the gateway's entry (and what could not be moved). The order loses nothing: Garuda's file
// first (each server one atomic edit, all undone when one fails), then a backup of the host's
// file beside it, then the host's file replaced atomically.
import { open, readFile, rm, stat } from 'node:fs/promises';
import { capText, cleanLine } from '@garuda/mcp-sanitize';
import { LockedFileError } from '@garuda/mcp-trust';
import { findNodeAtLocation, parseTree, visit } from 'jsonc-parser';
import { addServer } from '../add-server.js';
import { formatProblem, type ConfigProblem } from '../config-problem.js';
import {
  ConfigError,
  ConfigErrorCode,
  HostFileError,
  type HostFileErrorDetails,
} from '../errors.js';
import type { HostDescriptor } from '../hosts/host.js';
import type { ImportFile, ImportServer, ImportableServer } from '../import-types.js';
import { removeServer } from '../remove-server.js';
import { serverTableLines, tomlLayout, withoutLines, type TomlLayout } from './toml-tables.js';

/** The host's file as it was read for a move. */
export interface HostFileText {
  readonly host: HostDescriptor;
  readonly file: string;
  /** The file's bytes, and the same as text. */
  readonly bytes: Buffer;
  readonly text: string;
}

/** How a server of the host is taken out of its file. */
export type HostServerRemoval =
  | { readonly kind: 'json'; readonly offset: number }
  | { readonly kind: 'toml'; readonly lines: readonly [number, number][] };

/**
 * Why a server of the host stays in its file: import cannot take it (`not-importable`), it is
 * not written as a `[<key>.<name>]` table of a TOML file (`not-a-table`), or import could not
 * read it from the file (`not-read`).
 */
export type HostStayReason = 'not-importable' | 'not-a-table' | 'not-read';

/** One server of the host's own list (the gateway's entry is never one). */
export interface HostFileServer {
  /** Its name as the host's file writes it; not cleaned (show `shown`). */
  readonly raw: string;
  /** Its name for a screen: cleaned and capped, as import shows it. */
  readonly shown: string;
  /** How `readImportSources` reads it; undefined when it could not read it from the file. */
  readonly imported: ImportServer | undefined;
  /** How it is taken out of the file; undefined when that cannot be done safely. */
  readonly removal: HostServerRemoval | undefined;
}

/** A server that moves: how import writes it, and how it leaves the host's file. */
export interface HostMovingServer extends HostFileServer {
  readonly imported: ImportableServer;
  readonly removal: HostServerRemoval;
}

/** What moving the host's own servers behind the gateway would do. */
export interface HostMovePlan {
  /** The import's view of the host's file (its problems as a whole). */
  readonly file: ImportFile | undefined;
  /** Every server of the host's list but the gateway's entry, in file order. */
  readonly servers: readonly HostFileServer[];
  readonly moving: readonly HostMovingServer[];
  readonly staying: readonly { readonly server: HostFileServer; readonly why: HostStayReason }[];
}

/** A name from a file, for a screen (import cleans and caps it the same way). */
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
 * @param imported - What `readImportSources` read for this host.
 */
export function hostServers(
  host: HostFileText,
  gateway: string,
  imported: readonly ImportServer[],
): HostFileServer[] {
  const key = host.host.serversKey;
  const ours = imported.filter(
    (server) => server.file === host.file && server.path.length === 2 && server.path[0] === key,
  );
  if (host.host.format !== 'toml') {
    return jsonServers(host.text, key)
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
  const servers: HostFileServer[] = [];
  for (const server of ours) {
    const header = layout?.tables.find(
      (table) => table.line + 1 === server.line && table.path.length >= 2 && table.path[0] === key,
    );
    const raw = header?.path[1];
    if (raw === gateway || (raw === undefined && server.sourceName === gateway)) continue;
    servers.push({
      raw: raw ?? server.sourceName,
      shown: server.sourceName,
      imported: server,
      removal:
        layout === undefined || raw === undefined
          ? undefined
          : tomlRemoval(layout, key, raw, server),
    });
  }
  if (servers.length === 0 && ours.length === 0 && layout !== undefined) {
    // Import could not read the file: its tables are still named, and stay.
    const names = new Set<string>();
    for (const table of layout.tables) {
      const raw = table.path[1];
      if (table.path[0] === key && raw !== undefined && raw !== gateway) names.add(raw);
    }
    for (const raw of names) {
      servers.push({ raw, shown: shownName(raw), imported: undefined, removal: undefined });
    }
  }
  return servers;
}

/**
 * The lines of `[<key>.<raw>]` and its sub-tables, when that table is where the server is
 * written and where import found it first; undefined otherwise (an inline table, dotted keys).
 */
function tomlRemoval(
  layout: TomlLayout,
  key: string,
  raw: string,
  server: ImportServer,
): HostServerRemoval | undefined {
  const own = layout.tables.filter((table) => table.path[0] === key && table.path[1] === raw);
  const first = own[0];
  if (first === undefined || first.line + 1 !== server.line) return undefined;
  if (!own.some((table) => table.path.length === 2 && !table.array)) return undefined;
  if (own.some((table) => table.path.length === 2 && table.array)) return undefined;
  return { kind: 'toml', lines: serverTableLines(layout, key, raw) };
}

/** Which of the host's servers move and which stay (and why). */
export function movePlan(
  servers: readonly HostFileServer[],
  file: ImportFile | undefined,
): HostMovePlan {
  const moving: HostMovingServer[] = [];
  const staying: { server: HostFileServer; why: HostStayReason }[] = [];
  for (const server of servers) {
    const { imported, removal } = server;
    if (imported === undefined) staying.push({ server, why: 'not-read' });
    else if (!imported.importable) staying.push({ server, why: 'not-importable' });
    else if (removal === undefined) staying.push({ server, why: 'not-a-table' });
    else moving.push({ ...server, imported, removal });
  }
  return { file, servers, moving, staying };
}

/** `text` (a TOML file) without the moving servers' tables; undefined when that is not safe. */
export function tomlWithout(
  text: string,
  key: string,
  moving: readonly HostMovingServer[],
): string | undefined {
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
    check.tables.some((table) => table.path[0] === key && names.has(table.path[1] ?? ''))
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

/** Why a server could not be written to Garuda's file, on one line. */
function writeFailure(error: unknown): string | undefined {
  // The config file's lock errors come from @garuda/mcp-trust, passed through by addServer.
  if (!ConfigError.isInstance(error) && !LockedFileError.isInstance(error)) return undefined;
  const problems = (error as { problems?: readonly ConfigProblem[] }).problems;
  return problems?.map((problem) => formatProblem(problem)).join('; ') ?? error.message;
}

/**
 * Moves the plan's servers: imports them into Garuda's user file, checks that the host's file
 * is still what was read, writes its backup, then replaces it with `after` (by `write`). When a
 * step fails, the servers imported are removed again and the host's file is as it was.
 *
 * @returns The backup's path and the Garuda names the servers got.
 * @throws {@link HostFileError} `CONFIG_HOST_MOVE_FAILED` when a step fails, saying what was undone.
 */
export async function moveServers(
  host: HostFileText,
  plan: HostMovePlan,
  options: { userFile: string; after: string; now: Date; lockTimeoutMs?: number },
  write: (text: string) => Promise<void>,
): Promise<{ backup: string; names: string[] }> {
  const { userFile } = options;
  const lock = options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs };
  const written: string[] = [];
  const failed: { name: string; reason: string }[] = [];
  for (const { imported: server } of plan.moving) {
    try {
      await addServer({
        file: userFile,
        name: server.name,
        def: server.entry,
        source: 'user',
        ...lock,
      });
      written.push(server.name);
    } catch (error) {
      const reason = writeFailure(error);
      if (reason === undefined) throw error;
      failed.push({ name: server.name, reason });
    }
  }
  const undo = async (
    reason: 'import-failed' | 'changed' | 'backup-failed' | 'write-failed',
    details: HostFileErrorDetails,
    cause?: unknown,
  ): Promise<never> => {
    const left: string[] = [];
    for (const name of written) {
      await removeServer({ file: userFile, name, ...lock }).catch(() => left.push(name));
    }
    const undone = written.filter((name) => !left.includes(name));
    throw new HostFileError(
      ConfigErrorCode.HOST_MOVE_FAILED,
      host.file,
      reason,
      { ...details, undone, left },
      cause,
    );
  };
  if (failed.length > 0) await undo('import-failed', { failed });
  const now = await readFile(host.file).catch(() => undefined);
  if (now === undefined || !now.equals(host.bytes)) await undo('changed', {});
  let backup = '';
  try {
    backup = await writeBackup(host.file, host.bytes, options.now);
  } catch (error) {
    await undo('backup-failed', {}, error);
  }
  try {
    await write(options.after);
  } catch (error) {
    await undo('write-failed', { backup }, HostFileError.isInstance(error) ? error.cause : error);
  }
  return { backup, names: written };
}
