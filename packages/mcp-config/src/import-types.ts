import type { ConfigProblemCode } from './config-problem.js';
import { HOSTS, type HostId } from './hosts/index.js';
import type { ServerEntry, ServerSource } from './server-types.js';

/**
 * The MCP clients whose files {@link readImportSources} reads: Claude Code, Claude Desktop,
 * Cursor, VS Code, Gemini CLI and Codex CLI, in the order they are read.
 */
export const IMPORT_CLIENTS: readonly ImportClient[] = Object.freeze(HOSTS.map((host) => host.id));

/** One of {@link IMPORT_CLIENTS}: the `id` of one of {@link HOSTS}. */
export type ImportClient = HostId;

/**
 * The stable `code` of every {@link ImportNote}. Compare against these, never against messages.
 *
 * @example
 * ```ts
 * const moved = server.warnings.filter((w) => w.code === ImportNoteCode.SECRET_REPLACED);
 * for (const w of moved) ui.say(`set ${w.variable}`); // your UI: the package never prints
 * ```
 */
export const ImportNoteCode = Object.freeze({
  // A file as a whole (ImportFile.problems).
  /** The file exists but cannot be read (permissions, a folder or device at its path…). */
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  /** The file is larger than {@link MAX_IMPORT_FILE_BYTES}. */
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  /** The file is not UTF-8 text. */
  FILE_NOT_TEXT: 'FILE_NOT_TEXT',
  /** A JSON or TOML syntax error (with `line` and `column`), or an empty file. */
  INVALID_SYNTAX: 'INVALID_SYNTAX',
  /** Arrays and objects nest deeper than any configuration needs. */
  TOO_DEEP: 'TOO_DEEP',
  /** The top level, the server list or a server is not an object. */
  NOT_AN_OBJECT: 'NOT_AN_OBJECT',
  /** The same key twice (the server list, a server, or a field of a server). */
  DUPLICATE_KEY: 'DUPLICATE_KEY',
  /** A server list longer than anyone writes: only the first 500 servers were read. */
  TOO_MANY_SERVERS: 'TOO_MANY_SERVERS',

  // Why a server cannot be imported (NotImportableServer.problems).
  /** The legacy HTTP+SSE transport (`"type": "sse"`, Gemini's `url`, a URL ending in `/sse`). */
  LEGACY_SSE: 'LEGACY_SSE',
  /** Another transport Garuda does not have (WebSocket, an IDE or SDK connection…). */
  UNSUPPORTED_TRANSPORT: 'UNSUPPORTED_TRANSPORT',
  /** A variable in `command`, `args`, `cwd` or `url`, where Garuda expands nothing. */
  VARIABLE_NOT_EXPANDED: 'VARIABLE_NOT_EXPANDED',
  /** A `${…}` placeholder Garuda has no equivalent for (`${command:…}`, `${config:…}`…). */
  UNKNOWN_PLACEHOLDER: 'UNKNOWN_PLACEHOLDER',
  /** A secret written out in `command`, `args` or `url`, which cannot take a `${NAME}`. */
  SECRET_IN_PLAIN_FIELD: 'SECRET_IN_PLAIN_FIELD',
  /** A value `expandEnv` refuses: command substitution (`$(`, a backtick, a leading `!`). */
  VALUE_REFUSED: 'VALUE_REFUSED',
  /** The converted entry fails this package's own validation (`configProblemCode` says how). */
  INVALID_ENTRY: 'INVALID_ENTRY',
  /** The same entry, under the same name, as a server listed before it (in the same scope). */
  SAME_AS_EARLIER: 'SAME_AS_EARLIER',

  // Warnings (ImportServer.warnings).
  /** The name was changed (not a valid Garuda name, or already taken). */
  RENAMED: 'RENAMED',
  /** A secret written out was replaced by `${variable}`: set that variable. */
  SECRET_REPLACED: 'SECRET_REPLACED',
  /** `${NAME:-default}` became `${NAME}`: the default is not carried over. */
  DEFAULT_DROPPED: 'DEFAULT_DROPPED',
  /** A VS Code `${input:…}` became `${variable}`: set that variable. */
  INPUT_REPLACED: 'INPUT_REPLACED',
  /** `${workspaceFolder}`, `${userHome}` or the like was replaced by the path it stands for. */
  PATH_SUBSTITUTED: 'PATH_SUBSTITUTED',
  /** Fields Garuda has no equivalent for (`keys`), left out. */
  NOT_CARRIED_OVER: 'NOT_CARRIED_OVER',
  /** An auto-approve or trust setting (`keys`): Garuda still asks before every call. */
  AUTO_APPROVE_NOT_CARRIED: 'AUTO_APPROVE_NOT_CARRIED',
  /** A tool filter (`keys`): Garuda offers every tool the server lists. */
  TOOL_FILTER_NOT_CARRIED: 'TOOL_FILTER_NOT_CARRIED',
  /** A time limit outside 1 000…600 000 ms, or one for starting: the default applies. */
  TIMEOUT_NOT_CARRIED: 'TIMEOUT_NOT_CARRIED',
  /** A Claude Code server of one project only, which Garuda's user file has for every project. */
  PROJECT_LOCAL: 'PROJECT_LOCAL',
} as const);

/** One of the values of {@link ImportNoteCode}. */
export type ImportNoteCode = (typeof ImportNoteCode)[keyof typeof ImportNoteCode];

/**
 * One warning or problem of an import. The structured fields say what it is about; `message`
 * is one line for a terminal that says what happened and what to do. Text from the file
 * appears in it (and in `field`, `keys`) only cleaned with `cleanLine` and capped; a secret's
 * value never does.
 */
export interface ImportNote {
  readonly code: ImportNoteCode;
  /**
   * The field concerned (`env.API_KEY`, `args[2]`, `url`): as written in the source file, or
   * for `INVALID_ENTRY` the field of the converted Garuda entry.
   */
  readonly field?: string;
  /** The environment variable the user should set (`SECRET_REPLACED`, `INPUT_REPLACED`…). */
  readonly variable?: string;
  /** The fields concerned (`NOT_CARRIED_OVER`, `AUTO_APPROVE_NOT_CARRIED`…). */
  readonly keys?: readonly string[];
  /** For `RENAMED`: the name as written (cleaned) and the name it got. */
  readonly from?: string;
  readonly to?: string;
  /** For `INVALID_ENTRY`: the code of the validation problem. */
  readonly configProblemCode?: ConfigProblemCode;
  /** 1-based line and column in the file, when known. */
  readonly line?: number;
  readonly column?: number;
  /** What happened and what to do, as one line. */
  readonly message: string;
}

/** One file where a client keeps MCP servers, as {@link importSourceFiles} lists it. */
export interface ImportSourceFile {
  readonly client: ImportClient;
  /**
   * `project` for a file inside the repository (`.mcp.json`, `.cursor/mcp.json`,
   * `.vscode/mcp.json`, `.gemini/settings.json`): whoever wrote the repository wrote it.
   * `user` for the user's own files.
   */
  readonly scope: ServerSource;
  /** Absolute path. */
  readonly file: string;
}

/** A file after reading. */
export interface ImportFile extends ImportSourceFile {
  /** `missing`: not there (not a problem); `unusable`: no server could be read from it. */
  readonly status: 'found' | 'missing' | 'unusable';
  /** What is wrong with the file as a whole (also when some servers were still read). */
  readonly problems: readonly ImportNote[];
}

interface ImportServerBase {
  readonly client: ImportClient;
  /** The scope of its file: the Garuda file it belongs in (`project`: `<root>/.garuda/mcp.json`). */
  readonly scope: ServerSource;
  readonly file: string;
  /** The keys leading to the server in its file, e.g. `['mcpServers', 'github']` (cleaned). */
  readonly path: readonly string[];
  /** The name as written (cleaned, capped). */
  readonly sourceName: string;
  readonly line?: number;
  readonly column?: number;
  readonly warnings: readonly ImportNote[];
}

/** A server that can be added to Garuda's file as `entry` under `name`. */
export interface ImportableServer extends ImportServerBase {
  readonly importable: true;
  /** A valid Garuda name, unique among the importable servers and the caller's names. */
  readonly name: string;
  /** The entry, already checked with this package's validation for `scope`. */
  readonly entry: ServerEntry;
}

/** A server that cannot be imported, and why. */
export interface NotImportableServer extends ImportServerBase {
  readonly importable: false;
  readonly problems: readonly ImportNote[];
}

/** One server found in another client's file. */
export type ImportServer = ImportableServer | NotImportableServer;

/** The result of {@link readImportSources}. */
export interface ImportSourcesResult {
  /** Every file looked at, in reading order (user files first), found or not. */
  readonly files: readonly ImportFile[];
  /** Every server found, in the same order, importable or not. */
  readonly servers: readonly ImportServer[];
}

/** Where the files are: the caller knows the machine, this package never asks it. */
export interface ImportLocationOptions {
  /** The user's home folder (`os.homedir()`), absolute. */
  readonly userHome: string;
  /** The project's root folder, absolute. */
  readonly root: string;
  /** `process.platform`: decides where Claude Desktop and VS Code keep their files. */
  readonly platform: string;
  /** Windows: `%APPDATA%` (default `<userHome>\AppData\Roaming`). */
  readonly appData?: string;
  /** Linux and others: `$XDG_CONFIG_HOME` (default `<userHome>/.config`). */
  readonly configHome?: string;
  /** Only these clients (default: all, in {@link IMPORT_CLIENTS} order). */
  readonly clients?: readonly ImportClient[];
  /** Only these scopes (default both: user files first, then the project's). */
  readonly scopes?: readonly ServerSource[];
}

/** Options of {@link readImportSources}. */
export interface ReadImportSourcesOptions extends ImportLocationOptions {
  /**
   * Names already used in Garuda's files: an imported server of that name gets a suffix
   * (`github-2`) and a `RENAMED` warning.
   */
  readonly existingNames?: Iterable<string>;
}
