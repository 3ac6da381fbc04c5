// The code of the commands that open a manager (see config.ts for why groups). It re-exports the
// config group, which main.ts has loaded by the time one of these runs, so that the code both
// groups use is reached by the same lazily loaded modules and bundled in the same chunks instead
// of being split again by which group reaches it.
export * from './config.js';
export { callCommand } from '../commands/call/call.js';
export { doctorCommand } from '../commands/doctor/doctor.js';
export { loginCommand } from '../commands/login/login.js';
export { logoutCommand } from '../commands/logout/logout.js';
export { promptCommand } from '../commands/prompt/prompt.js';
export { promptsCommand } from '../commands/prompts/prompts.js';
export { readCommand } from '../commands/read/read.js';
export { resourcesCommand } from '../commands/resources/resources.js';
export { statusCommand } from '../commands/status/status.js';
export { toolsCommand } from '../commands/tools/tools.js';
