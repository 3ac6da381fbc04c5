import {
  McpManager,
  StartCancelledError,
  UnknownServerError,
  type McpManagerOptions,
  type ServerLogLevel,
  type StartMode,
} from '@garuda/mcp-manager';
import { openBrowser } from '@garuda/mcp-oauth';
import { isShownProblemNotice, readConfig } from './cli-config.js';
import type { CommandContext } from './context.js';
import { CliError, ExitCode } from './exit-codes.js';
import { createPrompter, type CliPrompter, type PrompterOptions } from './prompter.js';

/** Options of {@link withManager}. */
export interface WithManagerOptions {
  /** Start only these servers. */
  readonly only?: readonly string[];
  /** Answer the sign-in question with yes (`login`). */
  readonly signIn?: boolean;
  /** The progress line while servers start. */
  readonly progress?: string;
  /** When servers start (default `eager`: a command that checks or lists servers starts them). */
  readonly startMode?: StartMode;
}

/** The levels of a server's log messages that the CLI shows on stderr. */
const SHOWN_LOG_LEVELS: ReadonlySet<ServerLogLevel> = new Set<ServerLogLevel>([
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/**
 * A manager for this run: the CLI's prompter, the user's environment, `--browser`; `hooks` adds
 * what one command listens to (`serve`: the changes it tells its host, where a sign-in page
 * goes, and the servers' logs it relays to its hosts).
 */
export function createManager(
  ctx: CommandContext,
  prompter: CliPrompter,
  startMode: StartMode = 'eager',
  hooks: Pick<McpManagerOptions, 'onChange' | 'openBrowser' | 'onServerLog'> = {},
): McpManager {
  const { globals, io } = ctx;
  const { onServerLog: relayLog, ...rest } = hooks;
  const command = globals.browser;
  return new McpManager({
    root: globals.root,
    home: globals.home,
    userHome: io.userHome,
    env: io.env,
    clientInfo: { name: 'garuda-mcp', version: ctx.version },
    prompter,
    rules: {
      allow: globals.rules.allow,
      ask: globals.rules.ask,
      deny: globals.rules.deny,
      approvalMode: globals.approvalMode,
    },
    tools: {
      exposure: globals.exposure,
      startMode,
      enabledForSession: globals.sessionSwitches,
    },
    // The keychain is reached through the user's own session bus (io.env).
    storage: { tokenStorage: globals.store },
    sandbox: {
      readPaths: globals.sandboxRead,
      cacheDir: globals.cacheDir,
      serverHomesDir: globals.serverHomesDir,
    },
    timeouts: {
      ...(globals.startTimeoutMs === undefined ? {} : { startMs: globals.startTimeoutMs }),
      ...(globals.downloadTimeoutMs === undefined ? {} : { downloadMs: globals.downloadTimeoutMs }),
    },
    // A first download can take minutes: say what the start is waiting for.
    onStartStep: (event) => {
      if (event.step !== 'downloading') return;
      const packages = event.packages.join(', ');
      // Already in the server's cache: the runner only asks whether a newer version is out.
      ctx.output.err(
        event.checking === true
          ? `MCP server "${event.server}": checking ${packages} for a newer version…`
          : `MCP server "${event.server}": downloading ${packages}…`,
      );
    },
    // A server's warnings and worse reach the terminal (cleaned by the manager, at most 10 a
    // second); the rest of its log is noise for a command line. `serve` also relays every
    // message to its hosts.
    onServerLog: (entry) => {
      relayLog?.(entry);
      if (!SHOWN_LOG_LEVELS.has(entry.level)) return;
      const from = entry.logger === undefined ? '' : ` ${entry.logger}`;
      ctx.output.err(`MCP server "${entry.server}" ${entry.level}${from}: ${entry.text}`);
    },
    openBrowser: (url, options) =>
      openBrowser(url, {
        allowHttpLoopback: options.allowHttpLoopback,
        ...(command === undefined ? {} : { command }),
      }),
    ...rest,
  });
}

/** The prompter of this run, from the global flags. */
export function cliPrompter(
  ctx: CommandContext,
  extra: Partial<PrompterOptions> = {},
): CliPrompter {
  return createPrompter(ctx.output, {
    interactive: ctx.globals.interactive,
    yes: ctx.globals.yes,
    trustProject: ctx.globals.trustProject,
    acceptDefaults: ctx.globals.acceptDefaults,
    onInterrupt: ctx.interrupt,
    // The config problems were told first (readConfig); the manager's notices repeat them.
    skipNotice: (text) => isShownProblemNotice(ctx, text),
    ...extra,
  });
}

/**
 * Starts a manager (all servers, or `only`), runs `work`, and always closes it: no server process
 * outlives the command. The config problems are told first, before anything starts. Ctrl-C
 * during the start ends with exit 130; an unknown server name with exit 2.
 */
export async function withManager<T>(
  ctx: CommandContext,
  options: WithManagerOptions,
  work: (mcp: McpManager, prompter: CliPrompter) => Promise<T>,
): Promise<T> {
  await readConfig(ctx);
  const prompter = cliPrompter(ctx, options.signIn === true ? { signIn: true } : {});
  const mcp = createManager(ctx, prompter, options.startMode);
  try {
    try {
      await ctx.output.progress(options.progress ?? 'Starting MCP servers', () =>
        mcp.start({
          signal: ctx.signal,
          ...(options.only === undefined ? {} : { only: options.only }),
        }),
      );
    } catch (error) {
      if (StartCancelledError.isInstance(error) || ctx.signal.aborted) {
        throw new CliError('Interrupted.', ExitCode.INTERRUPTED);
      }
      if (UnknownServerError.isInstance(error)) {
        throw new CliError(
          `${error.message.replace('status()', 'garuda-mcp status')}.`,
          ExitCode.USAGE,
        );
      }
      throw error;
    }
    return await work(mcp, prompter);
  } finally {
    await mcp.close();
  }
}
