/**
 * A local server's definition with every default the config schema fills in, written out here
 * rather than taken from `@garuda/mcp-config`, so that a test of the defaults compares against
 * the design (and a change of a default shows up as a failing test, not as a moved constant).
 *
 * @param command - The server's command.
 * @returns `{ kind: 'local', command, args: [], env: {}, network: false, … }` (a `LocalServerDef`).
 */
export function localDefaults(command: string) {
  return {
    kind: 'local' as const,
    command,
    args: [] as string[],
    env: {} as Record<string, string>,
    network: false,
    writePaths: [] as string[],
    readPaths: [] as string[],
    timeoutMs: 60_000,
    enabled: true,
  };
}

/**
 * A remote server's definition with every default the config schema fills in, written out here
 * for the same reason as {@link localDefaults}.
 *
 * @param url - The server's URL.
 * @returns `{ kind: 'remote', type: 'http', url, headers: {}, … }` (a `RemoteServerDef`).
 */
export function remoteDefaults(url: string) {
  return {
    kind: 'remote' as const,
    type: 'http' as const,
    url,
    headers: {} as Record<string, string>,
    timeoutMs: 60_000,
    enabled: true,
  };
}
