import type { ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import type { StartStep } from '../launch/download-phase.js';
import { riskOf } from '../calls/risk-tier.js';
import { oneLine } from '../common/text.js';
import type { ExposedTools, ExposureMode } from '../offer/tool-exposure.js';
import { sandboxStatus } from './wording.js';
import type { ServerOrigin } from '@garuda/internal';
import type { LostName, ServerState, StatusRow } from '../types.js';

/** What a status row needs of one server. @internal */
export interface StatusSubject {
  readonly config: ServerConfig;
  readonly origin: ServerOrigin;
  readonly state: ServerState;
  readonly detail: string | undefined;
  /** A remote server that connected with OAuth tokens. */
  readonly signedIn?: boolean | undefined;
  /** The step its start is at, while it starts. */
  readonly step?: StartStep | undefined;
}

/**
 * One row of `status()`. @internal
 *
 * @param server - The server.
 * @param tools - How many of its tools the model gets.
 * @param sandbox - What `detectSandbox` found.
 * @param hiddenTools - How many of its tools the user hid.
 * @param exposure - Its exposure mode (connected servers) and how many tools wait behind the search.
 * @param lostNames - The names of its tools and prompts another server holds.
 * @returns The row.
 */
export function statusRow(
  server: StatusSubject,
  tools: number,
  sandbox: SandboxInfo | undefined,
  hiddenTools = 0,
  exposure: { readonly mode?: ExposureMode; readonly held: number } = { held: 0 },
  lostNames: readonly LostName[] = [],
): StatusRow {
  const { config } = server;
  const remote = config.kind === 'remote';
  return {
    name: config.name,
    source: config.source,
    origin: server.origin,
    state: server.state,
    ...(server.state === 'starting' && server.step !== undefined ? { step: server.step } : {}),
    tools,
    hiddenTools,
    heldTools: exposure.held,
    ...(exposure.mode === undefined ? {} : { exposure: exposure.mode }),
    risk: riskOf(config),
    sandbox: remote ? { kind: 'remote' } : sandboxStatus(sandbox),
    network: remote
      ? { kind: 'remote', url: oneLine(config.url.href, 200), signedIn: server.signedIn === true }
      : { kind: 'local', allowed: config.def.network },
    ...(server.detail === undefined ? {} : { detail: oneLine(server.detail) }),
    lostNames,
  };
}

/**
 * The rows of `status()`, in configuration order, counting the tools the model gets. @internal
 *
 * @param registry - The manager's servers.
 * @param exposed - What the model is shown of their tools.
 * @param sandbox - What `detectSandbox` found.
 */
export function statusRows(
  registry: {
    readonly records: ReadonlyMap<string, StatusSubject>;
    hidden(): readonly { readonly server: string }[];
    lostNames(): ReadonlyMap<string, readonly LostName[]>;
  },
  exposed: ExposedTools,
  sandbox: SandboxInfo | undefined,
): StatusRow[] {
  const count = (tools: readonly { readonly server: string }[]) => {
    const counts = new Map<string, number>();
    for (const tool of tools) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
    return counts;
  };
  const shown = new Set(exposed.list);
  const counts = count(exposed.list);
  const held = count(exposed.catalog.filter((tool) => !shown.has(tool)));
  const hidden = count(registry.hidden());
  const lost = registry.lostNames();
  return [...registry.records.values()].map((record) => {
    const name = record.config.name;
    return statusRow(
      record,
      counts.get(name) ?? 0,
      sandbox,
      hidden.get(name) ?? 0,
      {
        mode: exposed.modes.get(name),
        held: held.get(name) ?? 0,
      },
      lost.get(name) ?? [],
    );
  });
}
