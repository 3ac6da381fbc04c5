import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp prompts`. */
export const command: Command = {
  name: 'prompts',
  usage: 'garuda-mcp prompts [server]',
  summary: 'List the prompts of the servers (all, or one), with their arguments.',
  details:
    'Prompts are pinned with the tools: a changed prompt of a project server is held back until\nyou allow the change. An argument marked ? is optional.',
  globals: [...MANAGER_FLAGS, 'json'],
  positionals: { min: 0, max: 1 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).promptsCommand(ctx, positionals[0]),
};
