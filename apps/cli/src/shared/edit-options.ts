import type { CommandOption } from './command.js';

/** `--project` of the commands that edit a config file. */
export const PROJECT_EDIT: CommandOption = [
  '--project',
  "the project's file (<root>/.garuda/mcp.json) instead of yours (<home>/mcp.json)",
];

/** `--session` of `enable` and `disable`. */
export const SESSION_SWITCH: CommandOption = [
  '--session',
  'for this terminal session only (Linux): no file changes, other terminals are not affected',
];
