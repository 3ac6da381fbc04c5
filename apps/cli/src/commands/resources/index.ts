import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp resources`. */
export const command: Command = {
  name: 'resources',
  usage: 'garuda-mcp resources [server]',
  summary: 'List the resources and resource templates of the servers (all, or one).',
  details: 'URI, server, name, type and description, cleaned. --json gives each raw uri, for read.',
  globals: [...MANAGER_FLAGS, 'json'],
  positionals: { min: 0, max: 1 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).resourcesCommand(ctx, positionals[0]),
};
