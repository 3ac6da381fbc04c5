// One server's start, as a chain of phases (seed 000's flowchart): consent → launch → connect
// and list → pin check → register. Each phase is built once per manager from the few things it
// needs, and each takes the server, its policy and what the phase before it gave.
import type { ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import type { Tool } from '@modelcontextprotocol/client';
import { connectPhase, type ConnectDeps } from './connect-phase.js';
import {
  downloadPhase,
  type DownloadDeps,
  type StartStep,
  type StartStepEvent,
} from '../launch/download-phase.js';
import { launchPhase, type LaunchDeps, type LocalPlan } from '../launch/launch-phase.js';
import type { ServerConnection } from './server-connection.js';
import { serverPolicy } from './server-policy.js';
import { CANCELLED_DETAIL, trustPhases, type TrustDeps } from './trust-phases.js';
import { pinnedList } from '../offer/prompt-pins.js';
import { readApps, withoutAppContent } from '../offer/app-pins.js';
import { adaptOffer, adaptServerResources, type AdaptedResources } from '../offer/offer-view.js';
import type { ToolListCache } from './tool-cache.js';
import type { McpPrompt, McpTool } from '../types.js';

/** How one server's start ended. @internal */
export type StartOutcome =
  | {
      readonly state: 'connected';
      readonly connection: ServerConnection;
      readonly tools: readonly McpTool[];
      /** Its prompts, adapted. */
      readonly prompts: readonly McpPrompt[];
      /** Its resources and resource templates, adapted. */
      readonly resources: AdaptedResources;
      /** The tools and prompts as the server sent them, pinned (the baseline of a later refresh). */
      readonly raw: readonly Tool[];
      /** A remote server that uses OAuth tokens. */
      readonly signedIn: boolean;
    }
  | { readonly state: 'disabled' | 'denied' | 'failed' | 'stopped'; readonly detail: string };

/** What each phase needs, given once per manager. @internal */
export interface StartDeps {
  readonly trust: TrustDeps;
  readonly launch: LaunchDeps;
  readonly connect: ConnectDeps;
  readonly download: DownloadDeps;
  /** The host's `onStartStep` (it must not throw; a throw is ignored). */
  readonly onStartStep?: ((event: StartStepEvent) => void) | undefined;
  /** What `detectSandbox` found (asked when a start begins: it is detected before any start). */
  readonly sandbox: () => SandboxInfo;
  /** Where the pinned list of a server trusted in the store is kept for a lazy start. */
  readonly cache: ToolListCache;
}

/**
 * Starts one server; never throws. `onStep` hears each step it begins (`downloading`,
 * `starting`). @internal
 */
export type StartServer = (
  server: ServerConfig,
  signal: AbortSignal,
  onStep?: (step: StartStep) => void,
) => Promise<StartOutcome>;

/**
 * The start sequence of a manager. @internal
 *
 * @param deps - What the phases need.
 * @returns A function that runs one server's whole start: the outcome says how it ended, and
 *   `connected` carries the running connection.
 */
export function startSequence(deps: StartDeps): StartServer {
  const { consent, pins } = trustPhases(deps.trust);
  const launch = launchPhase(deps.launch);
  const connect = connectPhase(deps.connect);
  const download = downloadPhase(deps.download);
  const cancelled = { state: 'stopped', detail: CANCELLED_DETAIL } as const;

  return async (server, signal, onStep) => {
    const step = (now: StartStep, packages: readonly string[] = [], checking = false) => {
      onStep?.(now);
      try {
        deps.onStartStep?.({
          server: server.name,
          step: now,
          packages,
          ...(checking ? { checking: true as const } : {}),
        });
      } catch {
        // The host's listener must not end a start.
      }
    };
    if (!server.def.enabled) {
      return { state: 'disabled', detail: 'it is disabled in the configuration' };
    }
    const unset = unsetVariables(server);
    if (unset !== undefined) return { state: 'failed', detail: unset };
    const policy = serverPolicy(server, deps.launch.root);
    const trusted = await consent(server, policy, signal);
    if ('state' in trusted) return trusted;
    if (signal.aborted) return cancelled;

    let plan: LocalPlan | undefined;
    if (server.kind === 'local') {
      const planned = launch(server, policy, deps.sandbox());
      if ('state' in planned) return planned;
      plan = planned;
      const fetched = await download(server, plan, signal, (packages, checking) =>
        step('downloading', packages, checking),
      );
      if (fetched !== undefined) return fetched;
    }
    step('starting');
    const connected = await connect(server, policy, plan, signal);
    if ('state' in connected) return connected;

    let apps: Tool[];
    try {
      apps = await readApps(
        connected.connection,
        connected.tools,
        { signal, timeoutMs: server.def.timeoutMs },
        deps.trust.logger,
      );
    } catch {
      deps.connect.track(connected.connection.close(CANCELLED_DETAIL));
      return cancelled;
    }
    const raw = [...pinnedList(connected.tools, connected.lists.prompts), ...apps];
    const refused = await pins(server, policy, trusted, raw, signal);
    if (refused !== undefined) {
      deps.connect.track(connected.connection.close(refused.detail));
      return refused;
    }
    // Only a list the store trusts can serve a lazy start: trust for this session is not kept.
    // The apps' content is not cached: a ready server serves none until it runs.
    if (trusted.via === 'store')
      deps.cache.save(policy.trustKey, trusted.def, withoutAppContent(raw));
    const adapted = adaptOffer(server.name, raw, deps.trust.notice, deps.trust.logger);
    return {
      state: 'connected',
      connection: connected.connection,
      ...adapted,
      resources: adaptServerResources(server.name, connected.lists, deps.trust.notice),
      raw,
      signedIn: connected.signedIn,
    };
  };
}

/**
 * Why a server cannot start because a `${NAME}` it takes is not set (its value would be empty,
 * which no server expects of a token or a setting): the values and the variables, named. Only
 * that server fails; the config file is still loaded. `undefined` when every variable is set.
 */
function unsetVariables(server: ServerConfig): string | undefined {
  const values = server.kind === 'local' ? server.env : server.headers;
  const what = server.kind === 'local' ? 'env' : 'header';
  const places: string[] = [];
  const names: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value.source.kind !== 'vars' || value.source.missing.length === 0) continue;
    places.push(`${what} ${JSON.stringify(key)}`);
    for (const name of value.source.missing) if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0) return undefined;
  const one = names.length === 1;
  return (
    `its ${places.join(', ')} ${places.length === 1 ? 'takes' : 'take'} ` +
    `${names.map((name) => `\${${name}}`).join(', ')}, which ${one ? 'is' : 'are'} not set: set ` +
    `${names.join(', ')} in the environment that starts this program, ` +
    'or change the value in its config file'
  );
}
