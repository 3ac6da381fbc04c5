// The servers and contexts of the src/consent/consent-request-*.test.ts files (outside src/, so
// never part of the package).
import type { LocalServerConfig, RemoteServerConfig, ResolvedValue } from '@garuda/mcp-config';
import { serverConsentRequest, type ConsentContext } from '../../src/consent/consent-request.js';
import { localServer } from './servers.js';

/** The project folder of the servers. */
export const ROOT = '/home/ada/project';
/** The user's home folder. */
export const HOME = '/home/ada';

/** Where the servers come from: the project's config file. */
export const PROJECT_FILE = { source: 'project', file: `${ROOT}/.garuda/mcp.json` } as const;

/** Where the consent is asked: with bubblewrap, in {@link ROOT}, with two temp folders. */
export const context: ConsentContext = {
  sandbox: { kind: 'bwrap', command: '/usr/bin/bwrap', version: '0.9.0' },
  root: ROOT,
  home: HOME,
  garudaHome: `${HOME}/.garuda`,
  tempDirs: ['/tmp', '/var/tmp/garuda'],
};

/** {@link context} on a machine without bubblewrap. */
export const noSandbox: ConsentContext = {
  ...context,
  sandbox: {
    kind: 'none',
    reason: 'bubblewrap is not installed: install the "bubblewrap" package',
  },
};

/**
 * The project's local server `srv` (command `my-server` unless `def` says otherwise).
 *
 * @param def - The fields of its definition that differ from the defaults.
 * @param env - Its resolved env values.
 * @returns The loaded server.
 */
export function local(
  def: Partial<Omit<LocalServerConfig['def'], 'kind'>> = {},
  env: Record<string, ResolvedValue> = {},
): LocalServerConfig {
  return localServer({
    name: 'srv',
    ...PROJECT_FILE,
    def: { command: 'my-server', ...def },
    env,
  });
}

/**
 * The project's remote server `docs`, with no resolved header values.
 *
 * @param url - Its URL.
 * @param headers - Its headers as the file writes them.
 * @returns The loaded server.
 */
export function remote(url: string, headers: Record<string, string> = {}): RemoteServerConfig {
  return {
    kind: 'remote',
    name: 'docs',
    ...PROJECT_FILE,
    def: { kind: 'remote', type: 'http', url, headers, timeoutMs: 60_000, enabled: true },
    url: new URL(url),
    headers: {},
  };
}

/**
 * The warnings of a server's consent request.
 *
 * @param server - The server.
 * @param ctx - Where the consent is asked (default {@link context}).
 * @returns `serverConsentRequest(server, ctx).warnings`.
 */
export function warnings(
  server: LocalServerConfig | RemoteServerConfig,
  ctx = context,
): readonly string[] {
  return serverConsentRequest(server, ctx).warnings;
}
