import type { ApprovalMode, StartMode } from '@garuda/mcp-manager';
import type { TokenStorage } from '@garuda/mcp-oauth';
import type { ToolExposure } from '@garuda/mcp-config';
import type { SessionSwitches, TerminalSession } from './terminal-session.js';
import type { CliIo } from './io.js';
import type { Output } from './output.js';

/** The global options, resolved. */
export interface Globals {
  /** The project root (`--root`, default: the current folder), absolute. */
  readonly root: string;
  /** The Garuda home (`--home`, else `$GARUDA_HOME`, else `~/.garuda`), absolute. */
  readonly home: string;
  /** `--json`: machine-readable output on stdout. */
  readonly json: boolean;
  /** `--browser` / `$GARUDA_BROWSER`: the program (and arguments) that opens a sign-in page. */
  readonly browser: readonly string[] | undefined;
  /** `--yes`: approve tool calls without asking. */
  readonly yes: boolean;
  /** `--trust-project`: allow a project's servers for this run without asking. */
  readonly trustProject: boolean;
  /** `--accept-defaults`: answer a server's form with its defaults when they answer it. */
  readonly acceptDefaults: boolean;
  /**
   * `--approval-mode`: which calls run without asking, by their server's declared risk: `ask`
   * (every call; the default), `balanced` (read-only servers), `trusted` (all but destructive).
   */
  readonly approvalMode: ApprovalMode;
  /** `--exposure`: how the tools of servers that set no `exposure` reach the model. */
  readonly exposure: ToolExposure;
  /**
   * `--start`: `eager` (every server starts; the default) or `lazy` (a trusted server with pinned
   * tools is listed from the tool-list cache and starts on first use). Only `tools`, `status` and
   * `call` use it; every other command starts its servers.
   */
  readonly startMode: StartMode;
  /**
   * `--store` of `login`: where the tokens of a new sign-in are kept — `auto` (the default: the
   * OS keychain when it answers, else the auth file), `keyring`, `file` or `session` (this run
   * only). A sign-in already stored stays where it is.
   */
  readonly store: TokenStorage;
  /**
   * `--allow`, `--ask`, `--deny`: permission rules `mcp.<server>.<tool>` (globs with `*`), deny >
   * ask > allow.
   */
  readonly rules: {
    readonly allow: readonly string[];
    readonly ask: readonly string[];
    readonly deny: readonly string[];
  };
  /**
   * `--sandbox-read` / `$GARUDA_SANDBOX_READ`: folders under /tmp that sandboxed servers may
   * still read (the sandbox gives each server an empty private /tmp), absolute.
   */
  readonly sandboxRead: readonly string[];
  /**
   * `$GARUDA_CACHE_DIR`, else `$XDG_CACHE_HOME/garuda-mcp`, else `~/.cache/garuda-mcp`: where a
   * server started with `npx`, `uvx`… gets its own download cache. Absolute.
   */
  readonly cacheDir: string;
  /**
   * `--start-timeout`: the start limit of a server that sets no `"startTimeoutMs"`, in ms
   * (default the manager's 30 s). On `add`, the value written into the entry instead.
   */
  readonly startTimeoutMs?: number;
  /** `--download-timeout`: the limit of a package runner's download step, in ms (default 5 min). */
  readonly downloadTimeoutMs?: number;
  /**
   * `$GARUDA_DATA_DIR/servers`, else `$XDG_DATA_HOME/garuda-mcp/servers`, else
   * `~/.local/share/garuda-mcp/servers`: where each local server gets a home of its own. Absolute.
   */
  readonly serverHomesDir: string;
  /** The terminal session this run belongs to (Linux), for `--session` switches. */
  readonly session: TerminalSession | undefined;
  /** Servers `enable`/`disable --session` switched on or off for this terminal session. */
  readonly sessionSwitches: SessionSwitches;
  /** Whether questions can be asked: stdin and stderr are terminals. */
  readonly interactive: boolean;
}

/** What every command gets. */
export interface CommandContext {
  readonly io: CliIo;
  readonly output: Output;
  readonly globals: Globals;
  /** Aborts on Ctrl-C. */
  readonly signal: AbortSignal;
  /** Ends the command as if Ctrl-C was pressed (a prompt saw it in raw mode). */
  readonly interrupt: () => void;
  /** The CLI's version. */
  readonly version: string;
  /**
   * The config problems this run has shown (as `formatProblem` writes them), so each is told
   * once: the manager tells them again as notices when it starts.
   */
  readonly shownProblems: Set<string>;
}
