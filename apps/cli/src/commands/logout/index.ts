import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp logout`. */
export const command: Command = {
  name: 'logout',
  usage: 'garuda-mcp logout <server>',
  summary: 'Forget the sign-in of a remote server and revoke its tokens.',
  globals: [...MANAGER_FLAGS, 'json'],
  positionals: { min: 1, max: 1 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).logoutCommand(ctx, positionals[0] ?? ''),
};
