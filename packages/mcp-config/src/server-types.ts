import type { ControlDef, ControlEntry } from './control-fields.js';

/**
 * Which file a server comes from: the user's own file (`<home>/mcp.json`) or a project's
 * (`<root>/.garuda/mcp.json`, written by whoever wrote the repository).
 */
export type ServerSource = 'user' | 'project';

/**
 * Optional OAuth settings of a remote server. Which client identity is used, in order: a
 * pre-registered `clientId`; a Client ID Metadata Document (`clientMetadataUrl`, or the host's
 * default) when the authorization server accepts them; dynamic registration.
 */
export interface OAuthSettings {
  /** A public client id registered beforehand with the server's authorization server. */
  readonly clientId?: string;
  /**
   * The https URL of a Client ID Metadata Document, used as the client id where the
   * authorization server supports them (overrides the host's default). Not with `clientId`.
   */
  readonly clientMetadataUrl?: string;
  /** Scopes to ask for at every sign-in, together with those the server's challenge names. */
  readonly scopes?: readonly string[];
}

/**
 * A local server as written in a file (and as `addServer` takes it): a program started over
 * stdio. Unknown keys are errors.
 */
export interface LocalServerEntry extends ControlEntry {
  /** The program to run (no shell is involved). */
  readonly command: string;
  /** Its arguments, passed as they are (no expansion). */
  readonly args?: readonly string[];
  /** Extra environment variables; values may use `${NAME}`. */
  readonly env?: Readonly<Record<string, string>>;
  /** The working folder. */
  readonly cwd?: string;
  /** Whether the sandbox lets it reach the network (default false). */
  readonly network?: boolean;
  /** Folders the sandbox lets it write, besides the project and temp folders. */
  readonly writePaths?: readonly string[];
  /**
   * Files or folders the sandbox hides that it may read anyway (read-only): a credential path
   * such as `~/.kube`, or a folder under `/tmp`. Relative paths are from the project root, `~/…`
   * from the home folder. The sandbox refuses Garuda's own folder.
   */
  readonly readPaths?: readonly string[];
  /** Time limit of a call, 1 000 … 600 000 ms (default 60 000). */
  readonly timeoutMs?: number;
  /**
   * Time limit of its start (start, connect, list tools), 1 000 … 600 000 ms; default the
   * host's (30 000 for garuda-mcp). For a server started through `npx`, it starts after the
   * package download, which has a limit of its own.
   */
  readonly startTimeoutMs?: number;
  /** Default true; a disabled server is listed but not started. */
  readonly enabled?: boolean;
}

/** A remote server as written in a file (and as `addServer` takes it): Streamable HTTP. */
export interface RemoteServerEntry extends ControlEntry {
  /** Its https address (http only for a user's server on localhost). */
  readonly url: string;
  /** The only transport there is; may be left out. */
  readonly type?: 'http';
  /** Extra request headers; values may use `${NAME}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Time limit of a call, 1 000 … 600 000 ms (default 60 000). */
  readonly timeoutMs?: number;
  /**
   * Time limit of its start (start, connect, list tools), 1 000 … 600 000 ms; default the
   * host's (30 000 for garuda-mcp). For a server started through `npx`, it starts after the
   * package download, which has a limit of its own.
   */
  readonly startTimeoutMs?: number;
  /** Default true; a disabled server is listed but not started. */
  readonly enabled?: boolean;
  /** OAuth client settings, when the server does not support dynamic registration. */
  readonly oauth?: OAuthSettings;
}

/** A server as written in a file: either local or remote, never both. */
export type ServerEntry = LocalServerEntry | RemoteServerEntry;

/** A validated local server with defaults applied; values are as written (not expanded). */
export interface LocalServerDef extends ControlDef {
  readonly kind: 'local';
  readonly command: string;
  readonly args: readonly string[];
  /** As written, `${NAME}` not expanded (see `LocalServerConfig.env` for the expanded values). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly network: boolean;
  readonly writePaths: readonly string[];
  /** As written (default `[]`); see {@link LocalServerEntry.readPaths}. */
  readonly readPaths: readonly string[];
  readonly timeoutMs: number;
  /** Its own start time limit, when it has one (see {@link LocalServerEntry.startTimeoutMs}). */
  readonly startTimeoutMs?: number;
  readonly enabled: boolean;
}

/** A validated remote server with defaults applied; values are as written (not expanded). */
export interface RemoteServerDef extends ControlDef {
  readonly kind: 'remote';
  readonly type: 'http';
  /** As written; `RemoteServerConfig.url` is the checked, parsed form. */
  readonly url: string;
  /** As written (see `RemoteServerConfig.headers` for the expanded values). */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Its own start time limit, when it has one (see {@link LocalServerEntry.startTimeoutMs}). */
  readonly startTimeoutMs?: number;
  readonly enabled: boolean;
  readonly oauth?: OAuthSettings;
}

/** A validated server definition. */
export type ServerDef = LocalServerDef | RemoteServerDef;

/**
 * Where an env or header value comes from, for a consent screen: written literally in the
 * file, or built from the listed `${NAME}`s of the caller's environment (`missing` ones are
 * not set: the value holds nothing in their place, and the manager does not start the server).
 */
export type EnvSource =
  | { readonly kind: 'literal' }
  | {
      readonly kind: 'vars';
      readonly names: readonly string[];
      readonly missing: readonly string[];
    };

/** An env or header value after `${NAME}` expansion, with where it comes from. */
export interface ResolvedValue {
  /** The expanded value. A secret may be in it: never log, hash or store it. */
  readonly value: string;
  readonly source: EnvSource;
}

/** A local server from `loadConfig`. */
export interface LocalServerConfig {
  readonly kind: 'local';
  /** The server name (valid: `^[a-z0-9][a-z0-9_-]{0,31}$`). */
  readonly name: string;
  /** Which file it comes from. */
  readonly source: ServerSource;
  /** The file it was read from, as the caller passed it. */
  readonly file: string;
  readonly def: LocalServerDef;
  /** Each env variable with its expanded value and its source. */
  readonly env: Readonly<Record<string, ResolvedValue>>;
}

/** A remote server from `loadConfig`. */
export interface RemoteServerConfig {
  readonly kind: 'remote';
  /** The server name (valid: `^[a-z0-9][a-z0-9_-]{0,31}$`). */
  readonly name: string;
  /** Which file it comes from. */
  readonly source: ServerSource;
  /** The file it was read from, as the caller passed it. */
  readonly file: string;
  readonly def: RemoteServerDef;
  /** The URL, checked with `checkServerUrl` for this server's source. */
  readonly url: URL;
  /** Each header with its expanded value and its source. */
  readonly headers: Readonly<Record<string, ResolvedValue>>;
}

/** A server from `loadConfig`; `kind` tells local from remote. */
export type ServerConfig = LocalServerConfig | RemoteServerConfig;
