// What the manager hands its start phases and its remote connects, put together once in its
// constructor: each phase gets only the part it uses.
import { AuditLog } from '@garuda/mcp-audit';
import type { AuthStore } from '@garuda/mcp-oauth';
import { openBrowser } from '@garuda/mcp-oauth';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { checkPinnedFetchOptions, type PinnedFetch } from '@garuda/pinned-fetch';
import type { McpTrustEntry, TrustStoreLike } from '@garuda/mcp-trust';
import path from 'node:path';
import type { QuestionQueue } from '../common/abort.js';
import { AuditRecorder } from '../calls/audit-recorder.js';
import type { ElicitBudget } from '../elicit/elicit-budget.js';
import type { ElicitationDeps } from '../elicit/elicitation.js';
import { InvalidOptionsError } from '../errors.js';
import type { CheckedOptions } from '../options.js';
import type { RemoteDeps } from './remote-connect.js';
import { serverOrigin } from './load-servers.js';
import { ServerRegistry } from './server-registry.js';
import { ToolListCache } from './tool-cache.js';
import type { StartDeps, StartServer } from './start-server.js';
import type { ConnectDeps } from './connect-phase.js';
import { resourceRefresh, toolRefresh } from '../offer/tool-refresh.js';
import { forPrompter, messageOf, oneLine } from '../common/text.js';
import type { ServerChange } from '../types.js';

/** What the manager itself owns and lends to the parts. @internal */
export interface ManagerOwned {
  readonly store: TrustStoreLike;
  readonly session: Map<string, McpTrustEntry>;
  readonly questions: QuestionQueue;
  /** How many questions each server may still ask. */
  readonly elicitBudget: ElicitBudget;
  readonly authStore: AuthStore;
  /** The strict fetch for project servers (made from `remote.projectFetchOptions`). */
  readonly pinnedFetch: typeof fetch;
  /** What `detectSandbox` found (set before any start). */
  readonly sandbox: () => SandboxInfo;
  readonly notice: (text: string) => void;
  /** Tells the host's `onChange` of a change of what a server offers (never throws). */
  readonly changed: (change: ServerChange) => void;
  readonly track: (stopping: Promise<void>) => void;
  /** Hands audit events to the host's sink. */
  readonly audit: AuditRecorder;
  /** The pinned lists for a lazy start. */
  readonly cache: ToolListCache;
}

/**
 * How long an audit event waits for others to share its write (one lock, one `fsync`): the
 * disk is paid per batch, not per call. `close()` writes what waits at once. @internal
 */
export const AUDIT_BATCH_MS = 50;

/**
 * The audit recorder of a manager's options: into the host's sink, else `<home>/audit.jsonl`,
 * unless turned off. @internal
 */
export function auditRecorder(options: CheckedOptions): AuditRecorder {
  const { auditLog, home, logger } = options;
  const sink =
    auditLog === false
      ? undefined
      : 'sink' in auditLog
        ? auditLog.sink
        : new AuditLog(path.join(home, 'audit.jsonl'), {
            includeText: auditLog.includeText,
            batchMs: AUDIT_BATCH_MS,
          });
  return new AuditRecorder(sink, (text) => logger?.warn?.(text));
}

/** The tool-list cache, `<home>/mcp-tool-cache.json`. @internal */
export function toolListCache(options: CheckedOptions): ToolListCache {
  return new ToolListCache(path.join(options.home, 'mcp-tool-cache.json'), options.logger);
}

/**
 * The remote connect's part: the prompter's sign-in questions (one at a time, cleaned), the
 * browser, the stores. @internal
 */
export function remoteDeps(options: CheckedOptions, owned: ManagerOwned): RemoteDeps {
  const { prompter, logger } = options;
  return {
    pinnedFetch: owned.pinnedFetch,
    authStore: owned.authStore,
    clientMetadataUrl: options.clientMetadataUrl,
    signIn:
      prompter.signIn === undefined
        ? undefined
        : async (request, signal) => {
            const yes = await owned.questions.ask(
              () => prompter.signIn?.(forPrompter(request), signal) ?? Promise.resolve(false),
              signal,
            );
            const decision = yes === true ? 'allowed' : 'declined';
            owned.audit.record({ kind: 'sign-in', server: request.server, decision });
            return yes;
          },
    pasteRedirect:
      prompter.pasteRedirect === undefined
        ? undefined
        : (request, signal) =>
            prompter.pasteRedirect?.(forPrompter(request), signal) ?? Promise.resolve(undefined),
    openBrowser:
      options.openBrowser ??
      ((url, { allowHttpLoopback }) =>
        openBrowser(url, { allowHttpLoopback, ...(logger ? { logger } : {}) })),
    notice: owned.notice,
    logger,
  };
}

/**
 * The start phases' parts, but for the answers to a server's questions: those come with the
 * connecting code (see {@link lazyStartSequence}). @internal
 */
export type StartParts = Omit<StartDeps, 'connect'> & {
  readonly connect: Omit<ConnectDeps, 'answers'>;
};

/** The start phases' parts. @internal */
export function startDeps(
  options: CheckedOptions,
  owned: ManagerOwned,
  remote: RemoteDeps,
): StartParts {
  const { prompter, logger } = options;
  return {
    sandbox: owned.sandbox,
    cache: owned.cache,
    trust: {
      store: owned.store,
      session: owned.session,
      ask: async (request, signal) => {
        const answer = await owned.questions.ask(
          async () => await prompter.consent(forPrompter(request), signal),
          signal,
        );
        const decision = answer === 'once' ? 'once' : answer === 'remember' ? 'remember' : 'deny';
        owned.audit.record({
          kind: 'consent',
          server: request.server,
          decision,
          about: request.kind,
        });
        return answer;
      },
      screen: () => ({
        sandbox: owned.sandbox(),
        root: options.root,
        home: options.userHome,
        garudaHome: options.home,
        tempDirs: options.tempDirs,
        serverHomesDir: options.serverHomesDir,
      }),
      notice: owned.notice,
      logger,
      audit: (event) => owned.audit.record(event),
    },
    launch: {
      root: options.root,
      home: options.home,
      userHome: options.userHome,
      cacheDir: options.cacheDir,
      serverHomesDir: options.serverHomesDir,
      env: options.env,
      tempDirs: options.tempDirs,
      sandboxReadPaths: options.sandboxReadPaths,
    },
    download: { downloadTimeoutMs: options.downloadTimeoutMs, track: owned.track },
    onStartStep: options.onStartStep,
    connect: {
      remote,
      clientInfo: options.clientInfo,
      startTimeoutMs: options.startTimeoutMs,
      visible: [options.root, ...options.sandboxReadPaths],
      track: owned.track,
      notice: owned.notice,
      logger,
      onServerLog: options.onServerLog,
    },
  };
}

/** What answering a server's questions needs (elicitation). @internal */
export function elicitationDeps(
  options: CheckedOptions,
  owned: ManagerOwned,
  remote: RemoteDeps,
): ElicitationDeps {
  return {
    prompter: options.prompter,
    questions: owned.questions,
    openBrowser: remote.openBrowser,
    notice: owned.notice,
    logger: options.logger,
    budget: owned.elicitBudget,
  };
}

/**
 * The start sequence, its code loaded on the first start: the connecting code (the MCP SDK's
 * client, the transports, the HTTP client) is most of the manager, and a manager that starts
 * nothing (a lazy start served from its pins, `status`) never needs it. @internal
 */
export function lazyStartSequence(parts: StartParts, elicit: ElicitationDeps): StartServer {
  let loading: Promise<StartServer> | undefined;
  return async (server, signal, onStep) => {
    loading ??= Promise.all([import('./start-server.js'), import('../elicit/elicitation.js')]).then(
      ([{ startSequence }, { elicitationAnswers }]) =>
        startSequence({
          ...parts,
          connect: { ...parts.connect, answers: (asking) => elicitationAnswers(elicit, asking) },
        }),
    );
    return (await loading)(server, signal, onStep);
  };
}

/** The strict fetch for project servers, as the manager holds it. @internal */
export type ProjectFetch = ((...args: Parameters<PinnedFetch>) => ReturnType<PinnedFetch>) & {
  /** Closes its connections (nothing when it never fetched). */
  readonly close: () => Promise<void>;
};

/**
 * The strict fetch for project servers, from the host's `remote.projectFetchOptions`: checked
 * now, made (with its HTTP client) on the first fetch, which only a project's remote server
 * does. @internal
 *
 * @throws {@link InvalidOptionsError} when pinned-fetch refuses the options.
 */
export function projectFetch(options: CheckedOptions): ProjectFetch {
  const fetchOptions = options.projectFetchOptions;
  try {
    checkPinnedFetchOptions(fetchOptions);
  } catch (error) {
    throw new InvalidOptionsError('remote.projectFetchOptions', oneLine(messageOf(error)));
  }
  let made: Promise<PinnedFetch> | undefined;
  const make = () =>
    (made ??= import('@garuda/pinned-fetch').then(({ createPinnedFetch }) =>
      createPinnedFetch(fetchOptions),
    ));
  const lazy = async (...args: Parameters<PinnedFetch>) => (await make())(...args);
  return Object.assign(lazy, {
    close: async () => {
      if (made !== undefined) await (await made).close();
    },
  });
}

/**
 * The manager's registry and remote parts, built from its options and what it owns. @internal
 */
export function buildParts(
  options: CheckedOptions,
  owned: ManagerOwned,
): { readonly remote: RemoteDeps; readonly registry: ServerRegistry } {
  const remote = remoteDeps(options, owned);
  const deps = startDeps(options, owned, remote);
  const registry = new ServerRegistry(
    {
      start: lazyStartSequence(deps, elicitationDeps(options, owned, remote)),
      refresh: toolRefresh(deps),
      refreshResources: resourceRefresh(owned.notice),
    },
    owned,
    options.logger,
    (config) => serverOrigin(config, options),
  );
  return { remote, registry };
}
