import type { Command } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp list`. */
export const command: Command = {
  name: 'list',
  usage: 'garuda-mcp list',
  summary: 'List the configured servers without starting any.',
  details:
    'Name, source (your file or the project file), type (stdio or http), enabled, and the command\nline or URL. --json for scripts.',
  globals: [...PLACE_FLAGS, 'json'],
  positionals: { min: 0, max: 0 },
  run: async (ctx) => (await import('../../command-groups/config.js')).listCommand(ctx),
};
