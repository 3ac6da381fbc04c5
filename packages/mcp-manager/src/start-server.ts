import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defHash, type LocalServerConfig, type ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo, SandboxPolicy } from '@garuda/mcp-transport';
import {
  checkToolPins,
  getMcpTrustEntry,
  hashTools,
  mcpTrustKey,
  rememberMcpServer,
  toolHashes,
  upgradeMcpTrustEntry,
  type McpTrustEntry,
  type ToolDiff,
  type ToolPinCheck,
  type TrustStoreLike,
} from '@garuda/mcp-trust';
import { adaptTools, quoteText } from '@garuda/mcp-tools';
import { findBlockedAddressError } from '@garuda/pinned-fetch';
import type { Tool } from '@modelcontextprotocol/client';
import { serverConsentRequest, toolsConsentRequest } from './consent-request.js';
import { networkReason } from './network-reason.js';
import { ENGINE_SOCKETS, containerLaunch, type ContainerLaunch } from './container-launch.js';
import {
  isOfflineMiss,
  packageLaunch,
  runnerCacheDir,
  runnerEnv,
  type PackageLaunch,
} from './package-launch.js';
import { hiddenTempHint } from './tmp-hint.js';
import { openRemote, type RemoteContext } from './remote-connect.js';
import { STDERR_PART, ServerConnection, type OpenOptions } from './server-connection.js';
import { messageOf, oneLine } from './text.js';
import type { ConsentAnswer, ConsentRequest, ManagerLogger, McpTool } from './types.js';

/** Tool names listed per kind of change in a notice. */
const MAX_NAMES_LISTED = 10;

/** Everything one server's start sequence needs from the manager. @internal */
export interface StartContext extends RemoteContext {
  /** The project root (absolute). */
  readonly root: string;
  /** Garuda's home folder (hidden from servers). */
  readonly home: string;
  /** The user's home folder (its credential files are hidden from servers). */
  readonly userHome: string;
  /** Where package runners get a cache of their own per server (outside `home`, which is hidden). */
  readonly cacheDir: string;
  /** The host's environment: the sandbox's allowlist comes from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tempDirs: readonly string[];
  readonly sandboxReadPaths: readonly string[];
  readonly sandbox: SandboxInfo;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly store: TrustStoreLike;
  /** Trust given with "once", per trust key: this manager's session only. */
  readonly session: Map<string, McpTrustEntry>;
  readonly startTimeoutMs: number;
  /** Cancels this start (consent questions included). */
  readonly signal: AbortSignal;
  /** Asks a consent question (one at a time); may reject when the prompter fails or on abort. */
  readonly ask: (request: ConsentRequest, signal: AbortSignal) => Promise<ConsentAnswer>;
  /** Keeps a server's stop in progress, for the manager's `close()` to wait for. */
  readonly track: (stopping: Promise<void>) => void;
  /** Tells the user something (the text is cleaned by the receiver). */
  readonly notice: (text: string) => void;
  readonly logger?: ManagerLogger | undefined;
}

/** How one server's start ended. @internal */
export type StartOutcome =
  | {
      readonly state: 'connected';
      readonly connection: ServerConnection;
      readonly tools: readonly McpTool[];
      /** A remote server that uses OAuth tokens. */
      readonly signedIn: boolean;
    }
  | { readonly state: 'disabled' | 'denied' | 'failed' | 'stopped'; readonly detail: string };

const CANCELLED = { state: 'stopped', detail: 'its start was cancelled' } as const;

/** Where the trust for a server comes from in this start. */
type TrustSource = 'store' | 'session';

function nameList(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_LISTED).map((name) => oneLine(name, 60));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/**
 * A one-line summary of a tool change, for the notice about a user's server. @internal
 *
 * @param diff - From `checkToolPins`.
 * @param detailed - False when the old pin could not say which tools changed.
 * @returns E.g. `added: upload; removed: fail; changed: echo (description, schema)`.
 */
export function changeSummary(diff: ToolDiff, detailed: boolean): string {
  if (!detailed) return 'its tool list changed (the old record cannot say which tools)';
  const parts: string[] = [];
  if (diff.added.length > 0) parts.push(`added: ${nameList(diff.added)}`);
  if (diff.removed.length > 0) parts.push(`removed: ${nameList(diff.removed)}`);
  if (diff.changed.length > 0) {
    const changed = diff.changed.map((change) => {
      const what = [change.description ? 'description' : '', change.schema ? 'schema' : '']
        .filter(Boolean)
        .join(', ');
      return `${change.tool} (${what})`;
    });
    parts.push(`changed: ${nameList(changed)}`);
  }
  return parts.join('; ');
}

/**
 * Resolves a configured path: `~` and `~/…` against the user's home folder, a relative path
 * against the project root. @internal
 */
export function configuredPath(
  value: string,
  ctx: Pick<StartContext, 'root' | 'userHome'>,
): string {
  if (value === '~') return ctx.userHome;
  if (value.startsWith('~/')) return path.join(ctx.userHome, value.slice(2));
  return path.resolve(ctx.root, value);
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

/** A sandboxed package runner's own cache: its folder and the variables that point at it. */
interface RunnerCacheUse {
  readonly launch: PackageLaunch;
  readonly dir: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The cache of a server started through a package runner, in the sandbox only (without one the
 * runner uses the user's own cache, as it would anywhere). The folder is created here, 0700.
 *
 * @throws When the folder cannot be created.
 */
function runnerCache(
  server: LocalServerConfig,
  key: string,
  ctx: StartContext,
): RunnerCacheUse | undefined {
  if (ctx.sandbox.kind === 'none') return undefined;
  const launch = packageLaunch([server.def.command, ...server.def.args]);
  if (launch === undefined) return undefined;
  const dir = runnerCacheDir(ctx.cacheDir, launch.cache, server.name, key);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { launch, dir, env: runnerEnv(launch, dir, !server.def.network) };
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
    return {
      note:
        `${runner} may still have been downloading ${what} into the server's own cache, ` +
        `where what it fetched stays: try again, or raise the start time limit`,
    };
  }
  return undefined;
}

/**
 * The engine's socket: for a user's server its own `DOCKER_HOST` (`unix://…`), else the engine's
 * usual one. A project's file cannot pick a socket: any hidden socket would do for it.
 */
function engineSocket(container: ContainerLaunch, server: LocalServerConfig): string {
  const variable = container.engine === 'docker' ? 'DOCKER_HOST' : 'CONTAINER_HOST';
  const host = server.source === 'user' ? server.env[variable]?.value : undefined;
  if (host?.startsWith('unix://') === true && path.isAbsolute(host.slice(7))) return host.slice(7);
  return ENGINE_SOCKETS[container.engine][0] as string;
}

function sandboxPolicy(
  server: LocalServerConfig,
  ctx: StartContext,
  cache: RunnerCacheUse | undefined,
  container: ContainerLaunch | undefined,
): SandboxPolicy {
  // The runner's variables first: the server's own env, which the user wrote, wins.
  const env: Record<string, string> = { ...cache?.env };
  for (const [name, resolved] of Object.entries(server.env)) env[name] = resolved.value;
  return {
    root: ctx.root,
    writePaths: [
      ...server.def.writePaths.map((p) => configuredPath(p, ctx)),
      ...(cache === undefined ? [] : [cache.dir]),
    ],
    network: server.def.network,
    env,
    baseEnv: ctx.env,
    home: ctx.userHome,
    garudaHome: ctx.home,
    tempDirs: ctx.tempDirs,
    // The server's own first, so a refused one is named by its place in the config.
    readPaths: [
      ...server.def.readPaths.map((p) => configuredPath(p, ctx)),
      ...ctx.sandboxReadPaths,
    ],
    ...(server.def.cwd === undefined ? {} : { cwd: configuredPath(server.def.cwd, ctx) }),
    // Only the engine's own command, whose options containerLaunch checked, reaches its socket.
    ...(container === undefined ? {} : { engineSocket: engineSocket(container, server) }),
  };
}

// The system temp folders count as temp folders on the consent screen: a write path there is
// no reason for a warning. (The sandbox gives each server its own /tmp on Linux anyway.)
const SYSTEM_TEMP_DIRS = process.platform === 'win32' ? [] : ['/tmp', '/var/tmp'];

function consentContext(ctx: StartContext) {
  return {
    sandbox: ctx.sandbox,
    root: ctx.root,
    home: ctx.userHome,
    garudaHome: ctx.home,
    tempDirs: [...SYSTEM_TEMP_DIRS, ...ctx.tempDirs],
  };
}

function sessionEntry(def: string, tools: readonly Tool[]): McpTrustEntry {
  return {
    def,
    tools: hashTools(tools),
    toolHashes: toolHashes(tools),
    at: new Date().toISOString(),
  };
}

/** Asks, turning a failing prompter into a reason and an abort into `undefined`. */
async function ask(
  request: ConsentRequest,
  ctx: StartContext,
): Promise<{ answer: ConsentAnswer } | { failed: string } | undefined> {
  try {
    const answer = await ctx.ask(request, ctx.signal);
    // Anything but the three answers is a no: a prompter bug must never start a server.
    return { answer: answer === 'once' || answer === 'remember' ? answer : 'deny' };
  } catch (error) {
    if (ctx.signal.aborted) return undefined;
    return { failed: `the consent question failed: ${messageOf(error)}` };
  }
}

async function remember(
  ctx: StartContext,
  key: string,
  server: string,
  trusted: { def: string; tools?: readonly Tool[] },
): Promise<McpTrustEntry | undefined> {
  try {
    return await rememberMcpServer(ctx.store, key, trusted);
  } catch (error) {
    ctx.notice(
      `Could not save your trust in MCP server "${server}" (${oneLine(messageOf(error))}). It is trusted for this session only, and you will be asked again next time.`,
    );
    return undefined;
  }
}

/**
 * One server's whole start sequence (seed 000's flowchart): disabled → consent for an untrusted
 * project server → sandboxed start, connect and list within the time limit → the pin check (a
 * changed user server: a notice; a changed project server: consent) → adapted tools.
 * Never throws. @internal
 *
 * @param server - The server from `loadConfig`.
 * @param ctx - The manager's side.
 * @returns The outcome; `connected` carries the running connection.
 */
export async function startServer(server: ServerConfig, ctx: StartContext): Promise<StartOutcome> {
  if (!server.def.enabled)
    return { state: 'disabled', detail: 'it is disabled in the configuration' };
  const def = defHash(server.def);
  const key = mcpTrustKey(
    server.source === 'user' ? { kind: 'user' } : { kind: 'project', root: ctx.root },
    server.name,
  );

  let stored: McpTrustEntry | undefined;
  let storeUsable = true;
  try {
    stored = await getMcpTrustEntry(ctx.store, key);
  } catch (error) {
    if (server.source === 'project') {
      return { state: 'failed', detail: `the trust store could not be read: ${messageOf(error)}` };
    }
    // A user's own server needs no consent: it runs, only its tools go unpinned this time.
    storeUsable = false;
    ctx.notice(
      `Could not read the trust store (${oneLine(messageOf(error))}): the tools of MCP server "${server.name}" are not checked against their pins this time.`,
    );
  }

  let trust: TrustSource = 'store';
  if (server.source === 'project') {
    // An answer given in this session wins over the store: "once" for changed tools must not
    // be asked again on a reload, though the store still holds the old pins.
    if (ctx.session.get(key)?.def === def) trust = 'session';
    else if (stored?.def === def) trust = 'store';
    else {
      const asked = await ask(serverConsentRequest(server, consentContext(ctx)), ctx);
      if (asked === undefined) return CANCELLED;
      if ('failed' in asked) return { state: 'failed', detail: asked.failed };
      if (asked.answer === 'deny') return { state: 'denied', detail: 'you did not allow it' };
      if (asked.answer === 'remember') stored = await remember(ctx, key, server.name, { def });
      if (asked.answer === 'once' || stored === undefined) {
        trust = 'session';
        ctx.session.set(key, { def, at: new Date().toISOString() });
      }
    }
  }
  if (ctx.signal.aborted) return CANCELLED;

  const common: Omit<OpenOptions, 'launch'> = {
    server: server.name,
    clientInfo: ctx.clientInfo,
    timeoutMs: ctx.startTimeoutMs,
    signal: ctx.signal,
    onSkip: (notice) => ctx.notice(notice),
    track: ctx.track,
    logger: ctx.logger,
  };
  let cache: RunnerCacheUse | undefined;
  let container: ContainerLaunch | undefined;
  let argv: readonly string[] = [];
  if (server.kind === 'local') {
    argv = [server.def.command, ...server.def.args];
    // A container is isolated by its engine, which carries out its options as root: they are
    // held to what the sandbox would give this server, and no network means `--network=none`.
    container = containerLaunch(argv, {
      network: server.def.network,
      root: ctx.root,
      writable: [ctx.root, ...server.def.writePaths.map((p) => configuredPath(p, ctx))],
      userHome: ctx.userHome,
      garudaHome: ctx.home,
    });
    if (container !== undefined && container.problems.length > 0) {
      return {
        state: 'failed',
        detail: `it was not started, as "${container.engine} run" would give the container more than the sandbox gives a server: ${container.problems.join('; ')}`,
      };
    }
    if (container !== undefined) argv = container.argv;
    try {
      cache = runnerCache(server, key, ctx);
    } catch (error) {
      return {
        state: 'failed',
        detail: `its package runner's cache folder could not be created: ${messageOf(error)}`,
      };
    }
  }
  const opened =
    server.kind === 'remote'
      ? await openRemote(server, ctx, (transport, reauthorize) =>
          ServerConnection.open({ ...common, launch: { kind: 'remote', transport, reauthorize } }),
        )
      : {
          ...(await ServerConnection.open({
            ...common,
            launch: {
              kind: 'local',
              argv,
              policy: sandboxPolicy(server, ctx, cache, container),
              sandbox: ctx.sandbox,
            },
          })),
          signedIn: false,
        };
  if (!opened.ok) {
    if (opened.cancelled) return CANCELLED;
    // A refused address, or a connection that failed, says why in words: the SDK's own
    // message only says "fetch failed".
    const blocked = server.kind === 'remote' ? findBlockedAddressError(opened.error) : undefined;
    const unreachable = server.kind === 'remote' ? networkReason(opened.error) : undefined;
    const runner = server.kind === 'local' ? runnerFailure(server, cache, opened) : undefined;
    if (runner !== undefined && 'detail' in runner)
      return { state: 'failed', detail: runner.detail };
    const hint =
      server.kind === 'local' && ctx.sandbox.kind !== 'none'
        ? (runner?.note ?? hiddenTempHint(server, [ctx.root, ...ctx.sandboxReadPaths]))
        : undefined;
    return {
      state: 'failed',
      detail: blocked
        ? `it could not connect: ${blocked.message}`
        : unreachable !== undefined && server.kind === 'remote'
          ? `it could not connect to ${oneLine(server.url.origin, 200)}: ${unreachable}`
          : hint === undefined
            ? opened.reason
            : withNote(opened.reason, hint),
    };
  }
  const { connection } = opened;
  const raw = opened.tools;

  // Pins are only compared with a record of this very definition: a user who edits their own
  // server's command gets it pinned afresh, not a warning about their own change.
  const pinned =
    trust === 'session' ? ctx.session.get(key) : stored?.def === def ? stored : undefined;
  const check: ToolPinCheck = storeUsable ? checkToolPins(pinned, raw) : { state: 'unchanged' };
  const savePins = async () => {
    if (trust === 'session') ctx.session.set(key, sessionEntry(def, raw));
    else await remember(ctx, key, server.name, { def, tools: raw });
  };

  if (check.state === 'new') {
    await savePins();
  } else if (check.state === 'unchanged') {
    if (check.entry !== undefined && trust === 'store') {
      await upgradeMcpTrustEntry(ctx.store, key, check.entry).catch((error: unknown) =>
        ctx.logger?.warn?.(`could not add tool pins for "${server.name}": ${messageOf(error)}`),
      );
    }
  } else if (server.source === 'user') {
    ctx.notice(
      `MCP server "${server.name}" changed its tools since they were last used (${changeSummary(check.diff, check.detailed)}). Its new tools are in use; check them if you did not expect this.`,
    );
    await savePins();
  } else {
    const asked = await ask(
      toolsConsentRequest(server, consentContext(ctx), {
        diff: check.diff,
        tools: raw,
        detailed: check.detailed,
      }),
      ctx,
    );
    if (asked === undefined || 'failed' in asked || asked.answer === 'deny') {
      const detail =
        asked === undefined
          ? CANCELLED.detail
          : 'failed' in asked
            ? asked.failed
            : 'you did not allow its changed tools';
      ctx.track(connection.close(detail));
      if (asked === undefined) return CANCELLED;
      return { state: 'failed' in asked ? 'failed' : 'denied', detail };
    }
    if (asked.answer === 'remember') {
      const saved = await remember(ctx, key, server.name, { def, tools: raw });
      if (saved !== undefined) ctx.session.delete(key);
      else ctx.session.set(key, sessionEntry(def, raw));
    } else {
      ctx.session.set(key, sessionEntry(def, raw));
    }
  }

  const adapted = adaptTools(server.name, raw);
  for (const notice of adapted.notices) ctx.notice(notice);
  return { state: 'connected', connection, tools: adapted.tools, signedIn: opened.signedIn };
}
