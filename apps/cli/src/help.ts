/** The usage line and description of each command, for `--help`. */
export const COMMANDS: Readonly<
  Record<string, { usage: string; summary: string; details?: string }>
> = {
  status: {
    usage: 'garuda-mcp status',
    summary: 'Start every configured server and show the status table.',
    details:
      'Columns: name, source (user or project file), state, tools, sandbox, network (remote URL and sign-in).\nA project server asks for consent first (on a terminal); without one, pass --trust-project.',
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
  add: {
    usage:
      'garuda-mcp add <name> [--project] [--env K=V]… [--network] [--cwd <dir>] -- <command> [args…]\n       garuda-mcp add <name> [--project] --url <url> [--header K=V]…',
    summary: "Add a server to your file (or the project's with --project).",
    details:
      'Values may use ${NAME}, taken from your environment when the server starts: prefer it to\nwriting a secret out. --replace overwrites a server of the same name. Nothing is started.',
  },
  remove: {
    usage: 'garuda-mcp remove <name> [--project]',
    summary: "Remove a server from your file (or the project's with --project).",
  },
  login: {
    usage: 'garuda-mcp login <server> [--scope <scope>]…',
    summary: 'Sign in to a remote server (opens the browser; --browser chooses the program).',
    details:
      'Signs in when the server asks for it. --scope signs in again now, asking for that scope too\n(repeatable), on top of the configured scopes and those the sign-in already holds: for a\ntool that needs more access.',
  },
  logout: {
    usage: 'garuda-mcp logout <server>',
    summary: 'Forget the sign-in of a remote server and revoke its tokens.',
  },
  trust: {
    usage: 'garuda-mcp trust list\n       garuda-mcp trust forget <server>',
    summary: 'List remembered servers, or forget one (it asks for consent again).',
  },
  doctor: {
    usage: 'garuda-mcp doctor',
    summary:
      'Check the sandbox, the config files and every server: starts? tools? signed in? pinned?',
  },
  demo: {
    usage: 'garuda-mcp demo [--interactive]',
    summary: 'Run the whole story offline on a throwaway home and project (nothing to configure).',
  },
};

const GLOBAL_OPTIONS = `Options:
  --root <dir>        project root (default: the current folder)
  --home <dir>        Garuda home (default: $GARUDA_HOME, else ~/.garuda)
  --json              machine-readable output (status, tools, call, doctor, …)
  --browser <command> program that opens sign-in pages, e.g. "firefox --private-window"
                      (default: $GARUDA_BROWSER, else the system's); split on spaces, no shell
  -y, --yes           approve tool calls without asking
  --trust-project     allow the project's servers for this run without asking
  --sandbox-read <dir> a folder under /tmp that sandboxed servers may still read (each server
                      gets an empty private /tmp); repeatable, also $GARUDA_SANDBOX_READ (a:b)
  -h, --help          show help (also: garuda-mcp <command> --help)
  -V, --version       show the version

Without a terminal every question is answered "no" unless a flag answers it.
Colours only on a terminal, never with NO_COLOR.

Exit codes: 0 ok · 1 the tool reported an error · 2 usage · 3 configuration problem ·
            4 server failed, denied or declined · 130 interrupted (Ctrl-C)`;

/** The whole help text, or one command's. */
export function helpText(command?: string): string {
  const entry = command === undefined ? undefined : COMMANDS[command];
  if (entry !== undefined) {
    return [
      `Usage: ${entry.usage}`,
      '',
      entry.summary,
      ...(entry.details ? ['', entry.details] : []),
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
