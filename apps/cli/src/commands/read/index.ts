import type { Command } from '../../shared/command.js';
import { MANAGER_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp read`. */
export const command: Command = {
  name: 'read',
  usage: 'garuda-mcp read <server> <uri>',
  summary: 'Read one resource, shown as the model would get it.',
  details:
    'Only that server is started. Text is cleaned and capped; binary contents are a note with\ntheir type and size (--json gives them as base64).',
  globals: [...MANAGER_FLAGS, 'json'],
  positionals: { min: 2, max: 2 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/server.js')).readCommand(
      ctx,
      positionals[0] ?? '',
      positionals[1] ?? '',
    ),
};
