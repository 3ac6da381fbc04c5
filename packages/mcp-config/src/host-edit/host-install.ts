// The gateway's entry in a host's own config file: planned first (read, parsed and the edited
// text checked, nothing written), then applied (the entry written, or the host's servers moved
// behind the gateway). Every other byte of the host's file is kept: a JSON file is edited in
// place (comments and formatting kept), a TOML file gets a table appended.
import { isRecord } from '@garuda/internal';
import { ConfigErrorCode, HostFileError, invalidArgument } from '../errors.js';
import { HOSTS, type HostId } from '../hosts/index.js';
import type { HostDescriptor } from '../hosts/host.js';
import { importSourceFiles } from '../import-paths.js';
import { readImportSources } from '../import-sources.js';
import type { ImportLocationOptions, ImportServer } from '../import-types.js';
import { checkJsonMove, withEntry, withServersMoved } from './host-json.js';
import {
  ENTRY_NAME,
  holdsEntry,
  hostData,
  readHostFile,
  serverList,
  tomlTable,
  unusable,
  withTable,
  writeWhole,
} from './host-file.js';
import {
  hostServers,
  movePlan,
  moveServers,
  tomlWithout,
  type HostFileText,
  type HostMovePlan,
} from './host-move.js';

export type {
  HostFileServer,
  HostMovePlan,
  HostMovingServer,
  HostServerRemoval,
  HostStayReason,
} from './host-move.js';

/** Options of {@link planHostInstall}. */
export interface PlanHostInstallOptions extends Pick<
  ImportLocationOptions,
  'userHome' | 'root' | 'platform' | 'appData' | 'configHome'
> {
  /** The host, by its id in {@link HOSTS} (`cursor`). */
  readonly host: HostId;
  /** The command line that starts the gateway (`command`, `args`), as the host will run it. */
  readonly command: string;
  readonly args: readonly string[];
  /**
   * The names of Garuda's servers (so a moved server gets a name of its own), asked only when
   * the host's file has servers of its own.
   */
  readonly existingNames: () => Iterable<string> | Promise<Iterable<string>>;
}

/** What {@link planHostInstall} found and would do. Nothing has been written. */
export interface HostInstallPlan {
  readonly host: HostDescriptor;
  /** The host's user file. */
  readonly file: string;
  /** Whether the file exists (otherwise applying makes it, mode 0600). */
  readonly exists: boolean;
  /** The name of the gateway's entry in the host's list: `garuda`. */
  readonly name: string;
  /** The gateway's entry, as the host's descriptor writes it. */
  readonly entry: Readonly<Record<string, unknown>>;
  /**
   * The entry as the file will write it, for a screen: `"mcpServers": { "garuda": {…} }`, or
   * TOML's `[mcp_servers.garuda]` table. Undefined when the file holds an entry already.
   */
  readonly addition: string | undefined;
  /**
   * Whether the host's list has a `garuda` entry that applying leaves as it is (a JSON entry
   * that differs is replaced; a TOML table of that name is left to the user).
   */
  readonly hasEntry: boolean;
  /** The host's own servers in its list, and which of them can move; undefined when none. */
  readonly move: HostMovePlan | undefined;
  /** Servers of the file outside the list (Claude Code's servers of one project): left as they are. */
  readonly elsewhere: readonly ImportServer[];
}

/** The state {@link applyHostInstall} needs besides what the plan shows. */
interface PlanState {
  readonly read: HostFileText | undefined;
  readonly after: string | undefined;
}
const STATE = new WeakMap<HostInstallPlan, PlanState>();

/** Options of {@link applyHostInstall}. */
export interface ApplyHostInstallOptions {
  /** Move the plan's `moving` servers behind the gateway too. */
  readonly move: boolean;
  /** Garuda's user file (`defaultPaths().userFile`): where moved servers go. */
  readonly userFile: string;
  /** Wait at most this long for the user file's lock (default 10 s). */
  readonly lockTimeoutMs?: number;
  /** The time in the backup's name (default now). */
  readonly now?: Date;
}

/** What {@link applyHostInstall} did. */
export interface HostInstallResult {
  /** Whether the host's file was written. */
  readonly written: boolean;
  /** With `move`: the servers now in Garuda's user file (by their Garuda names) and the backup. */
  readonly moved?: { readonly names: readonly string[]; readonly backup: string };
}

/** The entry for a screen, in the host's format. */
function additionText(host: HostDescriptor, entry: Record<string, unknown>): string {
  return host.format === 'toml'
    ? tomlTable(host.serversKey, entry).trimEnd()
    : `"${host.serversKey}": { "${ENTRY_NAME}": ${JSON.stringify(entry)} }`;
}

/** The host's text with the entry added, or undefined when it is there already. */
function withGateway(
  host: HostDescriptor,
  file: string,
  text: string | undefined,
  list: Record<string, unknown> | undefined,
  entry: Record<string, unknown>,
): string | undefined {
  let after: string | undefined;
  if (host.format !== 'toml') {
    if (JSON.stringify(list?.[ENTRY_NAME]) === JSON.stringify(entry)) return undefined;
    try {
      after = withEntry(text ?? '{}\n', host.serversKey, ENTRY_NAME, entry);
    } catch (error) {
      throw unusable(file, 'entry-refused', {}, error);
    }
  } else {
    if (list !== undefined && Object.hasOwn(list, ENTRY_NAME)) return undefined;
    after = withTable(text ?? '', tomlTable(host.serversKey, entry));
  }
  if (!holdsEntry(host, after, entry)) throw unusable(file, 'entry-not-held');
  return after;
}

/**
 * Plans the gateway's entry in a host's own user config file: reads the file (refusing one that
 * is not a regular UTF-8 file under `MAX_IMPORT_FILE_BYTES` or does not parse as the host parses
 * it), works out the text with the entry added and checks that it reads back holding it, and
 * lists the host's own servers with which of them {@link applyHostInstall} can move behind the
 * gateway (imported as `readImportSources` imports them). Writes nothing.
 *
 * @param options - The host, where the machine keeps its files, the gateway's command line.
 * @returns The plan.
 * @throws {@link HostFileError} `CONFIG_HOST_FILE_UNUSABLE` when the file cannot take the entry safely.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` for a host not in {@link HOSTS}.
 * @example
 * ```ts
 * const plan = await planHostInstall({ host: 'cursor', userHome, root, platform: process.platform,
 *   command: process.execPath, args: [bin, 'serve'], existingNames: () => [] });
 * if (plan.addition !== undefined && (await ui.confirm(plan.addition))) {
 *   await applyHostInstall(plan, { move: false, userFile });
 * }
 * ```
 */
export async function planHostInstall(options: PlanHostInstallOptions): Promise<HostInstallPlan> {
  const host = HOSTS.find((h) => h.id === options.host) as HostDescriptor | undefined;
  if (host === undefined) {
    throw invalidArgument(
      `planHostInstall: host must be one of ${HOSTS.map((h) => h.id).join(', ')}`,
    );
  }
  const where = {
    userHome: options.userHome,
    root: options.root,
    platform: options.platform,
    ...(options.appData === undefined ? {} : { appData: options.appData }),
    ...(options.configHome === undefined ? {} : { configHome: options.configHome }),
    clients: [host.id as HostId],
    scopes: ['user' as const],
  };
  const file = importSourceFiles(where)[0]?.file;
  if (file === undefined) throw invalidArgument(`planHostInstall: ${host.id} has no user file`);
  const entry = host.gatewayEntry(options.command, options.args);
  const { bytes, text } = await readHostFile(file);
  const list = hostData(file, host, text)[host.serversKey];
  const servers = isRecord(list) ? list : undefined;
  if (list !== undefined && servers === undefined) throw unusable(file, 'list-not-an-object');
  const after = withGateway(host, file, text, servers, entry);
  const read = bytes === undefined || text === undefined ? undefined : { host, file, bytes, text };

  let move: HostMovePlan | undefined;
  let elsewhere: ImportServer[] = [];
  if (read !== undefined && Object.keys(servers ?? {}).some((n) => n !== ENTRY_NAME)) {
    const sources = await readImportSources({
      ...where,
      existingNames: await options.existingNames(),
    });
    move = movePlan(
      hostServers(read, ENTRY_NAME, sources.servers),
      sources.files.find((f) => f.file === file),
    );
    if (move.servers.length === 0) move = undefined;
    elsewhere = sources.servers.filter((s) => s.file === file && s.path.length > 2);
  }
  const plan: HostInstallPlan = {
    host,
    file,
    exists: bytes !== undefined,
    name: ENTRY_NAME,
    entry,
    addition: after === undefined ? undefined : additionText(host, entry),
    hasEntry: after === undefined,
    move,
    elsewhere,
  };
  STATE.set(plan, { read, after });
  return plan;
}

/**
 * Applies a plan of {@link planHostInstall}: writes the host's file with the entry (atomically,
 * keeping its mode; a new file gets 0600 in a 0700 folder), or with `move`, moves the plan's
 * `moving` servers behind the gateway: the host's new text is worked out and checked first (so
 * nothing is imported when the file cannot be rewritten safely), the servers are added to
 * `userFile` (each one atomic edit under its lock), the host's file must still be what was
 * read, a backup `<file>.garuda-backup-<UTC time>` is written beside it, then the file is
 * replaced. When a step fails, the servers added are removed again and the host's file is as
 * it was.
 *
 * @param plan - What {@link planHostInstall} returned.
 * @param options - Whether to move, and Garuda's user file.
 * @returns Whether the file was written, and what moved.
 * @throws {@link HostFileError} `CONFIG_HOST_MOVE_FAILED` (`reason` says which step) or `CONFIG_WRITE_FAILED`.
 */
export async function applyHostInstall(
  plan: HostInstallPlan,
  options: ApplyHostInstallOptions,
): Promise<HostInstallResult> {
  const state = STATE.get(plan);
  if (state === undefined)
    throw invalidArgument('applyHostInstall: plan must come from planHostInstall');
  const { read } = state;
  const move = plan.move;
  if (options.move && move !== undefined && move.moving.length > 0 && read !== undefined) {
    const after = movedText(plan, read, move);
    const moved = await moveServers(
      read,
      move,
      {
        userFile: options.userFile,
        after,
        now: options.now ?? new Date(),
        ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
      },
      (text) => writeWhole(plan.file, text),
    );
    return { written: true, moved };
  }
  if (state.after === undefined) return { written: false };
  await writeWhole(plan.file, state.after);
  return { written: true };
}

/** The host's text with the moving servers gone and the entry there, checked; or an error. */
function movedText(plan: HostInstallPlan, read: HostFileText, move: HostMovePlan): string {
  const { host, file, entry } = plan;
  const key = host.serversKey;
  const gone = new Set(move.moving.map((server) => server.raw));
  let after: string | undefined;
  if (host.format !== 'toml') {
    const offsets = new Set(
      move.moving.flatMap((server) =>
        server.removal.kind === 'json' ? [server.removal.offset] : [],
      ),
    );
    try {
      after = withServersMoved(read.text, key, offsets, ENTRY_NAME, entry);
    } catch {
      after = undefined;
    }
    if (after !== undefined && !checkJsonMove(read.text, after, key, gone, ENTRY_NAME, entry)) {
      after = undefined;
    }
  } else {
    const without = tomlWithout(read.text, key, move.moving);
    after =
      without === undefined || plan.hasEntry ? without : withTable(without, tomlTable(key, entry));
    // Read back with a real TOML parser: the moved servers gone, the entry there, or nothing.
    const list = after === undefined ? undefined : serverList(host, after);
    if (
      list === undefined ||
      Object.keys(list).some((name) => gone.has(name)) ||
      !(plan.hasEntry ? Object.hasOwn(list, ENTRY_NAME) : holdsEntry(host, after ?? '', entry))
    ) {
      after = undefined;
    }
  }
  if (after === undefined)
    throw new HostFileError(ConfigErrorCode.HOST_MOVE_FAILED, file, 'cannot-rewrite');
  return after;
}
