import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp doctor`. */
export const command: Command = {
  name: 'doctor',
  usage: 'garuda-mcp doctor',
  summary:
    'Check the sandbox, the config files and every server: starts? tools? signed in? pinned?',
  globals: [...MANAGER_FLAGS, 'json'],
  positionals: { min: 0, max: 0 },
  run: async (ctx) => (await import('../../command-groups/server.js')).doctorCommand(ctx),
};
