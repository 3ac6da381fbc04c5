import { stat } from 'node:fs/promises';
import path from 'node:path';
import { validateToolRule } from '@garuda/mcp-manager';
import type { TokenStorage } from '@garuda/mcp-oauth';
import { hiddenPathOf } from '@garuda/mcp-transport';
import type { Globals } from '../context.js';
import { limitOf } from '../durations.js';
import { usageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { readSessionSwitches, terminalSession } from '../terminal-session.js';
import type { CommandArgs } from './command.js';
import { checkedMode } from './modes.js';
import { APPROVAL_MODES, TOKEN_STORAGES, TOOL_EXPOSURES } from './package-tables.js';

type Values = CommandArgs['values'];

function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function list(values: Values, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : [];
}

function splitCommandLine(line: string): string[] {
  return line.split(/\s+/).filter((part) => part !== '');
}

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

/** `--approval-mode`, `--exposure`, `--start` and the token store, checked. */
function modesOf(
  values: Values,
  io: CliIo,
): Pick<Globals, 'approvalMode' | 'exposure' | 'startMode' | 'store'> {
  const approvalMode = checkedMode(
    '--approval-mode',
    text(values, 'approval-mode') ?? 'ask',
    APPROVAL_MODES,
  );
  const exposure = checkedMode('--exposure', text(values, 'exposure') ?? 'direct', TOOL_EXPOSURES);
  const startMode = text(values, 'start') ?? 'eager';
  if (startMode !== 'eager' && startMode !== 'lazy') {
    throw usageError(
      `--start must be eager (every server starts now) or lazy (pinned servers start on first use), not ${JSON.stringify(startMode)}.`,
    );
  }
  // --store, else $GARUDA_TOKEN_STORE (a person's standing choice), else auto.
  const storeFrom = text(values, 'store') !== undefined ? '--store' : '$GARUDA_TOKEN_STORE';
  const store = text(values, 'store') ?? (io.env.GARUDA_TOKEN_STORE || 'auto');
  if (!TOKEN_STORAGES.includes(store as TokenStorage)) {
    throw usageError(
      `${storeFrom} must be auto (the OS keychain when it answers, else the file), keyring (the OS keychain), file (the auth file) or session (this run only), not ${JSON.stringify(store)}.`,
    );
  }
  return {
    approvalMode,
    exposure,
    startMode,
    store: store as TokenStorage,
  };
}

/** `--allow`, `--ask`, `--deny`, each rule checked. */
function rulesOf(values: Values): Globals['rules'] {
  const rules = {
    allow: list(values, 'allow'),
    ask: list(values, 'ask'),
    deny: list(values, 'deny'),
  };
  for (const [decision, given] of Object.entries(rules)) {
    for (const rule of given) {
      const problem = validateToolRule(rule);
      if (problem !== undefined) throw usageError(`--${decision} ${problem}.`);
    }
  }
  return rules;
}

/** `$GARUDA_SANDBOX_READ` and `--sandbox-read`: folders, none of them one the sandbox hides. */
async function sandboxReadOf(values: Values, io: CliIo, home: string): Promise<string[]> {
  const folders = [
    ...(io.env.GARUDA_SANDBOX_READ ?? '').split(':'),
    ...list(values, 'sandbox-read'),
  ]
    .filter((folder) => folder !== '')
    .map((folder) => path.resolve(io.cwd, folder));
  for (const folder of folders) {
    const info = await stat(folder).catch(() => undefined);
    if (info?.isDirectory() !== true) {
      throw usageError(`--sandbox-read ${JSON.stringify(folder)} is not a folder.`);
    }
    // Every server would see it: what the sandbox hides is for one server's own --read.
    const hidden = hiddenPathOf(folder, { home: io.userHome, garudaHome: home });
    if (hidden !== undefined) {
      throw usageError(
        `--sandbox-read ${JSON.stringify(folder)} is in ${JSON.stringify(hidden.path)}, which the sandbox hides from servers: ` +
          (hidden.kind === 'credential'
            ? 'give it to the one server that needs it (garuda-mcp add <name> --replace --read …).'
            : 'no server may read it.'),
      );
    }
  }
  return folders;
}

/**
 * The global options, resolved and checked. A flag the command does not declare is absent from
 * `values`, so it takes its default.
 */
export async function resolveGlobals(values: Values, io: CliIo): Promise<Globals> {
  const modes = modesOf(values, io);
  const rules = rulesOf(values);
  const browser = text(values, 'browser') ?? io.env.GARUDA_BROWSER;
  if (values.root === '' || values.home === '')
    throw usageError('--root and --home need a folder.');
  const home = path.resolve(
    io.cwd,
    text(values, 'home') ??
      (io.env.GARUDA_HOME !== undefined && io.env.GARUDA_HOME !== ''
        ? io.env.GARUDA_HOME
        : path.join(io.userHome, '.garuda')),
  );
  const session = terminalSession();
  const globals: Globals = {
    root: path.resolve(io.cwd, text(values, 'root') ?? '.'),
    home,
    json: values.json === true,
    browser: browser === undefined || browser.trim() === '' ? undefined : splitCommandLine(browser),
    yes: values.yes === true,
    trustProject: values['trust-project'] === true,
    acceptDefaults: values['accept-defaults'] === true,
    ...modes,
    rules,
    sandboxRead: [],
    cacheDir: cacheDirOf(io),
    ...limitsOf(text(values, 'start-timeout'), text(values, 'download-timeout')),
    serverHomesDir: serverHomesDirOf(io),
    session,
    sessionSwitches: await readSessionSwitches(home, session),
    interactive: io.stdin.isTTY === true && io.stderr.isTTY === true,
  };
  return { ...globals, sandboxRead: await sandboxReadOf(values, io, home) };
}
