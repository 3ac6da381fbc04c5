import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';
import { modeLines } from '../../shared/modes.js';
import { GATEWAY_APPROVALS } from '../../shared/package-tables.js';

/** `--approvals`' help: one line per mode of the gateway's table. */
const APPROVALS_HELP = modeLines(GATEWAY_APPROVALS, 'elicit').join('\n');

/** `garuda-mcp serve`. */
export const command: Command = {
  name: 'serve',
  usage:
    `garuda-mcp serve [--approvals ${Object.keys(GATEWAY_APPROVALS).join('|')}] ` +
    '[--http [--port <n>]] [--answer-timeout <s>]',
  summary:
    'Be one MCP server (stdio) in front of every configured server, for a host such as Claude Desktop.',
  details:
    'The host starts it. Behind it every server runs as garuda-mcp runs it: sandboxed, consented,\npinned, filtered, cleaned and audited. Tools are named <server>__<tool>. Nothing is asked on a\nterminal: a call that must ask is asked through the host (elicitation) or refused with the\ncommand that allows it; consent for a project server, changed tools and sign-ins wait for the\ngaruda_review tool, which asks them through the host (or trust beforehand, --trust-project).\nstdout carries MCP only.',
  options: [
    ['--approvals <mode>', APPROVALS_HELP],
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
  globals: [...MANAGER_FLAGS, 'start'],
  positionals: { min: 0, max: 0 },
  run: async (ctx, args) =>
    (await import('../../command-groups/serve.js')).serveFromArgs(ctx, args),
};
