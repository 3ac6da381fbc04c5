import { type Command, isSet } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { PROJECT_EDIT, SESSION_SWITCH } from '../../shared/edit-options.js';

/** `garuda-mcp disable`. */
export const command: Command = {
  name: 'disable',
  usage: 'garuda-mcp disable <name> [--project | --session]',
  summary: 'Turn a server off: it is still listed, but not started.',
  details:
    'Sets "enabled": false in the file; every other byte of it stays. For a project server this\nedits the project file, which others may share; --session turns it off for the commands of\nthis terminal only, changing no file.',
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
        enabled: false,
      },
    ),
};
