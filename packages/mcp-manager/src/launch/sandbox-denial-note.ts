// The note a tool error gets when the sandbox, not the server, refused a file: which path, and
// what would allow it. The error text is the server's (attacker-influenced): every path taken
// from it is cleaned and quoted, and a command suggested with it is shell-quoted.
import { statSync } from 'node:fs';
import path from 'node:path';
import { commandLine, type LocalServerConfig, type ServerConfig } from '@garuda/mcp-config';
import { cleanLine } from '@garuda/mcp-sanitize';
import { hiddenPathOf, type SandboxInfo } from '@garuda/mcp-transport';
import { CallFailedError } from '../errors.js';
import type { CheckedOptions } from '../options.js';
import { isWithin, type SandboxFolders } from './paths.js';
import { configuredPath } from './configured-path.js';
import { SERVERS_OPTION_LABEL } from '../start/load-servers.js';
import type { ManagerCallResult } from '../types.js';
import { SERVER_HOME_FOLDERS, serverHomeOf } from './server-home.js';
import { quoteText } from '../common/text.js';

/** How much of an error's text is searched for a path. */
const MAX_SCANNED_CHARS = 20_000;

/**
 * A file that was not found: the sandbox's doing only when it is in a hidden path (on Linux a
 * hidden folder is empty inside).
 */
const NOT_FOUND = /\bENOENT\b|no such file or directory/i;

/**
 * A folder that could not be made: under bubblewrap, `mkdir` of a folder whose parent is
 * missing in a read-only place says ENOENT, not EROFS (`ENOENT: no such file or directory,
 * mkdir '/root/.cache/ms-playwright'`). Outside the places the server may write, that is the
 * sandbox's doing too.
 */
const MKDIR = /\bmkdir\b/;

/** Paths taken from one error text, at most. */
const MAX_CANDIDATES = 10;

/** The longest path quoted in a note, in code points. */
const MAX_NOTE_PATH_CHARS = 300;

/** The longest suggested command; a longer one is left out (a cut command would be wrong). */
const MAX_COMMAND_CHARS = 1_000;

/** What the sandbox writes or says when it refuses a file (Linux and macOS, several languages). */
const DENIED =
  /\b(?:EROFS|EACCES|EPERM)\b|read-only file system|permission denied|operation not permitted|access ?(?:is )?denied/i;

/**
 * Absolute paths in an error text: quoted (`'…'`, `"…"`, `` `…` ``) as Node, Python and Rust
 * write them, or bare after a space or `(`, `=`, `:` or `,` as Go and Java do. Each branch stops
 * at the first character that ends it (its own quote, a line break), so matching stays linear.
 */
const PATHS =
  /'(\/[^'\n]{0,4096})'|"(\/[^"\n]{0,4096})"|`(\/[^`\n]{0,4096})`|(?:^|[\s(=:,])(\/[^\s'"`:;,()<>]{1,4096})/g;

/** The folders a server is started with (resolved), for {@link sandboxDenialNote}. */
export interface DenialSubject extends SandboxFolders {
  /** The local server, as loaded (its name, file, source and definition as written). */
  readonly server: LocalServerConfig;
  /** Where the server may write: its write paths and the temp folders, resolved (not the root). */
  readonly writable: readonly string[];
  /** Its read paths and the sandbox's, resolved. */
  readonly readPaths: readonly string[];
  /** Its own home folder (also in `writable`), named in a note on a path under the user's home. */
  readonly serverHome?: string;
}

// Folders of the system, and of macOS: never suggested as a write path, whatever an error says.
const SYSTEM_FOLDERS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/nix',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/sys',
  '/usr',
  '/var/backups',
  '/var/cache',
  '/var/db',
  '/var/lib',
  '/var/lock',
  '/var/log',
  '/var/mail',
  '/var/opt',
  '/var/run',
  '/var/spool',
  '/Applications',
  '/Library',
  '/System',
  '/private',
];

/**
 * A path without the dots that end its sentence. By hand: `/\.+$/` would read a long run of
 * dots again from each one.
 */
function withoutTrailingDots(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2e) end--;
  return text.slice(0, end);
}

/** The absolute paths an error text names, cleaned, in order, each once. */
function pathsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.slice(0, MAX_SCANNED_CHARS).matchAll(PATHS)) {
    const raw = withoutTrailingDots(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
    // A path with hidden or control characters is no path to quote, nor to suggest.
    if (raw.length < 2 || cleanLine(raw) !== raw || raw.includes('\\')) continue;
    const file = path.resolve(raw);
    if (!found.includes(file)) found.push(file);
    if (found.length >= MAX_CANDIDATES) break;
  }
  return found;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The folder to suggest for a path: itself when it is a folder, else its nearest existing parent. */
function folderFor(file: string): string {
  if (isDirectory(file)) return file;
  let dir = path.dirname(file);
  while (dir !== path.dirname(dir) && !isDirectory(dir)) dir = path.dirname(dir);
  return dir;
}

/**
 * Whether a folder may be suggested as a write path: never `/`, the home folder or a folder
 * that holds it, a system folder, or a dot-folder (`~/.config`, `~/.local`: what runs at the
 * next login or shell lives there). The path comes from the server's own error, so a hostile
 * server could otherwise have the host suggest opening such a place.
 */
function suggestable(dir: string, home: string): boolean {
  if (dir === path.parse(dir).root || isWithin(home, dir)) return false;
  if (SYSTEM_FOLDERS.some((system) => isWithin(dir, system))) return false;
  return !dir.split(path.sep).some((part) => part.startsWith('.'));
}

/** The `garuda-mcp add … --replace` command that gives the server these flags, if short enough. */
/** Whether the server came from the `servers` option (code), not a file the CLI can edit. */
function fromCode(server: LocalServerConfig): boolean {
  return server.file === SERVERS_OPTION_LABEL;
}

/** Where the server's settings are written: its file, quoted, or the `servers` option. */
function writtenIn(server: LocalServerConfig): string {
  return fromCode(server) ? 'the McpManager option "servers"' : quotedPath(server.file);
}

function addCommand(server: LocalServerConfig, flags: readonly string[]): string | undefined {
  if (fromCode(server)) return undefined;
  const command = commandLine({
    command: 'garuda-mcp',
    args: [
      'add',
      server.name,
      ...(server.source === 'project' ? ['--project'] : []),
      '--replace',
      ...flags,
      '--',
      server.def.command,
      ...server.def.args,
    ],
  });
  return command.length <= MAX_COMMAND_CHARS ? command : undefined;
}

function depth(file: string): number {
  return file.split(path.sep).filter(Boolean).length;
}

/**
 * Whether the sandbox lets the server write `file`: the deepest of the root, the write paths, the
 * temp folders and the read paths that holds it decides (a read path under `/tmp` is bound
 * read-only on top of it); at equal depth a writable folder wins, as the mounts do.
 */
function mayWrite(file: string, subject: DenialSubject): boolean {
  let best: { depth: number; writable: boolean } | undefined;
  const consider = (dir: string, writable: boolean): void => {
    if (!isWithin(file, dir)) return;
    const at = depth(path.resolve(dir));
    if (best === undefined || at > best.depth || (at === best.depth && writable)) {
      best = { depth: at, writable };
    }
  };
  for (const dir of [subject.root, ...subject.writable]) consider(dir, true);
  for (const dir of subject.readPaths) consider(dir, false);
  return best?.writable === true;
}

function quotedPath(file: string): string {
  return quoteText(file, MAX_NOTE_PATH_CHARS);
}

/**
 * The note for one path, or `undefined` when the sandbox is not what refused it. `missing`: the
 * error says the file was not found, which only a hidden path explains.
 */
function noteFor(file: string, subject: DenialSubject, missing: boolean): string | undefined {
  const { server } = subject;
  const name = JSON.stringify(server.name);
  const hidden = hiddenPathOf(file, { home: subject.userHome, garudaHome: subject.garudaHome });
  if (hidden?.kind === 'garudaHome') {
    return `${quotedPath(file)} is in Garuda's own folder, which the sandbox hides from every MCP server; no setting allows it`;
  }
  if (hidden?.kind === 'system') {
    return `${quotedPath(file)} is in ${quotedPath(hidden.path)}, which the sandbox hides from every MCP server (its sockets lead out of the sandbox); no setting allows it`;
  }
  if (hidden?.kind === 'credential') {
    const shown = `~/${hidden.name ?? ''}`;
    if (subject.readPaths.some((read) => isWithin(file, read))) {
      if (missing) return undefined; // shown, so it is really not there
      return `the sandbox shows ${quoteText(shown)} to MCP server ${name} read-only: no server may write a credential path`;
    }
    const command = addCommand(server, [
      ...server.def.readPaths.flatMap((read) => ['--read', read]),
      '--read',
      shown,
    ]);
    return (
      `${quotedPath(file)} is in ${quoteText(shown)}, which the sandbox hides from MCP servers ` +
      `(credentials; no server may write there). If the user wants MCP server ${name} to read ` +
      `it, add ${quoteText(shown)} to its "readPaths" in ${writtenIn(server)}` +
      (command === undefined ? '' : `: ${command}`)
    );
  }
  if (missing || mayWrite(file, subject)) return undefined;

  const own = ownHomeHint(file, subject);
  const where =
    `the sandbox lets MCP server ${name} write only the project folder, its write paths and ` +
    `temp folders; ${quotedPath(file)} is outside them.`;
  const folder = folderFor(file);
  if (!suggestable(folder, subject.userHome)) {
    return (
      `${where} No folder is suggested for it (the home folder or one that holds it, a ` +
      'system folder or a dot-folder): if it should be allowed, the user can name a narrower ' +
      'folder in its "writePaths"' +
      own
    );
  }
  const command = addCommand(server, [
    ...server.def.writePaths.flatMap((write) => ['--write', write]),
    '--write',
    folder,
  ]);
  return (
    `${where} If the user wants to allow it, add ${quotedPath(folder)} to its "writePaths" in ` +
    writtenIn(server) +
    (command === undefined ? '' : `: ${command}`) +
    own
  );
}

/**
 * For a path under the user's home: the server's own home, where it may write, and how to
 * point it there (`${GARUDA_SERVER_HOME}` in its env or args); empty otherwise.
 */
function ownHomeHint(file: string, subject: DenialSubject): string {
  if (subject.serverHome === undefined || !isWithin(file, subject.userHome)) return '';
  const variables = Object.keys(SERVER_HOME_FOLDERS).join(', ');
  return (
    `. MCP server ${JSON.stringify(subject.server.name)} has a writable home of its own, ` +
    `${quotedPath(subject.serverHome)} (${variables} point into it): if the server has a ` +
    'setting for where it keeps this, point it there with ${GARUDA_SERVER_HOME} in its "env" ' +
    'or "args" (e.g. --env NAME=\'${GARUDA_SERVER_HOME}/…\')'
  );
}

/**
 * The note for a sandboxed local server's tool error whose text says the system refused a file
 * (`EROFS`, `EACCES`, `EPERM`, "read-only file system", "permission denied", "operation not
 * permitted", "access denied") and names an absolute path the sandbox keeps from the server: a
 * path outside the project, its write paths and temp folders (with the write path that would
 * allow it, and the `garuda-mcp add … --replace --write` command); a hidden credential path
 * (with `--read` for it: it can be shown read-only, never made writable); Garuda's own folder or
 * a socket place (no setting allows them). A file not found (`ENOENT`) gets a note only in a
 * hidden path (a hidden folder is empty inside), or when a folder could not be made (`mkdir`)
 * outside where the server may write. A path under the user's home also names the server's
 * own home and `${GARUDA_SERVER_HOME}`. The first such path of the text decides; a text
 * without one gets none.
 * Paths are cleaned and JSON-quoted, the command shell-quoted; a path with hidden characters is
 * skipped. A folder is suggested only when it is not `/`, the home folder or a folder above it,
 * a system folder or a dot-folder (the text is the server's, and could try to have such a place
 * opened). @internal
 *
 * @param text - The error as the model sees it (already cleaned).
 * @param subject - The server and its sandbox's folders.
 * @returns The note (without `(note: …)` around it), or `undefined`.
 * @example
 * ```ts
 * sandboxDenialNote("EROFS: read-only file system, open '/home/ada/docs/x.txt'", subject);
 * // 'the sandbox lets MCP server "fs" write only … "/home/ada/docs/x.txt" is outside them. …'
 * ```
 */
export function sandboxDenialNote(text: string, subject: DenialSubject): string | undefined {
  if (typeof text !== 'string') return undefined;
  const head = text.slice(0, MAX_SCANNED_CHARS);
  const denied = DENIED.test(head);
  if (!denied && !NOT_FOUND.test(head)) return undefined;
  // A folder that could not be made counts as refused (see MKDIR); noteFor still leaves out one
  // the server may write.
  const refused = denied || MKDIR.test(head);
  for (const file of pathsIn(text)) {
    const note = noteFor(file, subject, !refused);
    if (note !== undefined) return note;
  }
  return undefined;
}

/** The temp folders every sandbox lets a server write (Linux: a private `/tmp`; macOS: shared). */
const SYSTEM_TEMP_DIRS = ['/tmp', '/private/tmp'];

/** What a call's note needs to know: the server, the sandbox found and the manager's folders. */
export interface DenialContext {
  readonly server: ServerConfig;
  readonly sandbox: SandboxInfo | undefined;
  readonly options: Pick<
    CheckedOptions,
    'root' | 'home' | 'userHome' | 'tempDirs' | 'sandboxReadPaths' | 'serverHomesDir'
  >;
}

/**
 * What a program says when it cannot reach another machine: a name that does not resolve, a
 * network that is not there (the sandbox's own namespace has only loopback), fetch's bare words.
 */
const NO_NETWORK =
  /\bfetch failed\b|\b(?:ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH)\b|getaddrinfo|network is unreachable|temporary failure in name resolution|name or service not known/i;

/**
 * The note for a tool error of a server without network whose text says it could not reach
 * the network: the sandbox has it offline, and what would allow it. @internal
 */
export function noNetworkNote(text: string, server: LocalServerConfig): string | undefined {
  if (server.def.network || !NO_NETWORK.test(text.slice(0, MAX_SCANNED_CHARS))) return undefined;
  const command = addCommand(server, ['--network']);
  return (
    `MCP server ${quoteText(server.name)} has no network access in the sandbox ("network": false ` +
    `in ${writtenIn(server)}), so it cannot reach other machines. ` +
    `To allow it: ${command === undefined ? 'set "network": true for it' : command}`
  );
}

/** The note for `text`, when the server is a sandboxed local one. */
function noteOf(text: string, context: DenialContext): string | undefined {
  const { server, sandbox, options } = context;
  if (server.kind !== 'local' || sandbox === undefined || sandbox.kind === 'none') return undefined;
  const offline = noNetworkNote(text, server);
  if (offline !== undefined) return offline;
  const resolve = (written: string): string => configuredPath(written, options);
  let serverHome: string | undefined;
  try {
    serverHome = serverHomeOf(options.serverHomesDir, server, options.root);
  } catch {
    serverHome = undefined; // a name no folder can have: it never started
  }
  return sandboxDenialNote(text, {
    server,
    root: options.root,
    userHome: options.userHome,
    garudaHome: options.home,
    writable: [
      ...server.def.writePaths.map(resolve),
      ...options.tempDirs,
      ...SYSTEM_TEMP_DIRS,
      ...(serverHome === undefined ? [] : [serverHome]),
    ],
    readPaths: [...options.sandboxReadPaths, ...server.def.readPaths.map(resolve)],
    ...(serverHome === undefined ? {} : { serverHome }),
  });
}

/**
 * A tool result, with the sandbox's note after the wrapper when it is an error the sandbox
 * caused (see {@link sandboxDenialNote}). @internal
 *
 * @param result - The formatted result.
 * @param context - The server, the sandbox and the manager's folders.
 * @returns `result`, or a copy whose text ends with a `(note: …)` line.
 */
export function withDenialNote(
  result: ManagerCallResult,
  context: DenialContext,
): ManagerCallResult {
  if (!result.isError) return result;
  const note = noteOf(result.text, context);
  return note === undefined ? result : { ...result, text: `${result.text}\n(note: ${note})` };
}

/**
 * A failed call's error (a JSON-RPC error of the server), with the sandbox's note at the end of
 * its message when the sandbox caused it; any other error as it is. @internal
 *
 * @param error - What the call threw.
 * @param tool - The tool's model-facing name.
 * @param context - The server, the sandbox and the manager's folders.
 * @returns The error to throw.
 */
export function withDenialNoteError(error: unknown, tool: string, context: DenialContext): unknown {
  if (!CallFailedError.isInstance(error)) return error;
  const note = noteOf(error.message, context);
  if (note === undefined) return error;
  const prefix = `The call of ${tool} failed: `;
  const detail = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return new CallFailedError(tool, `${detail} (note: ${note})`, { cause: error.cause });
}
