import path from 'node:path';
import { invalidArgument } from './errors.js';

/** Options of {@link defaultPaths}. */
export interface DefaultPathsOptions {
  /** The user's Garuda folder (the CLI uses `GARUDA_HOME` or `~/.garuda`). */
  readonly home: string;
  /** The project's root folder. */
  readonly root: string;
}

/** The files of one user and one project, all absolute. */
export interface DefaultPaths {
  readonly home: string;
  readonly root: string;
  /** `<home>/mcp.json`: the user's servers. */
  readonly userFile: string;
  /** `<root>/.garuda/mcp.json`: the project's servers. */
  readonly projectFile: string;
  /** `<home>/trust.json`: consent and pins. */
  readonly trustFile: string;
  /** `<home>/mcp-auth.json`: OAuth clients and tokens. */
  readonly authFile: string;
}

/**
 * The standard file locations for a home folder and a project root. The caller decides what
 * `home` is (this package never reads `process.env` or `os.homedir()`).
 *
 * @param options - `home` and `root`, absolute or relative to the current folder.
 * @returns Absolute paths (`path.resolve`).
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` when `home` or `root` is not a non-empty string.
 * @example
 * ```ts
 * const paths = defaultPaths({ home: '/home/me/.garuda', root: '/work/repo' });
 * paths.userFile; // '/home/me/.garuda/mcp.json'
 * paths.projectFile; // '/work/repo/.garuda/mcp.json'
 * ```
 */
export function defaultPaths(options: DefaultPathsOptions): DefaultPaths {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('defaultPaths: pass { home, root }');
  }
  const { home, root } = options;
  for (const [what, value] of [
    ['home', home],
    ['root', root],
  ] as const) {
    if (typeof value !== 'string' || value === '' || value.includes('\0')) {
      throw invalidArgument(
        `defaultPaths: ${what} must be a non-empty folder path without NUL characters`,
      );
    }
  }
  const absoluteHome = path.resolve(home);
  const absoluteRoot = path.resolve(root);
  return {
    home: absoluteHome,
    root: absoluteRoot,
    userFile: path.join(absoluteHome, 'mcp.json'),
    projectFile: path.join(absoluteRoot, '.garuda', 'mcp.json'),
    trustFile: path.join(absoluteHome, 'trust.json'),
    authFile: path.join(absoluteHome, 'mcp-auth.json'),
  };
}
