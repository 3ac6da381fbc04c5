import { IMPORT_CLIENTS } from '@garuda/mcp-config';
import { INSTALL_HOSTS } from './commands/install.js';

/** `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** One command for `--help`: its usage, what it does, more detail, and its own options. */
export interface CommandHelp {
  readonly usage: string;
  readonly summary: string;
  readonly details?: string;
  /** The command's own options: the flag as typed (with its value) and what it does. */
  readonly options?: readonly (readonly [flag: string, text: string])[];
}

const PROJECT_EDIT = [
  '--project',
  "the project's file (<root>/.garuda/mcp.json) instead of yours (<home>/mcp.json)",
] as const;

const SESSION_SWITCH = [
  '--session',
  'for this terminal session only (Linux): no file changes, other terminals are not affected',
] as const;

/** The usage line, description and options of each command, for `--help`. */
export const COMMANDS: Readonly<Record<string, CommandHelp>> = {
  status: {
    usage: 'garuda-mcp status',
    summary: 'Start every configured server and show the status table.',
    details:
      'Columns: name, source (user or project file), state, tools, sandbox, network (remote URL and sign-in).\nA project server asks for consent first (on a terminal); without one, pass --trust-project.',
  },
  list: {
    usage: 'garuda-mcp list',
    summary: 'List the configured servers without starting any.',
    details:
      'Name, source (your file or the project file), type (stdio or http), enabled, and the command\nline or URL. --json for scripts.',
  },
  get: {
    usage: 'garuda-mcp get <server>',
    summary: 'Show one server as configured, and which file it is in (nothing is started).',
    details:
      'Env and header values written out in the file that look like secrets are shown as ****;\na ${NAME} is shown as written (it says where a value comes from, it is no secret).',
  },
  tools: {
    usage: 'garuda-mcp tools [server]',
    summary: 'List the tools a model would get (all servers, or one).',
  },
  call: {
    usage: "garuda-mcp call <tool> ['{json arguments}']",
    summary: 'Call one tool, after showing what it will run and asking approval.',
    details:
      'The tool is <server>/<tool> or mcp__<server>__<tool>. Only its server is started.\n--yes approves without asking (for scripts). The result is printed as the model would see it.\nExit 1 when the tool reports an error.',
  },
  resources: {
    usage: 'garuda-mcp resources [server]',
    summary: 'List the resources and resource templates of the servers (all, or one).',
    details:
      'URI, server, name, type and description, cleaned. --json gives each raw uri, for read.',
  },
  read: {
    usage: 'garuda-mcp read <server> <uri>',
    summary: 'Read one resource, shown as the model would get it.',
    details:
      'Only that server is started. Text is cleaned and capped; binary contents are a note with\ntheir type and size (--json gives them as base64).',
  },
  prompts: {
    usage: 'garuda-mcp prompts [server]',
    summary: 'List the prompts of the servers (all, or one), with their arguments.',
    details:
      'Prompts are pinned with the tools: a changed prompt of a project server is held back until\nyou allow the change. An argument marked ? is optional.',
  },
  prompt: {
    usage: "garuda-mcp prompt <server>/<prompt> ['{json arguments}']",
    summary: 'Get one prompt, shown as the model would get it.',
    details:
      "Only that server is started. The arguments are a JSON object of strings. The messages are\nthe server's words, marked as such.",
  },
  add: {
    usage:
      'garuda-mcp add <name> [--project] [--env K=V]… [--network] [--cwd <dir>] [--write <dir>]… [--read <path>]… [--timeout <ms>] [--start-timeout <t>] -- <command> [args…]\n       garuda-mcp add <name> [--project] --url <url> [--header K=V]… [--timeout <ms>] [--start-timeout <t>]',
    summary: "Add a server to your file (or the project's with --project).",
    details:
      'Values may use ${NAME}, taken from your environment when the server starts: prefer it to\nwriting a secret out. Nothing is started. Relative folders are taken from the project root,\n~/… from your home.',
    options: [
      PROJECT_EDIT,
      ['--url <url>', 'a remote server (Streamable HTTP) at this https address'],
      ['--header <K=V>', 'a request header of a remote server (repeatable)'],
      ['--env <K=V>', 'an environment variable of a local server (repeatable)'],
      ['--network', 'let a local server reach the network (default: no network)'],
      ['--cwd <dir>', "a local server's working folder (default: the project root)"],
      [
        '--write <dir>',
        'a folder a local server may write, besides the project and its own /tmp (repeatable)',
      ],
      [
        '--read <path>',
        "a file or folder the sandbox hides that a local server may read, read-only, e.g. ~/.kube\n(repeatable; never Garuda's own folder)",
      ],
      ['--timeout <ms>', 'the time limit of a call, 1000 to 600000 ms (default 60000)'],
      [
        '--start-timeout <t>',
        'the time limit of its start (start, connect, list tools): seconds, or 90s, 2m, 120000ms;\n1 s to 10 min (default 30 s; an npx download before it has its own)',
      ],
      [
        '--replace',
        'replace a server of the same name: the new command line or URL and the fields you give;\nthe fields you do not give stay (what is kept or dropped is listed)',
      ],
    ],
  },
  import: {
    usage: 'garuda-mcp import [--from <client>]… [--project] [--all | --only <name>…]',
    summary: "Show the MCP servers of other clients' files, and write the chosen ones into yours.",
    details:
      "Reads Claude Code (.mcp.json, ~/.claude.json), Claude Desktop, Cursor, VS Code, Gemini CLI\nand Codex files. Without --all or --only it only shows what it found. A repository's servers go\nto the project file (they ask consent as usual); a secret written out in another client's file\nis never copied: the entry takes ${NAME} and a warning says which variable to set.",
    options: [
      ['--from <client>', `read only this client: ${IMPORT_CLIENTS.join(', ')} (repeatable)`],
      ['--project', "write your own servers into the project's file too"],
      ['--all', 'write every server that can be imported'],
      ['--only <name>', 'write this server, by the name shown (repeatable)'],
    ],
  },
  remove: {
    usage: 'garuda-mcp remove <name> [--project] [--delete-home]',
    summary: "Remove a server from your file (or the project's with --project).",
    details:
      'Its home folder (where it keeps its data: garuda-mcp get <name> shows it) is kept, and the\nmessage says where; --delete-home deletes it too.',
    options: [PROJECT_EDIT, ['--delete-home', "also delete the server's home folder"]],
  },
  enable: {
    usage: 'garuda-mcp enable <name> [--project | --session]',
    summary: 'Turn a disabled server on again (in your file, or the project file).',
    details:
      'Sets "enabled": true in the file; every other byte of it stays. With --session, every command\nstarted from this terminal sees it on, and the file is left as it is.',
    options: [PROJECT_EDIT, SESSION_SWITCH],
  },
  disable: {
    usage: 'garuda-mcp disable <name> [--project | --session]',
    summary: 'Turn a server off: it is still listed, but not started.',
    details:
      'Sets "enabled": false in the file; every other byte of it stays. For a project server this\nedits the project file, which others may share; --session turns it off for the commands of\nthis terminal only, changing no file.',
    options: [PROJECT_EDIT, SESSION_SWITCH],
  },
  login: {
    usage: 'garuda-mcp login <server> [--scope <scope>]… [--store auto|keyring|file|session]',
    summary: 'Sign in to a remote server (opens the browser; --browser chooses the program).',
    details:
      'Signs in when the server asks for it. The tokens go to the OS keychain when it answers\n(macOS Keychain, Windows Credential Manager, the Secret Service on Linux), else to\n<home>/mcp-auth.json (mode 0600); a sign-in already stored stays where it is (logout first to\nmove it). status and doctor say which.',
    options: [
      [
        '--store <where>',
        'where the tokens of this sign-in go: auto (the default), keyring (the OS keychain, or\nfail), file (<home>/mcp-auth.json) or session (this run only: nothing is saved)',
      ],
      [
        '--scope <scope>',
        'sign in again now, asking for this scope too (repeatable), on top of the configured scopes\nand those the sign-in already holds: for a tool that needs more access',
      ],
    ],
  },
  logout: {
    usage: 'garuda-mcp logout <server>',
    summary: 'Forget the sign-in of a remote server and revoke its tokens.',
  },
  trust: {
    usage: 'garuda-mcp trust list\n       garuda-mcp trust forget <server>',
    summary: 'List remembered servers, or forget one (it asks for consent again).',
  },
  audit: {
    usage: 'garuda-mcp audit [--verify] [--since <time>]',
    summary:
      'The audit log: every consent, sign-in, approval and call, as hashes. --verify proves it unbroken.',
    options: [
      ['--verify', 'check the whole chain; exit 1 naming the first edited, removed or moved line'],
      [
        '--since <time>',
        'only records from then on: 2026-12-01, 2026-12-01T10:00Z, or 30m, 12h, 7d',
      ],
    ],
  },
  doctor: {
    usage: 'garuda-mcp doctor',
    summary:
      'Check the sandbox, the config files and every server: starts? tools? signed in? pinned?',
  },
  install: {
    usage: 'garuda-mcp install <host> [--move | --no-move]',
    summary: `Put garuda-mcp serve in front of a host: ${orList(INSTALL_HOSTS)}.`,
    details:
      "Shows the entry it adds to that host's own MCP config (the serve command line with this\nproject's root), then writes it after a yes (--yes without a terminal). Every other byte of the\nfile is kept; an entry already there is left alone.\n\nServers the host's file already has are listed, and moving them behind the gateway is a second\nquestion: they are imported into your Garuda file as garuda-mcp import does, a backup of the\nhost's file is written beside it, and its server list keeps only the garuda entry (and the\nservers that cannot be imported, which are named). --yes does not move them.",
    options: [
      [
        '--move',
        "move the host's servers behind the gateway without asking (the entry itself still needs\na yes or --yes)",
      ],
      [
        '--no-move',
        "leave the host's servers where they are (the default without a terminal); move them\nlater with garuda-mcp install <host> --move",
      ],
    ],
  },
  serve: {
    usage:
      'garuda-mcp serve [--approvals elicit|rules|host] [--http [--port <n>]] [--answer-timeout <s>]',
    summary:
      'Be one MCP server (stdio) in front of every configured server, for a host such as Claude Desktop.',
    details:
      'The host starts it. Behind it every server runs as garuda-mcp runs it: sandboxed, consented,\npinned, filtered, cleaned and audited. Tools are named <server>__<tool>. Nothing is asked on a\nterminal: a call that must ask is asked through the host (elicitation) or refused with the\ncommand that allows it; consent for a project server, changed tools and sign-ins wait for the\ngaruda_review tool, which asks them through the host (or trust beforehand, --trust-project).\nstdout carries MCP only.',
    options: [
      [
        '--approvals <mode>',
        'elicit (the default: questions are asked in the host, when it can; else as rules),\nrules (only what you allowed beforehand runs: "always allow", --allow, the approval mode) or\nhost (every call runs; the host asks its user for each one)',
      ],
      [
        '--http',
        'serve Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio; every request needs\nthe bearer token kept in <home>/serve-http-token (shown once, when it is made; used\nonly from a regular 0600 file of yours)',
      ],
      ['--port <n>', 'the port of --http (default 0: a free one, printed on stderr)'],
      [
        '--answer-timeout <s>',
        'how long a question asked through the host waits for its answer (default 45, at most 50:\nhosts give up on a request after about a minute); then it expires and its call is not run',
      ],
    ],
  },
  demo: {
    usage: 'garuda-mcp demo [--interactive]',
    summary: 'Run the whole story offline on a throwaway home and project (nothing to configure).',
    options: [['--interactive', 'you answer the questions yourself (needs a terminal)']],
  },
};

const GLOBAL_OPTIONS = `Options:
  --root <dir>        project root (default: the current folder)
  --home <dir>        Garuda home (default: $GARUDA_HOME, else ~/.garuda)
  --json              machine-readable output (status, list, get, tools, call, doctor, …)
  --browser <command> program that opens sign-in pages, e.g. "firefox --private-window"
                      (default: $GARUDA_BROWSER, else the system's); split on spaces, no shell
  -y, --yes           approve tool calls without asking
  --trust-project     allow the project's servers for this run without asking
  --accept-defaults   answer a server's form (elicitation) with its defaults, when they
                      answer every required field; otherwise it is declined
  --approval-mode <m> which calls run without asking, by the "capabilities" you declared for
                      their server: ask (every call; default), balanced (read-only servers),
                      trusted (all but "irreversible" ones, which always ask)
  --exposure <e>      how tools reach a model, for servers that set none: direct (all; default),
                      search (behind mcp_tool_search), proxy (mcp_tool_call), auto
  --start <s>         for tools, status, call: eager (every server starts; default) or lazy
                      (servers with pinned tools are listed from cache, start on first call)
  --allow <rule>      calls that run without asking: mcp.<server>.<tool>, * for any run
                      (mcp.docs.*, mcp.*.read_*); repeatable; "irreversible" ones still ask
  --ask <rule>        calls that always ask, whatever the mode or an "always allow" says
  --deny <rule>       calls that never run; deny > ask > allow
  --sandbox-read <dir> a folder under /tmp that sandboxed servers may still read (on Linux each
                      server gets an empty private /tmp); repeatable, also $GARUDA_SANDBOX_READ (a:b)
  --start-timeout <t> how long a server may take to start, connect and list its tools, for
                      servers whose entry sets no "startTimeoutMs": seconds (default 30), or 90s,
                      2m, 120000ms; 1 s to 10 min. On add: written into the entry
  --download-timeout <t>  how long an npx server's package download may take, before its
                      start limit begins (default 5 min; same units)
  -h, --help          show help (also: garuda-mcp <command> --help)
  -V, --version       show the version

Without a terminal every question is answered "no" unless a flag answers it.
Colours only on a terminal, never with NO_COLOR.

Exit codes: 0 ok · 1 the tool reported an error · 2 usage (also an unknown server or tool) ·
            3 configuration problem · 4 server failed, denied or declined · 130 interrupted (Ctrl-C)`;

/** A command's own options, the flags in one column. */
function optionLines(options: NonNullable<CommandHelp['options']>): string[] {
  const width = Math.max(...options.map(([flag]) => flag.length));
  return options.flatMap(([flag, text]) =>
    text.split('\n').map((line, i) => `  ${(i === 0 ? flag : '').padEnd(width)}  ${line}`),
  );
}

/** The whole help text, or one command's. */
export function helpText(command?: string): string {
  const entry = command === undefined ? undefined : COMMANDS[command];
  if (entry !== undefined) {
    return [
      `Usage: ${entry.usage}`,
      '',
      entry.summary,
      ...(entry.details ? ['', entry.details] : []),
      ...(entry.options ? ['', `Options of ${command}:`, ...optionLines(entry.options)] : []),
      '',
      GLOBAL_OPTIONS,
    ].join('\n');
  }
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'garuda-mcp: a secure MCP client. Servers run sandboxed, every call is approved, tools are pinned.',
    '',
    'Usage: garuda-mcp <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    GLOBAL_OPTIONS,
  ].join('\n');
}
