import type { ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { oneLine } from './text.js';
import type { ServerState, StatusRow } from './types.js';

/**
 * The sandbox a server runs in, as a status row and a consent screen say it. @internal
 *
 * @param sandbox - What `detectSandbox` found (undefined before `start()` detected it).
 * @returns `bubblewrap`, `seatbelt`, or `none: <reason>`.
 */
export function sandboxName(sandbox: SandboxInfo | undefined): string {
  if (sandbox === undefined) return 'not checked yet';
  switch (sandbox.kind) {
    case 'bwrap':
      return 'bubblewrap';
    case 'seatbelt':
      return 'seatbelt';
    default:
      return `none: ${oneLine(sandbox.reason ?? 'no OS sandbox on this system')}`;
  }
}

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
    sandbox: remote ? 'remote' : sandboxName(sandbox),
    network: remote
      ? `remote ${oneLine(config.url.href, 200)} · ${server.signedIn === true ? 'signed in' : 'no sign-in'}`
      : config.def.network
        ? 'on'
        : 'off',
    ...(server.detail === undefined ? {} : { detail: oneLine(server.detail) }),
  };
}
