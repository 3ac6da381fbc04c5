import type { ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { riskOf } from './risk-tier.js';
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
 * @param hiddenTools - How many of its tools the user hid.
 * @returns The row.
 */
export function statusRow(
  server: StatusSubject,
  tools: number,
  sandbox: SandboxInfo | undefined,
  hiddenTools = 0,
): StatusRow {
  const { config } = server;
  const remote = config.kind === 'remote';
  return {
    name: config.name,
    source: config.source,
    state: server.state,
    tools,
    hiddenTools,
    risk: riskOf(config),
    sandbox: remote ? { kind: 'remote' } : sandboxStatus(sandbox),
    network: remote
      ? { kind: 'remote', url: oneLine(config.url.href, 200), signedIn: server.signedIn === true }
      : { kind: 'local', allowed: config.def.network },
    ...(server.detail === undefined ? {} : { detail: oneLine(server.detail) }),
  };
}

/**
 * The rows of `status()`, in configuration order, counting the tools the model gets. @internal
 *
 * @param registry - The manager's servers and tool view.
 * @param sandbox - What `detectSandbox` found.
 */
export function statusRows(
  registry: {
    readonly records: ReadonlyMap<string, StatusSubject>;
    view(): { readonly list: readonly { readonly server: string }[] };
    hidden(): readonly { readonly server: string }[];
  },
  sandbox: SandboxInfo | undefined,
): StatusRow[] {
  const counts = new Map<string, number>();
  for (const tool of registry.view().list) {
    counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  }
  const hidden = new Map<string, number>();
  for (const tool of registry.hidden()) hidden.set(tool.server, (hidden.get(tool.server) ?? 0) + 1);
  return [...registry.records.values()].map((record) => {
    const name = record.config.name;
    return statusRow(record, counts.get(name) ?? 0, sandbox, hidden.get(name) ?? 0);
  });
}
