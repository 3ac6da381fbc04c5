import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp tools`. */
export const command: Command = {
  name: 'tools',
  usage: 'garuda-mcp tools [server]',
  summary: 'List the tools a model would get (all servers, or one).',
  globals: [...MANAGER_FLAGS, 'json', 'start'],
  positionals: { min: 0, max: 1 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).toolsCommand(ctx, positionals[0]),
};
