import type { Command } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { TRUST_USAGE } from './usage.js';

/** `garuda-mcp trust`. */
export const command: Command = {
  name: 'trust',
  usage: TRUST_USAGE,
  summary: 'List remembered servers, or forget one (it asks for consent again).',
  globals: [...PLACE_FLAGS, 'json'],
  positionals: { min: 0, max: Infinity },
  run: async (ctx, { positionals }) =>
    (await import('../../command-groups/config.js')).trustCommand(ctx, positionals),
};
