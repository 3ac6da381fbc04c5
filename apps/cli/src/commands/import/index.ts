import { type Command, isSet, stringsOf } from '../../shared/command.js';
import { PLACE_FLAGS } from '../../shared/global-flags.js';
import { IMPORT_CLIENTS } from '../../shared/package-tables.js';

/** `garuda-mcp import`. */
export const command: Command = {
  name: 'import',
  usage: 'garuda-mcp import [--from <client>]… [--project] [--all | --only <name>…]',
  summary: "Show the MCP servers of other clients' files, and write the chosen ones into yours.",
  details:
    "Reads Claude Code (.mcp.json, ~/.claude.json), Claude Desktop, Cursor, VS Code, Gemini CLI\nand Codex files. Without --all or --only it only shows what it found. A repository's servers go\nto the project file (they ask consent as usual); a secret written out in another client's file\nis never copied: the entry takes ${NAME} and a warning says which variable to set.",
  options: [
    ['--from <client>', `read only this client: ${IMPORT_CLIENTS.join(', ')} (repeatable)`],
    ['--project', "write your own servers into the project's file too"],
    ['--all', 'write every server that can be imported'],
    ['--only <name>', 'write this server, by the name shown (repeatable)'],
  ],
  globals: [...PLACE_FLAGS, 'json'],
  repeatable: ['from', 'only'],
  positionals: { min: 0, max: 0 },
  run: async (ctx, args) =>
    (await import('../../command-groups/import.js')).importCommand(ctx, {
      from: stringsOf(args, 'from'),
      project: isSet(args, 'project'),
      all: isSet(args, 'all'),
      only: stringsOf(args, 'only'),
    }),
};
