import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { hiddenPathOf } from '@garuda/mcp-transport';
import { addCommand, removeCommand, setEnabledCommand } from './commands/add-remove.js';
import { callCommand } from './commands/call.js';
import { doctorCommand } from './commands/doctor.js';
import { installCommand } from './commands/install.js';
import { SERVE_APPROVALS, serveCommand, type ServeApprovals } from './commands/serve.js';
import { LIMITS as GATEWAY_LIMITS } from '@garuda/mcp-gateway';
import { getCommand, listCommand } from './commands/list.js';
import { importCommand } from './commands/import.js';
import { loginCommand, logoutCommand } from './commands/login.js';
import { statusCommand } from './commands/status.js';
import { promptCommand, promptsCommand } from './commands/prompts.js';
import { readCommand, resourcesCommand } from './commands/resources.js';
import { toolsCommand } from './commands/tools.js';
import { auditCommand } from './commands/audit.js';
import { trustForgetCommand, trustListCommand } from './commands/trust.js';
import type { CommandContext, Globals } from './context.js';
import { didYouMean } from './did-you-mean.js';
import { CliError, ExitCode, usageError } from './exit-codes.js';
import { COMMANDS, helpText } from './help.js';
import { readSessionSwitches, terminalSession } from './terminal-session.js';
import type { CliIo } from './io.js';
import { Output } from './output.js';
import { CLI_VERSION } from './version.js';
import {
  APPROVAL_MODES,
  AUTO_SEARCH_MIN_TOOLS,
  validateToolRule,
  type ApprovalMode,
} from '@garuda/mcp-manager';
import { TOOL_EXPOSURES, type ToolExposure } from '@garuda/mcp-config';
import { TOKEN_STORAGES, type TokenStorage } from '@garuda/mcp-oauth';
import { limitOf } from './durations.js';

const OPTIONS = {
  root: { type: 'string' },
  home: { type: 'string' },
  json: { type: 'boolean' },
  browser: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'trust-project': { type: 'boolean' },
  'accept-defaults': { type: 'boolean' },
  'approval-mode': { type: 'string' },
  exposure: { type: 'string' },
  start: { type: 'string' },
  allow: { type: 'string', multiple: true },
  ask: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  'sandbox-read': { type: 'string', multiple: true },
  'start-timeout': { type: 'string' },
  'download-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  // add / remove / enable / disable
  project: { type: 'boolean' },
  session: { type: 'boolean' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  network: { type: 'boolean' },
  cwd: { type: 'string' },
  write: { type: 'string', multiple: true },
  read: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  replace: { type: 'boolean' },
  // remove
  'delete-home': { type: 'boolean' },
  // login
  scope: { type: 'string', multiple: true },
  store: { type: 'string' },
  // serve
  approvals: { type: 'string' },
  http: { type: 'boolean' },
  port: { type: 'string' },
  'answer-timeout': { type: 'string' },
  // import
  from: { type: 'string', multiple: true },
  all: { type: 'boolean' },
  only: { type: 'string', multiple: true },
  // install
  move: { type: 'boolean' },
  'no-move': { type: 'boolean' },
  // demo
  interactive: { type: 'boolean' },
  // audit
  verify: { type: 'boolean' },
  since: { type: 'string' },
} as const;

/** Options that belong to some commands only (each appears in those commands' help). */
export const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  project: ['add', 'remove', 'enable', 'disable', 'import'],
  session: ['enable', 'disable'],
  url: ['add'],
  header: ['add'],
  env: ['add'],
  network: ['add'],
  cwd: ['add'],
  write: ['add'],
  read: ['add'],
  timeout: ['add'],
  replace: ['add'],
  'delete-home': ['remove'],
  scope: ['login'],
  store: ['login'],
  approvals: ['serve'],
  http: ['serve'],
  port: ['serve'],
  'answer-timeout': ['serve'],
  from: ['import'],
  all: ['import'],
  only: ['import'],
  move: ['install'],
  'no-move': ['install'],
  interactive: ['demo'],
  verify: ['audit'],
  since: ['audit'],
};

/** The CLI's version, from its package.json at build time (see version.ts). */
export function cliVersion(): string {
  return CLI_VERSION;
}

function splitCommandLine(text: string): string[] {
  return text.split(/\s+/).filter((part) => part !== '');
}

function positionalCount(args: readonly string[], min: number, max: number, command: string): void {
  if (args.length < min || args.length > max) {
    throw usageError(
      `${args.length < min ? 'Missing' : 'Too many'} arguments. Usage: ${COMMANDS[command]?.usage ?? command}`,
    );
  }
}

/**
 * Runs `garuda-mcp` with `argv` (without `node` and the script) and returns the exit code. All
 * output goes through `io`; nothing here reads `process`.
 */
/** The package runners' caches: `$GARUDA_CACHE_DIR`, else the XDG cache folder, else `~/.cache`. */
function cacheDirOf(io: CliIo): string {
  const own = io.env.GARUDA_CACHE_DIR;
  if (own !== undefined && own !== '') return path.resolve(io.cwd, own);
  const xdg = io.env.XDG_CACHE_HOME;
  // The XDG rule: a relative value is to be ignored.
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(io.userHome, '.cache');
  return path.join(base, 'garuda-mcp');
}

/** `--start-timeout` and `--download-timeout`, in ms, when given. */
function limitsOf(
  start: string | undefined,
  download: string | undefined,
): Pick<Globals, 'startTimeoutMs' | 'downloadTimeoutMs'> {
  return {
    ...(start === undefined ? {} : { startTimeoutMs: limitOf('--start-timeout', start) }),
    ...(download === undefined
      ? {}
      : { downloadTimeoutMs: limitOf('--download-timeout', download) }),
  };
}

/**
 * Each server's own home folder: `$GARUDA_DATA_DIR/servers`, else
 * `$XDG_DATA_HOME/garuda-mcp/servers`, else `~/.local/share/garuda-mcp/servers`.
 */
function serverHomesDirOf(io: CliIo): string {
  const own = io.env.GARUDA_DATA_DIR;
  if (own !== undefined && own !== '') return path.resolve(io.cwd, own, 'servers');
  const xdg = io.env.XDG_DATA_HOME;
  // The XDG rule: a relative value is to be ignored.
  const base =
    xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(io.userHome, '.local', 'share');
  return path.join(base, 'garuda-mcp', 'servers');
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const output = new Output(io);
  const controller = new AbortController();
  const onAbort = () => controller.abort(io.signal.reason);
  if (io.signal.aborted) onAbort();
  else io.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await run(argv, io, output, controller);
  } catch (error) {
    if (error instanceof CliError) {
      output.err(
        error.exitCode === ExitCode.INTERRUPTED ? error.message : `garuda-mcp: ${error.message}`,
      );
      return error.exitCode;
    }
    if (controller.signal.aborted) {
      output.err('Interrupted.');
      return ExitCode.INTERRUPTED;
    }
    const message = error instanceof Error ? error.message : String(error);
    output.err(`garuda-mcp: ${message}`);
    return ExitCode.SERVER;
  } finally {
    io.signal.removeEventListener('abort', onAbort);
  }
}

async function run(
  argv: readonly string[],
  io: CliIo,
  output: Output,
  controller: AbortController,
): Promise<number> {
  const dashes = argv.indexOf('--');
  const before = dashes === -1 ? [...argv] : argv.slice(0, dashes);
  const after = dashes === -1 ? [] : argv.slice(dashes + 1);
  let parsed;
  try {
    parsed = parseArgs({ args: before, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version === true) {
    output.out(cliVersion());
    return ExitCode.OK;
  }
  if (command === 'help') {
    output.out(helpText(rest[0]));
    return ExitCode.OK;
  }
  if (values.help === true || command === undefined) {
    output.out(helpText(command));
    return command === undefined && values.help !== true ? ExitCode.USAGE : ExitCode.OK;
  }
  if (COMMANDS[command] === undefined) {
    throw usageError(
      `Unknown command ${JSON.stringify(command)}.${didYouMean(command, Object.keys(COMMANDS), (c) => c)}`,
    );
  }
  for (const [option, commands] of Object.entries(COMMAND_OPTIONS)) {
    if ((values as Record<string, unknown>)[option] !== undefined && !commands.includes(command)) {
      const of =
        commands.length === 1
          ? commands[0]
          : `${commands.slice(0, -1).join(', ')} and ${commands.at(-1) ?? ''}`;
      throw usageError(`--${option} is an option of ${of}, not of ${command}.`);
    }
  }
  if (after.length > 0 && command !== 'add') {
    throw usageError(`Only add takes -- <command> [args…].`);
  }

  const approvalMode = values['approval-mode'] ?? 'ask';
  if (!APPROVAL_MODES.includes(approvalMode as ApprovalMode)) {
    throw usageError(
      `--approval-mode must be ask (every call asks), balanced (calls of servers declared read-only run) or trusted (only destructive calls ask), not ${JSON.stringify(approvalMode)}.`,
    );
  }
  const exposure = values.exposure ?? 'direct';
  if (!TOOL_EXPOSURES.includes(exposure as ToolExposure)) {
    throw usageError(
      `--exposure must be direct (every tool), search (tools found by mcp_tool_search), proxy (called through mcp_tool_call) or auto (search for more than ${String(AUTO_SEARCH_MIN_TOOLS)} tools), not ${JSON.stringify(exposure)}.`,
    );
  }
  const startMode = values.start ?? 'eager';
  if (startMode !== 'eager' && startMode !== 'lazy') {
    throw usageError(
      `--start must be eager (every server starts now) or lazy (pinned servers start on first use), not ${JSON.stringify(startMode)}.`,
    );
  }
  // --store, else $GARUDA_TOKEN_STORE (a person's standing choice), else auto.
  const storeFrom = values.store !== undefined ? '--store' : '$GARUDA_TOKEN_STORE';
  const store = values.store ?? (io.env.GARUDA_TOKEN_STORE || 'auto');
  if (!TOKEN_STORAGES.includes(store as TokenStorage)) {
    throw usageError(
      `${storeFrom} must be auto (the OS keychain when it answers, else the file), keyring (the OS keychain), file (the auth file) or session (this run only), not ${JSON.stringify(store)}.`,
    );
  }
  const rules = { allow: values.allow ?? [], ask: values.ask ?? [], deny: values.deny ?? [] };
  for (const [decision, list] of Object.entries(rules)) {
    for (const rule of list) {
      const problem = validateToolRule(rule);
      if (problem !== undefined) throw usageError(`--${decision} ${problem}.`);
    }
  }
  const browser = values.browser ?? io.env.GARUDA_BROWSER;
  if (values.root === '' || values.home === '')
    throw usageError('--root and --home need a folder.');
  const home =
    values.home ??
    (io.env.GARUDA_HOME !== undefined && io.env.GARUDA_HOME !== ''
      ? io.env.GARUDA_HOME
      : path.join(io.userHome, '.garuda'));
  const session = terminalSession();
  const globals: Globals = {
    root: path.resolve(io.cwd, values.root ?? '.'),
    home: path.resolve(io.cwd, home),
    json: values.json === true,
    browser: browser === undefined || browser.trim() === '' ? undefined : splitCommandLine(browser),
    yes: values.yes === true,
    trustProject: values['trust-project'] === true,
    acceptDefaults: values['accept-defaults'] === true,
    approvalMode: approvalMode as ApprovalMode,
    exposure: exposure as ToolExposure,
    startMode,
    store: store as TokenStorage,
    rules,
    sandboxRead: [
      ...(io.env.GARUDA_SANDBOX_READ ?? '').split(':'),
      ...(values['sandbox-read'] ?? []),
    ]
      .filter((folder) => folder !== '')
      .map((folder) => path.resolve(io.cwd, folder)),
    cacheDir: cacheDirOf(io),
    ...limitsOf(values['start-timeout'], values['download-timeout']),
    serverHomesDir: serverHomesDirOf(io),
    session,
    sessionSwitches: await readSessionSwitches(path.resolve(io.cwd, home), session),
    interactive: io.stdin.isTTY === true && io.stderr.isTTY === true,
  };
  for (const folder of globals.sandboxRead) {
    const info = await stat(folder).catch(() => undefined);
    if (info?.isDirectory() !== true) {
      throw usageError(`--sandbox-read ${JSON.stringify(folder)} is not a folder.`);
    }
    // Every server would see it: what the sandbox hides is for one server's own --read.
    const hidden = hiddenPathOf(folder, { home: io.userHome, garudaHome: globals.home });
    if (hidden !== undefined) {
      throw usageError(
        `--sandbox-read ${JSON.stringify(folder)} is in ${JSON.stringify(hidden.path)}, which the sandbox hides from servers: ` +
          (hidden.kind === 'credential'
            ? 'give it to the one server that needs it (garuda-mcp add <name> --replace --read …).'
            : 'no server may read it.'),
      );
    }
  }
  const ctx: CommandContext = {
    io,
    output,
    globals,
    signal: controller.signal,
    interrupt: () => controller.abort(new Error('interrupted')),
    version: cliVersion(),
    shownProblems: new Set(),
  };

  switch (command) {
    case 'status':
      positionalCount(rest, 0, 0, command);
      return statusCommand(ctx);
    case 'tools':
      positionalCount(rest, 0, 1, command);
      return toolsCommand(ctx, rest[0]);
    case 'call':
      positionalCount(rest, 1, 2, command);
      return callCommand(ctx, rest[0] ?? '', rest[1]);
    case 'resources':
      positionalCount(rest, 0, 1, command);
      return resourcesCommand(ctx, rest[0]);
    case 'read':
      positionalCount(rest, 2, 2, command);
      return readCommand(ctx, rest[0] ?? '', rest[1] ?? '');
    case 'prompts':
      positionalCount(rest, 0, 1, command);
      return promptsCommand(ctx, rest[0]);
    case 'prompt':
      positionalCount(rest, 1, 2, command);
      return promptCommand(ctx, rest[0] ?? '', rest[1]);
    case 'add':
      positionalCount(rest, 1, 1, command);
      return addCommand(ctx, {
        name: rest[0] ?? '',
        project: values.project === true,
        command: after,
        url: values.url,
        headers: values.header ?? [],
        env: values.env ?? [],
        network: values.network === true,
        cwd: values.cwd,
        write: values.write ?? [],
        read: values.read ?? [],
        timeout: values.timeout,
        startTimeout: values['start-timeout'],
        replace: values.replace === true,
      });
    case 'remove':
      positionalCount(rest, 1, 1, command);
      return removeCommand(
        ctx,
        rest[0] ?? '',
        values.project === true,
        values['delete-home'] === true,
      );
    case 'enable':
    case 'disable':
      positionalCount(rest, 1, 1, command);
      return setEnabledCommand(ctx, rest[0] ?? '', {
        project: values.project === true,
        session: values.session === true,
        enabled: command === 'enable',
      });
    case 'list':
      positionalCount(rest, 0, 0, command);
      return listCommand(ctx);
    case 'import':
      positionalCount(rest, 0, 0, command);
      return importCommand(ctx, {
        from: values.from ?? [],
        project: values.project === true,
        all: values.all === true,
        only: values.only ?? [],
      });
    case 'get':
      positionalCount(rest, 1, 1, command);
      return getCommand(ctx, rest[0] ?? '');
    case 'login':
      positionalCount(rest, 1, 1, command);
      return loginCommand(ctx, rest[0] ?? '', values.scope ?? []);
    case 'logout':
      positionalCount(rest, 1, 1, command);
      return logoutCommand(ctx, rest[0] ?? '');
    case 'audit':
      positionalCount(rest, 0, 0, command);
      return auditCommand(ctx, { verify: values.verify === true, since: values.since });
    case 'trust': {
      const [sub, ...names] = rest;
      if (sub === 'list') {
        positionalCount(names, 0, 0, command);
        return trustListCommand(ctx);
      }
      if (sub === 'forget') {
        positionalCount(names, 1, 1, command);
        return trustForgetCommand(ctx, names[0] ?? '');
      }
      throw usageError(
        `trust takes list or forget <server>${sub === undefined ? '' : `, not ${JSON.stringify(sub)}`}.${
          sub === undefined ? '' : didYouMean(sub, ['list', 'forget'], (c) => `trust ${c}`)
        }`,
      );
    }
    case 'doctor':
      positionalCount(rest, 0, 0, command);
      return doctorCommand(ctx);
    case 'install':
      positionalCount(rest, 1, 1, command);
      if (values.move === true && values['no-move'] === true) {
        throw usageError('Give --move or --no-move, not both.');
      }
      return installCommand(ctx, rest[0] ?? '', {
        move: values.move === true ? true : values['no-move'] === true ? false : undefined,
      });
    case 'serve': {
      positionalCount(rest, 0, 0, command);
      const approvals = values.approvals ?? 'elicit';
      if (!SERVE_APPROVALS.includes(approvals as ServeApprovals)) {
        throw usageError(
          `--approvals must be elicit (ask through the host's elicitation, else as rules), rules (only what you allowed beforehand runs) or host (the host asks for each call), not ${JSON.stringify(approvals)}.`,
        );
      }
      if (values.port !== undefined && values.http !== true) {
        throw usageError('--port goes with --http (serve over Streamable HTTP on 127.0.0.1).');
      }
      const port = Number(values.port ?? '0');
      if (!/^\d{1,5}$/.test(values.port ?? '0') || port > 65535) {
        throw usageError(
          `--port must be a port number from 0 (any free one) to 65535, not ${JSON.stringify(values.port)}.`,
        );
      }
      const answer = values['answer-timeout'];
      const answerSeconds = Number(answer ?? '0');
      const most = GATEWAY_LIMITS.maxAnswerTimeoutMs / 1000;
      if (
        answer !== undefined &&
        (!/^\d{1,2}$/.test(answer) || answerSeconds < 1 || answerSeconds > most)
      ) {
        throw usageError(
          `--answer-timeout must be a number of seconds from 1 to ${most} (a host gives up on a request after about a minute), not ${JSON.stringify(answer)}.`,
        );
      }
      return serveCommand(
        ctx,
        approvals as ServeApprovals,
        values.http === true ? { port } : undefined,
        answer === undefined ? {} : { answerTimeoutMs: answerSeconds * 1000 },
      );
    }
    case 'demo': {
      positionalCount(rest, 0, 0, command);
      if (values.interactive === true && !globals.interactive) {
        throw usageError('demo --interactive needs a terminal to ask on (stdin and stderr).');
      }
      const { runDemo } = await import('./demo/run-demo.js');
      return runDemo(output, {
        interactive: values.interactive === true,
        browser: globals.browser,
        signal: controller.signal,
      });
    }
    default:
      throw usageError(`Unknown command "${command}".`);
  }
}
