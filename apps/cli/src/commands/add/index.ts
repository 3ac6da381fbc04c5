import { type Command, isSet, stringOf, stringsOf } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { PROJECT_EDIT } from '../../shared/edit-options.js';

/** `garuda-mcp add`. */
export const command: Command = {
  name: 'add',
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
  globals: [...PLACE_FLAGS, 'json', 'start-timeout'],
  repeatable: ['header', 'env', 'write', 'read'],
  takesCommand: true,
  positionals: { min: 1, max: 1 },
  run: async (ctx, args) =>
    (await import('../../command-groups/config.js')).addCommand(ctx, {
      name: args.positionals[0] ?? '',
      project: isSet(args, 'project'),
      command: args.after,
      url: stringOf(args, 'url'),
      headers: stringsOf(args, 'header'),
      env: stringsOf(args, 'env'),
      network: isSet(args, 'network'),
      cwd: stringOf(args, 'cwd'),
      write: stringsOf(args, 'write'),
      read: stringsOf(args, 'read'),
      timeout: stringOf(args, 'timeout'),
      startTimeout: stringOf(args, 'start-timeout'),
      replace: isSet(args, 'replace'),
    }),
};
