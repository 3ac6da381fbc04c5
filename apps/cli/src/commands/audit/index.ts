import { type Command, isSet, stringOf } from '../../shared/command.js';

/** `garuda-mcp audit`. */
export const command: Command = {
  name: 'audit',
  usage: 'garuda-mcp audit [--verify] [--since <time>]',
  summary:
    'The audit log: every consent, sign-in, approval and call, as hashes. --verify proves it unbroken.',
  options: [
    ['--verify', 'check the whole chain; exit 1 naming the first edited, removed or moved line'],
    ['--since <time>', 'only records from then on: 2026-12-01, 2026-12-01T10:00Z, or 30m, 12h, 7d'],
  ],
  globals: ['home', 'json'],
  positionals: { min: 0, max: 0 },
  run: async (ctx, args) =>
    (await import('../../command-groups/config.js')).auditCommand(ctx, {
      verify: isSet(args, 'verify'),
      since: stringOf(args, 'since'),
    }),
};
