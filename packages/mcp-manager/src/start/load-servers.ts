import path from 'node:path';
import {
  defaultPaths,
  formatProblem,
  loadConfig,
  type ConfigProblem,
  type ServerConfig,
} from '@garuda/mcp-config';
import type { ServerOrigin } from '@garuda/internal';
import type { CheckedOptions } from '../options.js';
import { originOf } from './server-policy.js';

/** The servers the configuration gives this manager, and the problems found. @internal */
export interface LoadedServers {
  readonly servers: readonly ServerConfig[];
  readonly problems: readonly ConfigProblem[];
}

/** Where the `servers` option's servers are, in problems and as their `file`. @internal */
export const SERVERS_OPTION_LABEL = 'McpManager option "servers"';

/** The other clients' project file `importConfigs` reads (Claude Code's `.mcp.json`). */
function importedFile(options: CheckedOptions): string {
  return path.join(options.root, '.mcp.json');
}

/**
 * Where a loaded server's definition comes from, for the rule of names that clash (decided by
 * {@link originOf} in the policy module). `loadConfig` gives each server its file as it was
 * passed in. @internal
 *
 * @param config - A server {@link loadServers} returned.
 * @param options - The manager's options.
 * @returns Its origin.
 */
export function serverOrigin(config: ServerConfig, options: CheckedOptions): ServerOrigin {
  return originOf(config, {
    hostFile: SERVERS_OPTION_LABEL,
    importedFile: options.importConfigs.length > 0 ? importedFile(options) : undefined,
  });
}

/**
 * Reads the `servers` option's servers, the user's and the project's files (and the other clients' project files named by
 * `importConfigs`), with the host's switches for this session applied over `"enabled"`.
 * Problems are told through `notice` (only those of `only`, when given). @internal
 *
 * @param options - The manager's options.
 * @param only - The one server a reload is about, if any.
 * @param notice - Tells a problem.
 * @returns The servers and the problems.
 */
export async function loadServers(
  options: CheckedOptions,
  only: string | undefined,
  notice: (text: string) => void,
): Promise<LoadedServers> {
  const paths = defaultPaths({ home: options.home, root: options.root });
  const { servers, problems } = await loadConfig({
    userFile: options.userConfigFile ?? paths.userFile,
    projectFile: options.projectConfigFile ?? paths.projectFile,
    env: options.env,
    hostServers: { label: SERVERS_OPTION_LABEL, servers: options.servers },
    importedProjectFiles: options.importConfigs.map((client) => ({
      file: importedFile(options),
      client,
    })),
  });
  for (const problem of problems) {
    if (only === undefined || problem.server === only) {
      notice(`MCP configuration: ${formatProblem(problem)}`);
    }
  }
  const session = options.enabledForSession;
  return {
    problems,
    // `enabled` is outside the definition hash: a switch for this session asks no consent.
    servers: servers.map((server) => {
      const enabled = session.get(server.name);
      return enabled === undefined || enabled === server.def.enabled
        ? server
        : ({ ...server, def: { ...server.def, enabled } } as ServerConfig);
    }),
  };
}
