// The code of `serve` (see config.ts for why groups). It re-exports the manager group, whose code
// the gateway uses nearly all of, so that the code both reach is bundled in the same chunks
// instead of being split again by whether `serve` reaches it.
export * from './server.js';
export { serveFromArgs } from '../commands/serve/serve-args.js';
