import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp status`. */
export const command: Command = {
  name: 'status',
  usage: 'garuda-mcp status',
  summary: 'Start every configured server and show the status table.',
  details:
    'Columns: name, source (user or project file), state, tools, sandbox, network (remote URL and sign-in).\nA project server asks for consent first (on a terminal); without one, pass --trust-project.',
  globals: [...MANAGER_FLAGS, 'json', 'start'],
  positionals: { min: 0, max: 0 },
  run: async (ctx) => (await import('../../command-groups/server.js')).statusCommand(ctx),
};
