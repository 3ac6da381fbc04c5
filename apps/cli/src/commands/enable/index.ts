import { type Command, isSet } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { PROJECT_EDIT, SESSION_SWITCH } from '../../shared/edit-options.js';

/** `garuda-mcp enable`. */
export const command: Command = {
  name: 'enable',
  usage: 'garuda-mcp enable <name> [--project | --session]',
  summary: 'Turn a disabled server on again (in your file, or the project file).',
  details:
    'Sets "enabled": true in the file; every other byte of it stays. With --session, every command\nstarted from this terminal sees it on, and the file is left as it is.',
  options: [PROJECT_EDIT, SESSION_SWITCH],
  globals: [...PLACE_FLAGS, 'json'],
  positionals: { min: 1, max: 1 },
  run: async (ctx, args) =>
    (await import('../../command-groups/config.js')).setEnabledCommand(
      ctx,
      args.positionals[0] ?? '',
      {
        project: isSet(args, 'project'),
        session: isSet(args, 'session'),
        enabled: true,
      },
    ),
};
