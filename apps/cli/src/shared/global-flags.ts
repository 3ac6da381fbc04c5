import type { FlagSpec } from './command.js';
import { modeHelp } from './modes.js';
import { APPROVAL_MODES, TOOL_EXPOSURES } from './package-tables.js';

/** The flags every command may declare, with how they parse and their lines of help. */
export const GLOBAL_FLAGS = {
  root: {
    type: 'string',
    help: ['  --root <dir>        project root (default: the current folder)'],
  },
  home: {
    type: 'string',
    help: ['  --home <dir>        Garuda home (default: $GARUDA_HOME, else ~/.garuda)'],
  },
  json: {
    type: 'boolean',
    help: [
      '  --json              machine-readable output (status, list, get, tools, call, doctor, …)',
    ],
  },
  browser: {
    type: 'string',
    help: [
      '  --browser <command> program that opens sign-in pages, e.g. "firefox --private-window"',
      "                      (default: $GARUDA_BROWSER, else the system's); split on spaces, no shell",
    ],
  },
  yes: {
    type: 'boolean',
    short: 'y',
    help: ['  -y, --yes           approve tool calls without asking'],
  },
  'trust-project': {
    type: 'boolean',
    help: ["  --trust-project     allow the project's servers for this run without asking"],
  },
  'accept-defaults': {
    type: 'boolean',
    help: [
      "  --accept-defaults   answer a server's form (elicitation) with its defaults, when they",
      '                      answer every required field; otherwise it is declined',
    ],
  },
  'approval-mode': {
    type: 'string',
    help: modeHelp(
      '  --approval-mode <m> which calls run without asking, by the "capabilities" of their server:',
      APPROVAL_MODES,
      'ask',
    ),
  },
  exposure: {
    type: 'string',
    help: modeHelp(
      '  --exposure <e>      how tools reach a model, for servers that set none:',
      TOOL_EXPOSURES,
      'direct',
    ),
  },
  start: {
    type: 'string',
    help: [
      '  --start <s>         for tools, status, call, serve: eager (every server starts; default,',
      '                      but lazy for serve) or lazy (servers with pinned tools are listed from',
      '                      cache, start on first call)',
    ],
  },
  allow: {
    type: 'string',
    multiple: true,
    help: [
      '  --allow <rule>      calls that run without asking: mcp.<server>.<tool>, * for any run',
      '                      (mcp.docs.*, mcp.*.read_*); repeatable; "irreversible" ones still ask',
    ],
  },
  ask: {
    type: 'string',
    multiple: true,
    help: [
      '  --ask <rule>        calls that always ask, whatever the mode or an "always allow" says',
    ],
  },
  deny: {
    type: 'string',
    multiple: true,
    help: ['  --deny <rule>       calls that never run; deny > ask > allow'],
  },
  'sandbox-read': {
    type: 'string',
    multiple: true,
    help: [
      '  --sandbox-read <dir> a folder under /tmp that sandboxed servers may still read (on Linux each',
      '                      server gets an empty private /tmp); repeatable, also $GARUDA_SANDBOX_READ (a:b)',
    ],
  },
  'start-timeout': {
    type: 'string',
    help: [
      '  --start-timeout <t> how long a server may take to start, connect and list its tools, for',
      '                      servers whose entry sets no "startTimeoutMs": seconds (default 30), or 90s,',
      '                      2m, 120000ms; 1 s to 10 min. On add: written into the entry',
    ],
  },
  'download-timeout': {
    type: 'string',
    help: [
      "  --download-timeout <t>  how long an npx server's package download may take, before its",
      '                      start limit begins (default 5 min; same units)',
    ],
  },
} as const satisfies Record<string, FlagSpec & { readonly help: readonly string[] }>;

/** The name of a global flag. */
export type GlobalFlag = keyof typeof GLOBAL_FLAGS;

/** `--help` and `--version`: every command takes them. */
export const ALWAYS_FLAGS = {
  help: {
    type: 'boolean',
    short: 'h',
    help: ['  -h, --help          show help (also: garuda-mcp <command> --help)'],
  },
  version: { type: 'boolean', short: 'V', help: ['  -V, --version       show the version'] },
} as const satisfies Record<string, FlagSpec & { readonly help: readonly string[] }>;

/** Where the project and the home are: commands that read a config file or a store. */
export const PLACE_FLAGS: readonly GlobalFlag[] = ['root', 'home'];

/**
 * What a command that starts servers reads: the places, the questions and their answers, the
 * approval rules, the sandbox and the start limits.
 */
export const MANAGER_FLAGS: readonly GlobalFlag[] = [
  'root',
  'home',
  'browser',
  'yes',
  'trust-project',
  'accept-defaults',
  'approval-mode',
  'exposure',
  'allow',
  'ask',
  'deny',
  'sandbox-read',
  'start-timeout',
  'download-timeout',
];
