import type path from 'node:path';

/** Where a host keeps the files {@link HostDescriptor.files} names, all absolute. */
export interface HostFolders {
  /** The user's home folder. */
  readonly userHome: string;
  /** The project's root folder. */
  readonly root: string;
  /** The folder where desktop apps keep their settings on this platform, for an app's name. */
  readonly appFolder: (name: string) => string;
}

/**
 * How a host writes a variable in the fields it expands:
 * - `claude`: `${NAME}` and `${NAME:-default}` (Claude Code);
 * - `gemini`: `${NAME}` and `$NAME` (Gemini CLI);
 * - `editor`: `${env:NAME}` and the editor's own variables (`${workspaceFolder}`…) (Cursor);
 * - `editor-inputs`: as `editor`, and `${input:id}` from the file's `inputs` (VS Code);
 * - `none`: nothing is expanded (Claude Desktop, Codex CLI).
 */
export type VariableSyntax = 'claude' | 'gemini' | 'editor' | 'editor-inputs' | 'none';

/**
 * How a host names a server's fields besides `command`, `args`, `env`, `cwd`, `url` and
 * `headers`:
 * - `common`: `type` names the transport (`stdio`, `http`, `sse`…);
 * - `gemini`: `httpUrl`, `url` (legacy SSE), `tcp`, and `timeout` in milliseconds;
 * - `codex`: no transport name, `env_vars`, `http_headers`, `env_http_headers`, bearer tokens
 *   and `tool_timeout_sec`.
 */
export type FieldDialect = 'common' | 'gemini' | 'codex';

/**
 * What Garuda knows about one MCP host (a client that starts MCP servers): where it keeps its
 * servers, how it writes them, and how its entry for Garuda's gateway looks. Every host
 * `readImportSources` reads and `garuda-mcp install` writes to is one of these.
 */
export interface HostDescriptor {
  /** Its id for import (`importSourceFiles`' `clients`, `ImportServer.client`): `cursor`. */
  readonly id: string;
  /** The name `garuda-mcp install` takes: `claude-code`. */
  readonly installName: string;
  /** Its place in install's list of hosts, lowest first (the list reads them by `id`'s order). */
  readonly installOrder: number;
  /** How messages name it: `Claude Code`. */
  readonly displayName: string;
  /**
   * Its files for one scope (`project`: inside the repository; `user`: the user's own), as the
   * host documents them; none when it has no file of that scope.
   */
  readonly files: (
    scope: 'user' | 'project',
    at: HostFolders,
    p: typeof path.posix,
  ) => readonly string[];
  /** `jsonc` allows comments and trailing commas. */
  readonly format: 'json' | 'jsonc' | 'toml';
  /** The top-level key of its server list: `mcpServers`. */
  readonly serversKey: string;
  /** Whether its user file also has servers of one project (`projects.<root>.mcpServers`). */
  readonly projectServers: boolean;
  readonly variables: VariableSyntax;
  readonly fields: FieldDialect;
  /** Whether a remote server's `oauth` settings (`clientId`, `scopes`) mean what Garuda's do. */
  readonly oauth: boolean;
  /** The entry that starts Garuda's gateway, for its command line. */
  readonly gatewayEntry: (command: string, args: readonly string[]) => Record<string, unknown>;
}

/**
 * {@link HostDescriptor.files} of a host that keeps the same file in the project and in the home
 * folder: `<root or home>/<folder>/<name>`. @internal
 */
export function inProjectAndHome(folder: string, name: string): HostDescriptor['files'] {
  return (scope, at, p) => [p.join(scope === 'project' ? at.root : at.userHome, folder, name)];
}

/** `{ command, args }`: the gateway's entry in most hosts. @internal */
export function commandEntry(command: string, args: readonly string[]): Record<string, unknown> {
  return { command, args: [...args] };
}
