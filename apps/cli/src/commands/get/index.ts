import type { Command } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';

/** `garuda-mcp get`. */
export const command: Command = {
  name: 'get',
  usage: 'garuda-mcp get <server>',
  summary: 'Show one server as configured, and which file it is in (nothing is started).',
  details:
    'Env and header values written out in the file that look like secrets are shown as ****;\na ${NAME} is shown as written (it says where a value comes from, it is no secret).',
  globals: [...PLACE_FLAGS, 'json'],
  positionals: { min: 1, max: 1 },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/config.js')).getCommand(ctx, positionals[0] ?? ''),
};
