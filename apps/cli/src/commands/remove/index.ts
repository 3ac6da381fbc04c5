import { type Command, isSet } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { PROJECT_EDIT } from '../../shared/edit-options.js';

/** `garuda-mcp remove`. */
export const command: Command = {
  name: 'remove',
  usage: 'garuda-mcp remove <name> [--project] [--delete-home]',
  summary: "Remove a server from your file (or the project's with --project).",
  details:
    'Its home folder (where it keeps its data: garuda-mcp get <name> shows it) is kept, and the\nmessage says where; --delete-home deletes it too.',
  options: [PROJECT_EDIT, ['--delete-home', "also delete the server's home folder"]],
  globals: [...PLACE_FLAGS, 'json'],
  positionals: { min: 1, max: 1 },
  run: async (ctx, args) =>
    (await import('../../command-groups/config.js')).removeCommand(
      ctx,
      args.positionals[0] ?? '',
      isSet(args, 'project'),
      isSet(args, 'delete-home'),
    ),
};
