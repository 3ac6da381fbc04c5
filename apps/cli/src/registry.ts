// Every command of garuda-mcp, in the order `--help` lists them. A command is a folder under
// commands/ whose index.ts exports its declaration; adding one is that folder and a line here.
import { command as add } from './commands/add/index.js';
import { command as audit } from './commands/audit/index.js';
import { command as call } from './commands/call/index.js';
import { command as demo } from './commands/demo/index.js';
import { command as disable } from './commands/disable/index.js';
import { command as doctor } from './commands/doctor/index.js';
import { command as enable } from './commands/enable/index.js';
import { command as get } from './commands/get/index.js';
import { command as importServers } from './commands/import/index.js';
import { command as install } from './commands/install/index.js';
import { command as list } from './commands/list/index.js';
import { command as login } from './commands/login/index.js';
import { command as logout } from './commands/logout/index.js';
import { command as prompt } from './commands/prompt/index.js';
import { command as prompts } from './commands/prompts/index.js';
import { command as read } from './commands/read/index.js';
import { command as remove } from './commands/remove/index.js';
import { command as resources } from './commands/resources/index.js';
import { command as serve } from './commands/serve/index.js';
import { command as status } from './commands/status/index.js';
import { command as tools } from './commands/tools/index.js';
import { command as trust } from './commands/trust/index.js';
import type { Command } from './shared/command.js';

/** The commands, in help order. */
export const COMMANDS: readonly Command[] = [
  status,
  list,
  get,
  tools,
  call,
  resources,
  read,
  prompts,
  prompt,
  add,
  importServers,
  remove,
  enable,
  disable,
  login,
  logout,
  trust,
  audit,
  doctor,
  install,
  serve,
  demo,
];

/** The command named `name`, if there is one. */
export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
