import { type Command, stringsOf } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp login`. */
export const command: Command = {
  name: 'login',
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
  globals: [...MANAGER_FLAGS, 'json'],
  repeatable: ['scope'],
  positionals: { min: 1, max: 1 },
  run: async (ctx, args) =>
    (await import('../../command-groups/server.js')).loginCommand(
      ctx,
      args.positionals[0] ?? '',
      stringsOf(args, 'scope'),
    ),
};
