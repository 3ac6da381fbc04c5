import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp call`. */
export const command: Command = {
  name: 'call',
  usage: "garuda-mcp call <tool> ['{json arguments}']",
  summary: 'Call one tool, after showing what it will run and asking approval.',
  details:
    'The tool is <server>/<tool> or mcp__<server>__<tool>. Only its server is started.\n--yes approves without asking (for scripts). The result is printed as the model would see it.\nExit 1 when the tool reports an error.',
  globals: [...MANAGER_FLAGS, 'json', 'start'],
  positionals: { min: 1, max: 2 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).callCommand(
      ctx,
      positionals[0] ?? '',
      positionals[1],
    ),
};
