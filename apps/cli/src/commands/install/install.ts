import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { confirm } from '@inquirer/prompts';
import {
  HOSTS,
  ImportNoteCode,
  MAX_IMPORT_FILE_BYTES,
  importSourceFiles,
  parseClientFile,
  type ImportClient,
} from '@garuda/mcp-config';
import { cleanLine } from '@garuda/mcp-sanitize';
import writeFileAtomic from 'write-file-atomic';
import { cliPaths } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../exit-codes.js';
import { plural } from '../../format.js';
import { checkJsonMove, withEntry, withServersMoved } from './host-json.js';
import { IMPORTED_LOCAL_NOTE, importLabel, readOtherClients } from '../../shared/import-servers.js';
import {
  hostServers,
  movePlan,
  movePlanLines,
  moveServers,
  shownNames,
  tomlWithout,
  type HostFile,
  type MovePlan,
} from './install-move.js';

/** The hosts `garuda-mcp install` knows (mcp-config's descriptors), by the name it takes. */
const INSTALL_BY_NAME: ReadonlyMap<string, (typeof HOSTS)[number]> = new Map(
  [...HOSTS]
    .sort((a, b) => a.installOrder - b.installOrder)
    .map((host) => [host.installName, host]),
);

/** The names `garuda-mcp install` takes, in the order help lists them. */
export const INSTALL_HOSTS: readonly string[] = [...INSTALL_BY_NAME.keys()];

/** Whether a parsed value is a JSON object or TOML table (not an array). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name of the gateway's entry in a host's file. */
const ENTRY_NAME = 'garuda';

/**
 * The command line a host runs: this very Node and this very CLI (hosts such as Claude Desktop
 * start servers with a short PATH, so a bare `garuda-mcp` may not be found), `serve`, and the
 * project root.
 */
function gatewayCommand(root: string): { command: string; args: string[] } {
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  return { command: process.execPath, args: [bin, 'serve', '--root', root] };
}

/** A TOML basic string (the values are paths: quotes, backslashes and controls escaped). */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/** What `install` was asked besides the host. */
export interface InstallOptions {
  /**
   * `--move` (true): move the host's own servers behind the gateway without asking;
   * `--no-move` (false): leave them; neither: ask on a terminal, else leave them.
   */
  readonly move: boolean | undefined;
}

/** A yes/no question on the terminal (no on Ctrl-C or a closed input). */
async function ask(ctx: CommandContext, message: string): Promise<boolean> {
  return confirm(
    { message, default: false },
    {
      input: ctx.io.stdin,
      output: ctx.io.stderr as unknown as NodeJS.WritableStream,
      signal: ctx.signal,
    },
  ).catch(() => false);
}

/** `text` (Codex's TOML) with `table` appended after one blank line. */
function withTable(text: string, table: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const gap = text === '' || text.endsWith(eol + eol) ? '' : text.endsWith(eol) ? eol : eol + eol;
  return `${text}${gap}${table.replaceAll('\n', eol)}`;
}

/**
 * `garuda-mcp install <host>`: shows the entry it would add to the host's own MCP config (the
 * `serve` command line with this project's root), writes it after a yes (or `--yes`), and keeps
 * every other byte of that file: a JSON file is edited in place (comments and formatting kept),
 * Codex's TOML gets a table appended. An entry that is already there is left alone.
 *
 * When the host's file has servers of its own, they are listed, and moving them behind the
 * gateway is offered as a second question (`--move` answers yes, `--no-move` no; without a
 * terminal the answer is no): they are imported into Garuda's user file as `garuda-mcp import`
 * does, a backup of the host's file is written beside it, and the host's server list is left
 * with the garuda entry and the servers that could not be moved.
 *
 * @returns 0 when written, moved or already there; 4 when the entry was declined; 3 when the
 *   move could not be done (nothing of it is left behind).
 */
export async function installCommand(
  ctx: CommandContext,
  host: string,
  options: InstallOptions = { move: undefined },
): Promise<number> {
  const descriptor = INSTALL_BY_NAME.get(host);
  if (descriptor === undefined) {
    throw usageError(
      `garuda-mcp install takes one of ${INSTALL_HOSTS.join(', ')}, not ${JSON.stringify(host)}.`,
    );
  }
  const client = descriptor.id;
  const key = descriptor.serversKey;
  const format = descriptor.format === 'toml' ? 'toml' : 'json';
  const { io, globals, output } = ctx;
  const file = importSourceFiles({
    userHome: io.userHome,
    root: globals.root,
    platform: io.platform ?? process.platform,
    clients: [client],
    scopes: ['user'],
    // The same places `garuda-mcp import` reads.
    ...(io.env.APPDATA === undefined ? {} : { appData: io.env.APPDATA }),
  })[0]?.file;
  if (file === undefined)
    throw new CliError(`No config file is known for ${host}.`, ExitCode.USAGE);
  const { command, args } = gatewayCommand(globals.root);
  const entry = descriptor.gatewayEntry(command, args);

  const { bytes, before } = await readHostFile(file);
  // The file's data, parsed as `garuda-mcp import` parses it (depth checked before any
  // recursive parser runs), so a file the host could not read either is never appended to.
  const data = hostData(file, host, client, format, before);
  const list = data[key];
  const servers = isRecord(list) ? list : undefined;
  if (list !== undefined && servers === undefined) {
    throw new CliError(
      `${file}: "${key}" is not an object of servers, so garuda-mcp cannot add its entry safely: fix it in ${host}'s settings, or add the entry by hand. Nothing was written.`,
      ExitCode.CONFIG,
    );
  }
  const hasServers = servers !== undefined && Object.keys(servers).some((n) => n !== ENTRY_NAME);
  // The file with the entry added, or undefined when the entry is there already.
  let after: string | undefined;
  if (format === 'json') {
    const text = before ?? '{}\n';
    if (JSON.stringify(servers?.[ENTRY_NAME]) !== JSON.stringify(entry)) {
      try {
        after = withEntry(text, key, ENTRY_NAME, entry);
      } catch (error) {
        throw new CliError(
          `${file} cannot take the entry (${(error as Error).message}): nothing was written.`,
          ExitCode.CONFIG,
        );
      }
    }
  } else if (servers === undefined || !Object.hasOwn(servers, ENTRY_NAME)) {
    after = withTable(before ?? '', tomlTable(command, args));
  }
  if (after !== undefined && !holdsEntry(client, after, key, entry)) {
    throw new CliError(
      `${file} cannot take the entry: the file with it added would not read back as ${format === 'json' ? 'JSON' : 'TOML'} holding it (is "${key}" written in a way garuda-mcp cannot add to, such as an inline table?). Add it by hand. Nothing was written.`,
      ExitCode.CONFIG,
    );
  }

  // The host's own servers, as `garuda-mcp import` reads them.
  const hostFile: HostFile | undefined =
    bytes === undefined || before === undefined
      ? undefined
      : { host, client, file, key, format, bytes, text: before };
  let plan: MovePlan | undefined;
  // Servers of the file outside the list install edits (Claude Code's servers of one project).
  let elsewhere: string[] = [];
  if (hostFile !== undefined && hasServers) {
    const read = await readOtherClients(ctx, { clients: [client], scopes: ['user'] });
    plan = movePlan(
      hostServers(hostFile, ENTRY_NAME, read.servers),
      read.files.find((f) => f.file === file),
    );
    if (plan.servers.length === 0) plan = undefined;
    elsewhere = read.servers.filter((s) => s.file === file && s.path.length > 2).map(importLabel);
  }
  const userFile = cliPaths(ctx).userFile;
  // Moving is asked about (or done, with --move); the plan is shown in full only then.
  const offered = options.move === true || (options.move === undefined && globals.interactive);
  const mayMove = offered && plan !== undefined && plan.moving.length > 0;
  const c = output.errColour;

  if (after !== undefined) {
    output.err(
      `garuda-mcp install ${host} adds this entry to ${file}${before === undefined ? ' (a new file)' : ''}:\n\n` +
        (format === 'json'
          ? `  "${key}": { "${ENTRY_NAME}": ${JSON.stringify(entry)} }`
          : after.slice(after.lastIndexOf('[mcp_servers.')).trimEnd().replace(/^/gm, '  ')) +
        `\n\nThe host then starts garuda-mcp serve for ${globals.root}; every other line of the file stays as it is.`,
    );
  }
  if (plan !== undefined) {
    const count = plural(plan.servers.length, 'MCP server');
    if (offered) {
      output.err(
        `\n${file} also has ${count} of its own, which ${host} starts directly, not behind the gateway:\n`,
      );
      for (const line of movePlanLines(plan, hostFile as HostFile, userFile, c)) output.err(line);
    } else {
      output.err(
        `\n${file} also has ${count} of its own, which ${host} starts directly: ${shownNames(plan.servers)}.`,
      );
    }
  }

  if (elsewhere.length > 0) {
    const one = elsewhere.length === 1;
    output.err(
      `${file} also has ${plural(elsewhere.length, 'server')} for one project only (${elsewhere.join(', ')}): ` +
        `install leaves ${one ? 'it as it is' : 'them as they are'} (garuda-mcp import --from ${client} lists ${one ? 'it' : 'them'}).`,
    );
  }

  if (after !== undefined) {
    const yes = globals.yes || (globals.interactive && (await ask(ctx, `Write it to ${file}?`)));
    if (!yes) {
      output.err(
        globals.interactive
          ? 'Nothing was written.'
          : `Nothing was written: there is no terminal to ask on; pass --yes to write it${
              options.move === true ? ' (--move moves the servers only together with it)' : ''
            }.`,
      );
      return ExitCode.SERVER;
    }
  }

  const move =
    mayMove &&
    (options.move === true ||
      (await ask(
        ctx,
        `Move ${plural(plan?.moving.length ?? 0, 'server')} behind the gateway (into ${userFile}, out of ${file})?`,
      )));
  if (move && plan !== undefined && hostFile !== undefined && before !== undefined) {
    return moveBehindGateway(ctx, { hostFile, plan, entry, hasEntry: after === undefined });
  }

  if (after === undefined) {
    output.out(
      format === 'json'
        ? `${host}: the garuda entry is already in ${file}; nothing to do.`
        : `${host}: ${file} already has [mcp_servers.garuda]; garuda-mcp leaves it as it is (edit it by hand to change it).`,
    );
  } else {
    await writeWhole(file, after);
    output.out(`${host}: added the garuda entry to ${file}. Restart ${host} to use it.`);
  }
  if (plan !== undefined) {
    const why =
      plan.moving.length === 0
        ? `none of them can be moved${offered ? ' (see above)' : ''}`
        : options.move === false
          ? '--no-move'
          : globals.interactive
            ? 'you said no'
            : 'there is no terminal to ask on';
    output.err(
      `${host} still starts ${shownNames(plan.servers)} directly, not behind the gateway (${why}).` +
        (plan.moving.length > 0
          ? ` To move ${plan.servers.length === 1 ? 'it' : 'them'}: garuda-mcp install ${host} --move`
          : ''),
    );
  }
  return ExitCode.OK;
}

/**
 * The host's file: its bytes (undefined when there is none) and their text. A file over import's
 * cap (16 MiB) or not UTF-8 is refused before anything is parsed: editing one would mean
 * rewriting bytes the host wrote.
 */
async function readHostFile(
  file: string,
): Promise<{ bytes: Buffer | undefined; before: string | undefined }> {
  const refuse = (why: string): CliError =>
    new CliError(
      `${file} ${why}, so garuda-mcp does not edit it: fix it, or add the entry by hand. Nothing was written.`,
      ExitCode.CONFIG,
    );
  const info = await stat(file).catch(() => undefined);
  // A FIFO or device at the path would make the read below wait for ever.
  if (info !== undefined && !info.isFile()) throw refuse('is not a regular file');
  const size = info?.size ?? 0;
  if (size > MAX_IMPORT_FILE_BYTES) {
    throw refuse(`is larger than ${MAX_IMPORT_FILE_BYTES / (1024 * 1024)} MiB`);
  }
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read ${file}: ${error.message}.`, ExitCode.CONFIG);
  });
  if (bytes === undefined) return { bytes, before: undefined };
  if (bytes.length > MAX_IMPORT_FILE_BYTES) {
    throw refuse(`is larger than ${MAX_IMPORT_FILE_BYTES / (1024 * 1024)} MiB`);
  }
  try {
    return { bytes, before: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    throw refuse('is not UTF-8 text');
  }
}

/**
 * The data of the host's file (an empty object for a new or empty one), or a CliError naming the
 * file, the line and what to do when it cannot be parsed: nothing is ever added to such a file.
 */
function hostData(
  file: string,
  host: string,
  client: ImportClient,
  format: 'json' | 'toml',
  text: string | undefined,
): Record<string, unknown> {
  // An empty Codex file is an empty TOML document; an empty JSON file is an error, as before.
  if (text === undefined || (format === 'toml' && text.trim() === '')) return {};
  const parsed = parseClientFile(client, text);
  if (!parsed.ok) {
    const problem = parsed.problems[0];
    // A syntax error's message has its line and column already; a nesting one's place is added.
    const where =
      problem?.code === ImportNoteCode.TOO_DEEP && problem.line !== undefined
        ? ` (from line ${problem.line}, column ${problem.column ?? 1})`
        : '';
    throw new CliError(
      `${file} ${cleanLine(problem?.message ?? 'cannot be parsed')}${where}. garuda-mcp does not ` +
        `edit a ${format === 'json' ? 'JSON' : 'TOML'} file it cannot parse: fix the file, then ` +
        `run garuda-mcp install ${host} again, or add the entry by hand. Nothing was written; ` +
        'the file is as it was.',
      ExitCode.CONFIG,
    );
  }
  if (!isRecord(parsed.value)) {
    throw new CliError(
      `${file} is not a ${format === 'json' ? 'JSON object' : 'TOML document'} garuda-mcp can edit safely (fix it, or add the entry by hand): nothing was written.`,
      ExitCode.CONFIG,
    );
  }
  return parsed.value;
}

/** Whether `text` parses (as the host's format) with `entry` under `key`.`garuda`. */
function holdsEntry(
  client: ImportClient,
  text: string,
  key: string,
  entry: Record<string, unknown>,
): boolean {
  const parsed = parseClientFile(client, text);
  if (!parsed.ok || !isRecord(parsed.value)) return false;
  const servers = parsed.value[key];
  return isRecord(servers) && JSON.stringify(servers[ENTRY_NAME]) === JSON.stringify(entry);
}

/** The TOML table of the gateway's entry. */
function tomlTable(command: string, args: readonly string[]): string {
  return (
    `[mcp_servers.${ENTRY_NAME}]\n` +
    `command = ${tomlString(command)}\n` +
    `args = [${args.map(tomlString).join(', ')}]\n`
  );
}

/**
 * The move itself: the host's new text worked out (and checked) first, so nothing is imported
 * when the file cannot be rewritten safely; then {@link moveServers}; then what was done.
 */
async function moveBehindGateway(
  ctx: CommandContext,
  move: { hostFile: HostFile; plan: MovePlan; entry: Record<string, unknown>; hasEntry: boolean },
): Promise<number> {
  const { hostFile, plan, entry } = move;
  const { host, file, key, format, text } = hostFile;
  let after: string | undefined;
  if (format === 'json') {
    const offsets = new Set(
      plan.moving.flatMap((server) =>
        server.removal.kind === 'json' ? [server.removal.offset] : [],
      ),
    );
    try {
      after = withServersMoved(text, key, offsets, ENTRY_NAME, entry);
    } catch {
      after = undefined;
    }
    const gone = new Set(plan.moving.map((server) => server.raw));
    if (after !== undefined && !checkJsonMove(text, after, key, gone, ENTRY_NAME, entry)) {
      after = undefined;
    }
  } else {
    const without = tomlWithout(text, plan.moving);
    const { command, args } = entry as { command: string; args: string[] };
    after =
      without === undefined || move.hasEntry
        ? without
        : withTable(without, tomlTable(command, args));
    // Read back with a real TOML parser: the moved servers gone, the entry there, or nothing.
    const gone = new Set(plan.moving.map((server) => server.raw));
    const check = after === undefined ? undefined : parseClientFile(hostFile.client, after);
    const list = check?.ok === true && isRecord(check.value) ? check.value[key] : undefined;
    if (
      !isRecord(list) ||
      Object.keys(list).some((name) => gone.has(name)) ||
      !(move.hasEntry
        ? Object.hasOwn(list, ENTRY_NAME)
        : holdsEntry(hostFile.client, after ?? '', key, entry))
    ) {
      after = undefined;
    }
  }
  if (after === undefined) {
    throw new CliError(
      `garuda-mcp cannot take the servers out of ${file} safely: nothing was moved or written. Run garuda-mcp install ${host} --no-move, and move them by hand (garuda-mcp import --from ${hostFile.client}).`,
      ExitCode.CONFIG,
    );
  }
  const { backup, names } = await moveServers(ctx, hostFile, plan, after, (t) =>
    writeWhole(file, t),
  );
  const { output } = ctx;
  const userFile = cliPaths(ctx).userFile;
  output.out(
    `${host}: moved ${plural(names.length, 'server')} behind the gateway: ${names.join(', ')} (now in ${userFile}).`,
  );
  output.out(
    `${file} now starts garuda-mcp serve${
      plan.staying.length > 0
        ? `, and still ${plural(plan.staying.length, 'server')} of its own that could not be moved: ${shownNames(plan.staying.map((s) => s.server))}`
        : ' only'
    }. Its old text is in ${backup}.`,
  );
  if (plan.moving.some((server) => 'command' in server.imported.entry)) {
    output.out(output.colour.dim(IMPORTED_LOCAL_NOTE));
  }
  output.out(`Restart ${host} to use it.`);
  return ExitCode.OK;
}

/**
 * Replaces `file` with `text` whole (write-file-atomic: a temporary file beside it, flushed, then
 * renamed), with the old file's mode or 0600 for a new one, so the host never reads half a file.
 */
async function writeWhole(file: string, text: string): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const mode = await stat(file).then(
      (s) => s.mode & 0o777,
      () => 0o600,
    );
    await writeFileAtomic(file, text, { mode, fsync: true });
  } catch (error) {
    throw new CliError(`Cannot write ${file}: ${(error as Error).message}.`, ExitCode.CONFIG);
  }
}
