// The code of `import` and `install`, which read other clients' files (see config.ts for why
// groups, and server.ts for why it re-exports the config group).
export * from './config.js';
export { importCommand } from '../commands/import/import.js';
export { installCommand } from '../commands/install/install.js';
