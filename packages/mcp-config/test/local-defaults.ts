import type { LocalServerDef } from '../src/server-types.js';

/**
 * A local server's definition with every default the schema fills in, written out here rather
 * than taken from the package, so that a test of the defaults compares against the design.
 */
export function localDefaults(command: string): LocalServerDef {
  return {
    kind: 'local',
    command,
    args: [],
    env: {},
    network: false,
    writePaths: [],
    readPaths: [],
    timeoutMs: 60_000,
    enabled: true,
  };
}
