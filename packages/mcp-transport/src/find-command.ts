import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The search path used when the server's environment has no `PATH`: what glibc's `execvp` and
 * libuv use then.
 */
export const DEFAULT_SEARCH_PATH = '/usr/bin:/bin';

/** Whether `file` is a regular file this process may execute. @internal */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds a command the way `execvp` does, on this machine: a name with a `/` is taken relative to
 * `cwd`; a bare name is looked up in each folder of `searchPath` (an empty entry means `cwd`, as
 * in POSIX). Returns the path as found (links are not resolved, so the program still sees the name
 * it was started by), or `undefined`. POSIX only: Windows lookup (PATHEXT, the current folder
 * first) is left to the process transport. @internal
 *
 * @param command - argv[0].
 * @param options - `searchPath`: the server's `PATH` (default {@link DEFAULT_SEARCH_PATH});
 *   `cwd`: the server's working folder (absolute).
 * @returns The absolute path of the command, or `undefined` when it is not found.
 */
export function findCommand(
  command: string,
  options: { searchPath: string | undefined; cwd: string },
): string | undefined {
  if (command.includes('/')) {
    const file = path.resolve(options.cwd, command);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const entry of (options.searchPath ?? DEFAULT_SEARCH_PATH).split(':')) {
    const file = path.resolve(options.cwd, entry, command);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
