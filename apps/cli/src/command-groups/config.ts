// The code of the commands that read and edit the config files without starting a server, and
// the global flags' resolution every command runs first (main.ts loads this group once a command
// runs). A command's `run` loads its group rather than a module of its own: the bundler puts code
// into chunks by which lazily loaded modules reach it, and a module per command split the code
// the commands share into dozens of small files, each resolved, read and compiled at every start.
// Like registry.ts, these groups name commands; nothing else does.
export { resolveGlobals } from '../shared/globals.js';
export { setEnabledCommand } from '../shared/set-enabled.js';
export { addCommand } from '../commands/add/add.js';
export { auditCommand } from '../commands/audit/audit.js';
export { getCommand } from '../commands/get/get.js';
export { listCommand } from '../commands/list/list.js';
export { removeCommand } from '../commands/remove/remove.js';
export { trustCommand } from '../commands/trust/trust.js';
