import { usageError } from '../../exit-codes.js';
import { type Command, isSet } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { orList } from '../../shared/modes.js';
import { INSTALL_HOSTS } from '../../shared/package-tables.js';

/** `garuda-mcp install`. */
export const command: Command = {
  name: 'install',
  usage: 'garuda-mcp install <host> [--move | --no-move]',
  summary: `Put garuda-mcp serve in front of a host: ${orList(INSTALL_HOSTS)}.`,
  details:
    "Shows the entry it adds to that host's own MCP config (the serve command line with this\nproject's root), then writes it after a yes (--yes without a terminal). Every other byte of the\nfile is kept; an entry already there is left alone.\n\nServers the host's file already has are listed, and moving them behind the gateway is a second\nquestion: they are imported into your Garuda file as garuda-mcp import does, a backup of the\nhost's file is written beside it, and its server list keeps only the garuda entry (and the\nservers that cannot be imported, which are named). --yes does not move them.",
  options: [
    [
      '--move',
      "move the host's servers behind the gateway without asking (the entry itself still needs\na yes or --yes)",
    ],
    [
      '--no-move',
      "leave the host's servers where they are (the default without a terminal); move them\nlater with garuda-mcp install <host> --move",
    ],
  ],
  globals: [...PLACE_FLAGS, 'yes'],
  positionals: { min: 1, max: 1 },
  run: async (ctx, args) => {
    if (isSet(args, 'move') && isSet(args, 'no-move')) {
      throw usageError('Give --move or --no-move, not both.');
    }
    const { installCommand } = await import('../../command-groups/import.js');
    return installCommand(ctx, args.positionals[0] ?? '', {
      move: isSet(args, 'move') ? true : isSet(args, 'no-move') ? false : undefined,
    });
  },
};
