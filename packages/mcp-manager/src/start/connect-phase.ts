// The connect phase of a start: the local server's process in its sandbox (or the remote
// server's transport, with its sign-in), the MCP handshake and the tool list, within the start's
// time limit; and, when that fails, why in words a person can act on.
import type { LocalServerConfig, ServerConfig } from '@garuda/mcp-config';
import type { ServerLists } from '../offer/server-lists.js';
import { findBlockedAddressError } from '@garuda/pinned-fetch';
import type { Tool } from '@modelcontextprotocol/client';
import type { LocalPlan, RunnerCacheUse } from '../launch/launch-phase.js';
import type { AskingServer, ServerAnswers } from '../elicit/elicitation.js';
import { networkReason } from './network-reason.js';
import { isOfflineMiss, type PackageLaunch } from '../launch/package-launch.js';
import { forgetDownload } from '../launch/download-phase.js';
import { isBrokenInstall, timeoutNote, upstreamFailure } from '../launch/runner-cause.js';
import { openRemote, type RemoteDeps } from './remote-connect.js';
import type { ServerPolicy } from './server-policy.js';
import { STDERR_PART, ServerConnection, type OpenOptions } from './server-connection.js';
import { oneLine, quoteText } from '../common/text.js';
import { hiddenTempHint } from '../launch/tmp-hint.js';
import { CANCELLED_DETAIL } from './trust-phases.js';
import type { ManagerLogger, ServerLogEntry } from '../types.js';

/** What connecting needs of the manager, given once. @internal */
export interface ConnectDeps {
  readonly remote: RemoteDeps;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly startTimeoutMs: number;
  /** The project root and the sandbox's read paths: what a sandboxed server sees anyway. */
  readonly visible: readonly string[];
  /** Keeps a server's stop in progress, for the manager's `close()` to wait for. */
  readonly track: (stopping: Promise<void>) => void;
  readonly notice: (text: string) => void;
  readonly logger: ManagerLogger | undefined;
  /** The host's `onServerLog`. */
  readonly onServerLog: ((entry: ServerLogEntry) => void) | undefined;
  /** How a server's questions are answered (elicitation); `undefined` when the host cannot ask. */
  readonly answers: (server: AskingServer) => ServerAnswers | undefined;
}

/** A server that connected and listed its tools. @internal */
export interface Connected {
  readonly connection: ServerConnection;
  readonly tools: readonly Tool[];
  /** Its prompts and resources, as listed. */
  readonly lists: ServerLists;
  /** A remote server that uses OAuth tokens. */
  readonly signedIn: boolean;
}

/** A start that ends in the connect phase. @internal */
export interface ConnectFailure {
  readonly state: 'failed' | 'stopped';
  readonly detail: string;
}

/**
 * A failure reason with a note: the note goes before the stderr excerpt, because a reason is
 * capped (`oneLine`) and what to do matters more than the rest of a long stderr line.
 */
function withNote(reason: string, note: string): string {
  const at = reason.indexOf(STDERR_PART);
  return at < 0
    ? `${reason} (note: ${note})`
    : `${reason.slice(0, at)} (note: ${note})${reason.slice(at)}`;
}

function packageList(launch: PackageLaunch): string {
  const shown = launch.packages.slice(0, 3).map((entry) => quoteText(entry.spec, 120));
  return shown.length === 0 ? 'its package' : shown.join(', ');
}

/**
 * Why a server started through a package runner did not start, when the runner could not
 * download: without network (offline mode makes that quick; this replaces the runner's own
 * words, which name only its log file), or too slow a first download (a note).
 */
function runnerFailure(
  server: LocalServerConfig,
  cache: RunnerCacheUse | undefined,
  failure: { readonly timedOut?: boolean; readonly stderr?: readonly string[] },
): { readonly detail: string } | { readonly note: string } | undefined {
  if (cache === undefined) return undefined;
  const runner = quoteText(cache.launch.runner);
  const what = packageList(cache.launch);
  if (!server.def.network && isOfflineMiss(failure.stderr ?? [])) {
    return {
      detail:
        `it could not start: ${runner} must download ${what}, but the server has no network ` +
        `access and its own cache does not hold it yet. Set "network": true for it to allow ` +
        `the download (into that cache only)`,
    };
  }
  if (server.def.network && failure.timedOut === true) {
    return { note: timeoutNote(cache.launch, what) };
  }
  return undefined;
}

/** The connect phase, built once per manager. @internal */
export function connectPhase(deps: ConnectDeps) {
  // One for every server, made here: a closure made in the function below would keep that
  // start's whole scope (its signal, plan and options) for as long as the server runs.
  const onSkip = (notice: string) => deps.notice(notice);
  /**
   * Connects a server and lists its tools, or says why it did not.
   *
   * @param server - The server.
   * @param policy - Its policy (a remote server's fetch and sign-in).
   * @param plan - What a local server runs as (from the launch phase); none for a remote one.
   * @param signal - Cancels the start.
   */
  return async (
    server: ServerConfig,
    policy: ServerPolicy,
    plan: LocalPlan | undefined,
    signal: AbortSignal,
  ): Promise<Connected | ConnectFailure> => {
    const common: Omit<OpenOptions, 'launch'> = {
      server: server.name,
      clientInfo: deps.clientInfo,
      timeoutMs: server.def.startTimeoutMs ?? deps.startTimeoutMs,
      signal,
      onSkip,
      track: deps.track,
      logger: deps.logger,
      onLog: deps.onServerLog,
      answers: deps.answers({
        name: server.name,
        allowHttpLoopback: policy.allowHttpLoopback,
        ...(server.kind === 'remote' ? { url: server.url } : {}),
      }),
    };
    if (server.kind === 'remote') {
      const opened = await openRemote(server, policy, deps.remote, signal, (transport, reauth) =>
        ServerConnection.open({
          ...common,
          launch: { kind: 'remote', transport, reauthorize: reauth },
        }),
      );
      if (opened.ok) return opened;
      if (opened.cancelled) return { state: 'stopped', detail: CANCELLED_DETAIL };
      // A refused address, or a connection that failed, says why in words: the SDK's own
      // message only says "fetch failed".
      const blocked = findBlockedAddressError(opened.error);
      if (blocked !== undefined) {
        return { state: 'failed', detail: `it could not connect: ${blocked.message}` };
      }
      const unreachable = networkReason(opened.error);
      return {
        state: 'failed',
        detail:
          unreachable === undefined
            ? opened.reason
            : `it could not connect to ${oneLine(server.url.origin, 200)}: ${unreachable}`,
      };
    }
    if (plan === undefined) throw new TypeError('a local server needs its launch plan');
    const opened = await ServerConnection.open({
      ...common,
      launch: { kind: 'local', argv: plan.argv, policy: plan.policy, sandbox: plan.sandbox },
    });
    if (opened.ok) return { ...opened, signedIn: false };
    if (opened.cancelled) return { state: 'stopped', detail: CANCELLED_DETAIL };
    // A package the runner installed only in part (a download cut off outside Garuda): the
    // next start removes it and downloads again.
    if (
      plan.cache !== undefined &&
      isBrokenInstall(opened.stderr ?? []) &&
      forgetDownload(plan.cache.dir)
    ) {
      return {
        state: 'failed',
        detail: withNote(
          opened.reason,
          'its package in the cache is incomplete; the next start downloads it again, so try again',
        ),
      };
    }
    // A server that started but whose stderr says its upstream service is out of reach (a
    // remote proxy): that is the cause, whatever the runner did before.
    const upstream = server.def.network ? upstreamFailure(opened.stderr ?? []) : undefined;
    if (upstream !== undefined) {
      return {
        state: 'failed',
        detail: `it started but could not reach its upstream service (${upstream}); ${opened.reason}`,
      };
    }
    const runner = runnerFailure(server, plan.cache, opened);
    if (runner !== undefined && 'detail' in runner) {
      return { state: 'failed', detail: runner.detail };
    }
    const hint =
      plan.sandbox.kind === 'none'
        ? undefined
        : (runner?.note ?? hiddenTempHint(server, deps.visible, plan.sandbox.kind));
    return {
      state: 'failed',
      detail: hint === undefined ? opened.reason : withNote(opened.reason, hint),
    };
  };
}
