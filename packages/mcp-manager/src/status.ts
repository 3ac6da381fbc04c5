import type { ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { oneLine } from './text.js';
import { sandboxStatus } from './wording.js';
import type { ServerState, StatusRow } from './types.js';

/** What a status row needs of one server. @internal */
export interface StatusSubject {
  readonly config: ServerConfig;
  readonly state: ServerState;
  readonly detail: string | undefined;
  /** A remote server that connected with OAuth tokens. */
  readonly signedIn?: boolean | undefined;
}

/**
 * One row of `status()`. @internal
 *
 * @param server - The server.
 * @param tools - How many of its tools the model gets.
 * @param sandbox - What `detectSandbox` found.
 * @returns The row.
 */
export function statusRow(
  server: StatusSubject,
  tools: number,
  sandbox: SandboxInfo | undefined,
): StatusRow {
  const { config } = server;
  const remote = config.kind === 'remote';
  return {
    name: config.name,
    source: config.source,
    state: server.state,
    tools,
    sandbox: remote ? { kind: 'remote' } : sandboxStatus(sandbox),
    network: remote
      ? { kind: 'remote', url: oneLine(config.url.href, 200), signedIn: server.signedIn === true }
      : { kind: 'local', allowed: config.def.network },
    ...(server.detail === undefined ? {} : { detail: oneLine(server.detail) }),
  };
}
