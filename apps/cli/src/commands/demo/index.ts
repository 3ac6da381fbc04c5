import { usageError } from '../../exit-codes.js';
import { type Command, isSet } from '../../shared/command.js';

/** `garuda-mcp demo`. */
export const command: Command = {
  name: 'demo',
  usage: 'garuda-mcp demo [--interactive]',
  summary: 'Run the whole story offline on a throwaway home and project (nothing to configure).',
  options: [['--interactive', 'you answer the questions yourself (needs a terminal)']],
  globals: ['browser'],
  positionals: { min: 0, max: 0 },
  run: async (ctx, args) => {
    if (isSet(args, 'interactive') && !ctx.globals.interactive) {
      throw usageError('demo --interactive needs a terminal to ask on (stdin and stderr).');
    }
    const { runDemo } = await import('../../command-groups/demo.js');
    return runDemo(ctx.output, {
      interactive: isSet(args, 'interactive'),
      browser: ctx.globals.browser,
      signal: ctx.signal,
    });
  },
};
