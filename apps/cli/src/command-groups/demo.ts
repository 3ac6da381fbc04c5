// The code of `demo` (see config.ts for why groups, and serve.ts for why it re-exports the
// manager group).
export * from './server.js';
export { runDemo } from '../commands/demo/run-demo.js';
