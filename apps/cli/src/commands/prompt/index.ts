import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp prompt`. */
export const command: Command = {
  name: 'prompt',
  usage: "garuda-mcp prompt <server>/<prompt> ['{json arguments}']",
  summary: 'Get one prompt, shown as the model would get it.',
  details:
    "Only that server is started. The arguments are a JSON object of strings. The messages are\nthe server's words, marked as such.",
  globals: [...MANAGER_FLAGS, 'json'],
  positionals: { min: 1, max: 2 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).promptCommand(
      ctx,
      positionals[0] ?? '',
      positionals[1],
    ),
};
