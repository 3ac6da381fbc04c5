import { APPROVAL_MODES, type ApprovalMode } from './calls/risk-tier.js';
import path from 'node:path';
import { hiddenPathOf, type SandboxInfo } from '@garuda/mcp-transport';
import { TOOL_EXPOSURES, type ServerEntry, type ToolExposure } from '@garuda/mcp-config';
import type { TrustStoreLike } from '@garuda/mcp-trust';
import type { AuditSink } from '@garuda/mcp-audit';
import type { PinnedFetchOptions } from '@garuda/pinned-fetch';
import { TOKEN_STORAGES, type TokenStorage } from '@garuda/mcp-oauth';
import { DEFAULT_GIVE_WAY_MS } from './common/abort.js';
import {
  DEFAULT_ELICIT_PER_CALL,
  DEFAULT_ELICIT_PER_MINUTE,
  type ElicitLimits,
} from './elicit/elicit-budget.js';
import { InvalidOptionsError } from './errors.js';
import { isWithin } from './launch/paths.js';
import { checkOptionsShape } from './options-shape.js';
import type { ManagerLogger, Prompter, ServerChange, ServerLogEntry } from './types.js';
import type { StartStepEvent } from './launch/download-phase.js';
import type { ToolRules } from './calls/tool-rules.js';
import { isRecord, quotedModes } from '@garuda/internal';

/** When servers start: all in `start()`, or pinned ones on their first use. */
export type StartMode = 'eager' | 'lazy';

/** The default limit for one server's start + connect + list tools: 30 s. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** The default limit of a package runner's download step (5 minutes). */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 300_000;
const MAX_TIMEOUT_MS = 600_000;

/**
 * Permission rules and the approval mode: which calls run without asking, which always ask and
 * which never run. Part of {@link McpManagerOptions}.
 */
export interface RulesOptions {
  /**
   * Rules for calls that run without asking: `mcp.<server>.<tool>`, `*` for any run of
   * characters (`mcp.docs.*`, `mcp.*.read_*`, `mcp.*`). A destructive server's calls still ask.
   * Default: none.
   */
  readonly allow?: readonly string[];
  /**
   * Rules for calls that always ask, whatever the approval mode, an allow rule or a remembered
   * grant says. Default: none.
   */
  readonly ask?: readonly string[];
  /** Rules for calls that never run (refused without asking). Default: none. */
  readonly deny?: readonly string[];
  /**
   * Which calls run without asking, by the risk tier of their server (from the `capabilities`
   * the user declared): `ask` (every call asks; the default), `balanced` (low-tier calls run),
   * `trusted` (low and high). A destructive server's calls always ask.
   */
  readonly approvalMode?: ApprovalMode;
}

/**
 * What the manager reads and keeps: config files, consent and pins, sign-in tokens, the audit
 * log. Part of {@link McpManagerOptions}.
 */
export interface StorageOptions {
  /** Where consent and tool pins are kept. Default: a `TrustStore` on `<home>/trust.json`. */
  readonly trustStore?: TrustStoreLike;
  /**
   * Where the tokens of new sign-ins are kept (`TokenStorage` of `@garuda/mcp-oauth`): `file`
   * (`<home>/mcp-auth.json`, mode 0600; the default), `keyring` (the OS keychain, reached
   * through `env`; the file keeps a pointer), `session` (this manager's memory only) or `auto`
   * (the keychain when it answers, else the file). A sign-in already stored stays where it is.
   * `tokenStorage()` says what is used and why.
   */
  readonly tokenStorage?: TokenStorage;
  /**
   * The audit log, `<home>/audit.jsonl`: every consent, sign-in and sign-out, approval and call
   * (hashes of arguments and results, never their text), hash-chained. `false` turns it off
   * (loudly: a host should say so); `{ includeText: true }` also keeps argument and result text;
   * `{ sink }` hands every event to the host's own writer instead (an `AuditLog` of
   * `@garuda/mcp-audit` on another file, a collector), which says itself whether it keeps text.
   */
  readonly auditLog?: false | { readonly includeText?: boolean } | { readonly sink: AuditSink };
  /** The user's config file. Default `<home>/mcp.json`. */
  readonly userConfigFile?: string;
  /** The project's config file. Default `<root>/.garuda/mcp.json`. */
  readonly projectConfigFile?: string;
  /**
   * Other clients' project files to read in place as the project's servers, besides
   * `<root>/.garuda/mcp.json`: `'claude'` reads Claude Code's `<root>/.mcp.json`. Its servers
   * are project servers like any other (consent, pins, the pinned fetch), come after the
   * project's own, and cannot replace a server of the user's or the project's own file.
   * Default none.
   */
  readonly importConfigs?: readonly 'claude'[];
}

/**
 * How servers and their tools are offered: the tools' exposure, when servers start, and which
 * are on for this manager. Part of {@link McpManagerOptions}.
 */
export interface ToolsOptions {
  /**
   * How the tools of a server that sets no `exposure` reach the model: `direct` (all in
   * `tools()`; the default), `search` (its `directTools`, plus `mcp_tool_search`, which finds the
   * others and adds them for the rest of the session), `proxy` (the others are called through
   * `mcp_tool_call`; opt-in only) or `auto` (search when more than `LIMITS.autoSearchMinTools` tools
   * are offered in all, else direct; never proxy).
   */
  readonly exposure?: ToolExposure;
  /**
   * When servers start. `eager` (the default): `start()` starts every server, so a server that
   * fails or whose tools changed is known, and asked about, while the user is at the screen.
   * `lazy`: a server whose definition is trusted and whose tools are pinned offers its tools at
   * once from `<home>/mcp-tool-cache.json` (state `ready`) and starts on its first use, the pin
   * check running before any request goes out; every other server starts as with `eager`.
   */
  readonly startMode?: StartMode;
  /**
   * Servers turned on (`true`) or off (`false`) for this manager only, over `"enabled"` in their
   * config file (a host's "for this session" switch, e.g. `garuda-mcp disable <name> --session`).
   * Nothing is written; names that no file has are ignored. Default none.
   */
  readonly enabledForSession?: Readonly<Record<string, boolean>>;
}

/**
 * The OS sandbox local servers run in, and the folders it gives them. Part of
 * {@link McpManagerOptions}.
 */
export interface SandboxOptions {
  /**
   * The OS sandbox to use, as `detectSandbox` reports it (to inject one, e.g. in tests). Default:
   * `detectSandbox({ searchPath: env.PATH })`, once, in `start()`.
   */
  readonly info?: SandboxInfo;
  /**
   * Folders under `/tmp` (or another temp folder) that sandboxed servers must still see,
   * read-only — the sandbox gives every server an empty private `/tmp`, so a server installed
   * there would not start otherwise. Each must exist, and none may be at or inside a path the
   * sandbox hides (a credential path such as `~/.kube`, or `home`): that is for one server's own
   * `readPaths`, which its consent names. Default none.
   */
  readonly readPaths?: readonly string[];
  /** More temp folders each server gets private and writable (each must exist). Default none. */
  readonly tempDirs?: readonly string[];
  /**
   * Where a server started through a package runner (`npx`, `pnpm dlx`, `bunx`, `uvx`,
   * `pipx run`…) gets a download cache of its own, `<cacheDir>/<runner>/<server>-<hash>`, the
   * only place under the home folder it may write (the user's own caches stay read-only). Not
   * inside `home`, which servers cannot see. Created when needed. Default
   * `<userHome>/.cache/garuda-mcp`.
   */
  readonly cacheDir?: string;
  /**
   * Where each local server gets a home of its own: a private (0700), persistent, writable
   * folder with `cache`, `data`, `config` and `state` inside, kept across restarts. A user's
   * server's home is `<serverHomesDir>/<name>`, a project's `<serverHomesDir>/<name>.<hash>`
   * (12 hex digits of the SHA-256 of the project root: one per project and server). In the
   * sandbox it is the one writable place under the home folder besides the runner's cache, and
   * `XDG_CACHE_HOME`, `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and `XDG_STATE_HOME` point into it;
   * `${GARUDA_SERVER_HOME}` in a server's env and args names it. Not inside `home`, which
   * servers cannot see. Created when a server starts. Default
   * `<userHome>/.local/share/garuda-mcp/servers`.
   */
  readonly serverHomesDir?: string;
}

/** Time limits of a server's start, in ms. Part of {@link McpManagerOptions}. */
export interface TimeoutsOptions {
  /**
   * Limit for one server's start + connect + list tools. 1 … 600 000. Default 30 000. A
   * server's own `"startTimeoutMs"` in its config file wins. For a server started through npm's
   * package runner (`npx`, `npm exec`) it starts after the download step, which has its own
   * limit.
   */
  readonly startMs?: number;
  /**
   * Limit for the download step of a server started through npm's package runner (`npx`,
   * `npm exec`): before the server starts, the runner downloads its packages alone, in the
   * server's sandbox and its own cache. 1 … 600 000. Default 300 000 (5 minutes).
   */
  readonly downloadMs?: number;
}

/** How remote servers are reached and signed in to. Part of {@link McpManagerOptions}. */
export interface RemoteOptions {
  /**
   * Options of the strict fetch that carries a project's remote servers' MCP and OAuth traffic
   * alike: `createPinnedFetch(projectFetchOptions)` of `@garuda/pinned-fetch`, which reaches
   * public addresses only. The fetch itself cannot be replaced; these tune it: a `lookup` (tests
   * resolve `.test` names with it), `tls.ca` (a private CA), time limits, and — loud, for tests
   * on loopback only — `allowLoopback`. A user's own servers always use the global fetch.
   * Default `{}`.
   */
  readonly projectFetchOptions?: PinnedFetchOptions;
  /**
   * The https URL of this host's Client ID Metadata Document: used as the OAuth client id by an
   * authorization server that advertises `client_id_metadata_document_supported`, so no
   * registration is needed. A server's `oauth.clientMetadataUrl` overrides it, and its
   * `oauth.clientId` wins over both. Default none (dynamic registration).
   */
  readonly clientMetadataUrl?: string;
}

/**
 * Options of {@link McpManager}. What every host gives sits at the top (where, who, the
 * prompter, servers from code, the event callbacks); the rest comes in records a host sets as
 * one: `rules`, `tools`, `storage`, `sandbox`, `timeouts`, `remote`, `elicitation`. Paths may be
 * relative (they are resolved against the current folder once, in the constructor). The manager
 * reads no environment variable and no home folder by itself: the host passes `env`, `home`,
 * `userHome` and `root`. A key the manager does not know (a record's, or one of the flat keys
 * these records replaced) throws {@link InvalidOptionsError}, which names its new place.
 *
 * @example
 * ```ts
 * const options: McpManagerOptions = {
 *   root: process.cwd(),
 *   home: path.join(os.homedir(), '.garuda'),
 *   userHome: os.homedir(),
 *   env: process.env,
 *   clientInfo: { name: 'my-agent', version: '1.0.0' },
 *   prompter,
 *   rules: { allow: ['mcp.docs.*'], approvalMode: 'balanced' },
 *   tools: { exposure: 'auto' },
 * };
 * ```
 */
export interface McpManagerOptions {
  /** The project's root folder: its `.garuda/mcp.json` is read, and servers may write in it. */
  readonly root: string;
  /** Garuda's own folder (e.g. `~/.garuda`): the user's `mcp.json` and `trust.json`; hidden from servers. */
  readonly home: string;
  /** The user's home folder: its credential files (`~/.ssh`, `~/.aws`…) are hidden from servers. */
  readonly userHome: string;
  /**
   * The host's environment (e.g. `process.env`): `${NAME}` in a server's `env` expands from it,
   * the sandbox takes its allowlisted variables (PATH, HOME, LANG…) from it, and `PATH` is where
   * bubblewrap is looked for. Nothing else of it reaches a server.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Sent to every server as the client's `{ name, version }`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The host's user interface: consent, notices, call approval. */
  readonly prompter: Prompter;
  /** Where diagnostics go (the manager never prints). */
  readonly logger?: ManagerLogger;
  /**
   * Servers from code, so an agent needs no `mcp.json` first: name → server, as a config file's
   * `"servers"` holds them (e.g. `{ files: { command: 'npx', args: ['-y', 'pkg@1.2.3'] } }` or
   * `{ docs: { url: 'https://…' } }`). They are the host's own choice, so they count as the
   * user's servers (no consent is asked; every other guarantee holds: sandbox, pins, approval,
   * cleaning), are checked like a file's and come before the user's file, whose server of the
   * same name is then ignored (a problem told through `prompter.notice`). Default none.
   */
  readonly servers?: Readonly<Record<string, ServerEntry>>;
  /**
   * Opens a remote server's sign-in page. Default: `openBrowser` from `@garuda/mcp-oauth`
   * (https only; `http://localhost` only for a user's own server). The URL is also told through
   * `prompter.notice`, so a headless host may pass a function that does nothing.
   */
  readonly openBrowser?: (url: string, options: { readonly allowHttpLoopback: boolean }) => unknown;
  /**
   * Told each step a server's start begins: `downloading` (with the packages; npm's package
   * runner only; `checking: true` when they are cached and the runner only checks for a newer
   * version; not told at all on a warm start of exact versions) and `starting` (the server's
   * process starts, connects and lists its tools), so a host can show "downloading <package>…".
   * It must not throw. Default none.
   */
  readonly onStartStep?: (event: StartStepEvent) => void;
  /**
   * Called once for every change of what a server offers after it connected (its tools, prompts
   * or resources list, a subscribed resource's contents), so an agent can rebuild its prompt;
   * the lists stay byte-stable between changes. It must not throw (a throw is logged). Default
   * none.
   */
  readonly onChange?: (change: ServerChange) => void;
  /**
   * Receives the log messages servers send (`notifications/message`), cleaned to one line and at
   * most 10 a second per server (the rest are counted and told as one entry). It must not throw
   * (a throw is logged). Default: they go to `logger.debug`.
   */
  readonly onServerLog?: (entry: ServerLogEntry) => void;
  /** Permission rules and the approval mode. Default: no rules, every call asks. */
  readonly rules?: RulesOptions;
  /** The tools' exposure, when servers start, servers on or off for this manager. */
  readonly tools?: ToolsOptions;
  /** Config files, consent and pins, sign-in tokens, the audit log. */
  readonly storage?: StorageOptions;
  /** The OS sandbox and the folders it gives servers. */
  readonly sandbox?: SandboxOptions;
  /** Time limits of a server's start and of a package runner's download step. */
  readonly timeouts?: TimeoutsOptions;
  /** The strict fetch of a project's remote servers and this host's OAuth client id. */
  readonly remote?: RemoteOptions;
  /**
   * Bounds on what servers ask the user (elicitation: forms and pages). `perCall` (default
   * `DEFAULT_ELICIT_PER_CALL`, 3): questions during one request of this client; `perMinute`
   * (default `DEFAULT_ELICIT_PER_MINUTE`, 10): questions of one server in any minute. Past either,
   * and outside any request, a question is declined at once and the user told once. `giveWayMs`
   * (default `DEFAULT_GIVE_WAY_MS`, 60 000): how long an open question may keep a consent,
   * sign-in or approval question waiting behind it before it is closed (the server gets
   * `cancel`).
   */
  readonly elicitation?: {
    readonly perCall?: number;
    readonly perMinute?: number;
    readonly giveWayMs?: number;
  };
}

/** The options after checking, with paths resolved (the required ones keep their types). @internal */
export interface CheckedOptions extends Pick<
  McpManagerOptions,
  'root' | 'home' | 'userHome' | 'env' | 'clientInfo' | 'prompter'
> {
  readonly logger: ManagerLogger | undefined;
  /** The permission rules, deny > ask > allow. */
  readonly rules: ToolRules;
  readonly approvalMode: ApprovalMode;
  readonly exposure: ToolExposure;
  readonly auditLog: false | { readonly includeText: boolean } | { readonly sink: AuditSink };
  readonly elicitation: ElicitLimits & { readonly giveWayMs: number };
  readonly trustStore: TrustStoreLike | undefined;
  readonly servers: Readonly<Record<string, ServerEntry>>;
  readonly userConfigFile: string | undefined;
  readonly projectConfigFile: string | undefined;
  readonly sandbox: SandboxInfo | undefined;
  readonly startTimeoutMs: number;
  readonly downloadTimeoutMs: number;
  readonly onStartStep: ((event: StartStepEvent) => void) | undefined;
  readonly startMode: StartMode;
  readonly tempDirs: readonly string[];
  readonly sandboxReadPaths: readonly string[];
  readonly cacheDir: string;
  readonly serverHomesDir: string;
  readonly enabledForSession: ReadonlyMap<string, boolean>;
  readonly tokenStorage: TokenStorage;
  readonly projectFetchOptions: PinnedFetchOptions;
  readonly openBrowser:
    ((url: string, options: { readonly allowHttpLoopback: boolean }) => unknown) | undefined;
  readonly clientMetadataUrl: string | undefined;
  readonly importConfigs: readonly 'claude'[];
  readonly onChange: ((change: ServerChange) => void) | undefined;
  readonly onServerLog: ((entry: ServerLogEntry) => void) | undefined;
}

function isMetadataDocumentUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (
      url.protocol === 'https:' &&
      url.pathname !== '/' &&
      url.username === '' &&
      url.password === '' &&
      url.hash === '' &&
      !/[\s\0]/.test(value)
    );
  } catch {
    return false;
  }
}

function folder(option: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.includes('\0')) {
    throw new InvalidOptionsError(option, 'must be a folder path (a non-empty string without NUL)');
  }
  return path.resolve(value);
}

/**
 * A read path for every server: never one that shows what the sandbox hides (a credential path,
 * Garuda's own folder), which only a server's own `readPaths` may do (named on its consent
 * screen).
 */
function sharedReadPath(
  option: string,
  value: unknown,
  homes: { readonly home: string; readonly userHome: string },
): string {
  const dir = folder(option, value);
  const hidden = hiddenPathOf(dir, { home: homes.userHome, garudaHome: homes.home });
  if (hidden !== undefined) {
    throw new InvalidOptionsError(
      option,
      `is at or inside ${JSON.stringify(hidden.path)}, which the sandbox hides from servers: ` +
        "a read path for every server must not show it (a credential path may be one server's own readPaths)",
    );
  }
  return dir;
}

function optionalFile(option: string, value: unknown): string | undefined {
  return value === undefined ? undefined : folder(option, value);
}

/** The `storage.auditLog` option: off, the default file (with or without text), or the host's sink. */
function checkAuditLog(value: StorageOptions['auditLog']): CheckedOptions['auditLog'] {
  const audit = (value ?? {}) as unknown;
  if (audit === false) return false;
  const shape = 'must be false, { includeText?: boolean } or { sink: AuditSink }';
  if (typeof audit !== 'object' || audit === null)
    throw new InvalidOptionsError('storage.auditLog', shape);
  if (!('sink' in audit) || audit.sink === undefined) {
    return { includeText: 'includeText' in audit && audit.includeText === true };
  }
  const sink = audit.sink as Partial<AuditSink> | null;
  // The sink says itself whether it keeps text: both at once would leave one of them unheard.
  if (
    'includeText' in audit ||
    typeof sink !== 'object' ||
    sink === null ||
    typeof sink.append !== 'function' ||
    typeof sink.flush !== 'function'
  ) {
    throw new InvalidOptionsError('storage.auditLog', shape);
  }
  return { sink: sink as AuditSink };
}

/** The `elicitation` option with its defaults; a bound must be a whole number in range. */
function checkElicitation(value: unknown): CheckedOptions['elicitation'] {
  const given = value ?? {};
  if (!isRecord(given)) {
    throw new InvalidOptionsError(
      'elicitation',
      'must be { perCall?, perMinute?, giveWayMs? } with whole numbers',
    );
  }
  const whole = (name: string, fallback: number, max: number): number => {
    const n = given[name] ?? fallback;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
      throw new InvalidOptionsError(
        `elicitation.${name}`,
        `must be a whole number from 0 to ${String(max)}`,
      );
    }
    return n;
  };
  return {
    perCall: whole('perCall', DEFAULT_ELICIT_PER_CALL, 1000),
    perMinute: whole('perMinute', DEFAULT_ELICIT_PER_MINUTE, 1000),
    giveWayMs: whole('giveWayMs', DEFAULT_GIVE_WAY_MS, MAX_TIMEOUT_MS),
  };
}

/**
 * Checks the constructor's options. @internal
 *
 * @param options - As the host passed them.
 * @returns The checked options.
 * @throws {@link InvalidOptionsError} for the first unusable option.
 */
export function checkOptions(options: McpManagerOptions): CheckedOptions {
  if (!isRecord(options)) {
    throw new InvalidOptionsError(
      'options',
      'pass { root, home, userHome, env, clientInfo, prompter }',
    );
  }
  checkOptionsShape(options);
  const { prompter, clientInfo, env, logger } = options;
  const rulesOptions = options.rules ?? {};
  const tools = options.tools ?? {};
  const storage = options.storage ?? {};
  const sandbox = options.sandbox ?? {};
  const timeouts = options.timeouts ?? {};
  const remote = options.remote ?? {};
  const { trustStore } = storage;
  if (!isRecord(env)) {
    throw new InvalidOptionsError('env', "must be the host's environment, e.g. process.env");
  }
  if (
    !isRecord(clientInfo) ||
    typeof clientInfo.name !== 'string' ||
    clientInfo.name === '' ||
    typeof clientInfo.version !== 'string' ||
    clientInfo.version === ''
  ) {
    throw new InvalidOptionsError('clientInfo', 'must be { name, version } with non-empty strings');
  }
  if (
    !isRecord(prompter) ||
    typeof prompter.consent !== 'function' ||
    typeof prompter.notice !== 'function' ||
    typeof prompter.approveCall !== 'function'
  ) {
    throw new InvalidOptionsError(
      'prompter',
      'must have consent(request, signal), notice(text) and approveCall(preview, signal)',
    );
  }
  if (prompter.concurrent !== undefined && typeof prompter.concurrent !== 'boolean') {
    throw new InvalidOptionsError('prompter', 'concurrent must be true or false when given');
  }
  if (logger !== undefined && !isRecord(logger)) {
    throw new InvalidOptionsError('logger', 'must be an object with debug/info/warn/error');
  }
  if (
    trustStore !== undefined &&
    (!isRecord(trustStore) ||
      typeof trustStore.get !== 'function' ||
      typeof trustStore.update !== 'function' ||
      typeof trustStore.delete !== 'function')
  ) {
    throw new InvalidOptionsError(
      'storage.trustStore',
      'must have get, update and delete (a TrustStoreLike)',
    );
  }
  const sandboxInfo = sandbox.info;
  if (
    sandboxInfo !== undefined &&
    (!isRecord(sandboxInfo) || !['bwrap', 'seatbelt', 'none'].includes(sandboxInfo.kind as string))
  ) {
    throw new InvalidOptionsError('sandbox.info', 'must be what detectSandbox() returns');
  }
  const projectFetchOptions = remote.projectFetchOptions ?? {};
  if (!isRecord(projectFetchOptions)) {
    throw new InvalidOptionsError(
      'remote.projectFetchOptions',
      'must be the options of createPinnedFetch (lookup, tls, connectTimeoutMs…)',
    );
  }
  if (options.openBrowser !== undefined && typeof options.openBrowser !== 'function') {
    throw new InvalidOptionsError('openBrowser', 'must be a function (url, options)');
  }
  if (remote.clientMetadataUrl !== undefined && !isMetadataDocumentUrl(remote.clientMetadataUrl)) {
    throw new InvalidOptionsError(
      'remote.clientMetadataUrl',
      'must be the https URL of a Client ID Metadata Document, with a path and no #fragment',
    );
  }
  const importConfigs = storage.importConfigs ?? [];
  if (!Array.isArray(importConfigs) || importConfigs.some((client) => client !== 'claude')) {
    throw new InvalidOptionsError(
      'storage.importConfigs',
      "must be a list of the other clients whose project file is read in place: ['claude']",
    );
  }
  if (options.onChange !== undefined && typeof options.onChange !== 'function') {
    throw new InvalidOptionsError('onChange', 'must be a function (change)');
  }
  if (options.onServerLog !== undefined && typeof options.onServerLog !== 'function') {
    throw new InvalidOptionsError('onServerLog', 'must be a function (entry)');
  }
  const ruleList = (name: 'allow' | 'ask' | 'deny'): string[] => {
    const list = rulesOptions[name] ?? [];
    if (!Array.isArray(list) || list.some((rule) => typeof rule !== 'string')) {
      throw new InvalidOptionsError(
        `rules.${name}`,
        'must be an array of strings such as "mcp.github.*"',
      );
    }
    return [...list];
  };
  const rules: ToolRules = {
    allow: ruleList('allow'),
    ask: ruleList('ask'),
    deny: ruleList('deny'),
  };
  const approvalMode = rulesOptions.approvalMode ?? 'ask';
  if (!Object.hasOwn(APPROVAL_MODES, approvalMode)) {
    throw new InvalidOptionsError('rules.approvalMode', `must be ${quotedModes(APPROVAL_MODES)}`);
  }
  const exposure = tools.exposure ?? 'direct';
  if (!Object.hasOwn(TOOL_EXPOSURES, exposure)) {
    throw new InvalidOptionsError('tools.exposure', `must be ${quotedModes(TOOL_EXPOSURES)}`);
  }
  const auditLog = checkAuditLog(storage.auditLog);
  const elicitation = checkElicitation(options.elicitation);
  const milliseconds = (name: 'startMs' | 'downloadMs', fallback: number): number => {
    const ms = timeouts[name] ?? fallback;
    if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
      throw new InvalidOptionsError(
        `timeouts.${name}`,
        `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`,
      );
    }
    return ms;
  };
  const startTimeoutMs = milliseconds('startMs', DEFAULT_START_TIMEOUT_MS);
  const downloadTimeoutMs = milliseconds('downloadMs', DEFAULT_DOWNLOAD_TIMEOUT_MS);
  if (options.onStartStep !== undefined && typeof options.onStartStep !== 'function') {
    throw new InvalidOptionsError('onStartStep', 'must be a function (event)');
  }
  const startMode = tools.startMode ?? 'eager';
  if (startMode !== 'eager' && startMode !== 'lazy') {
    throw new InvalidOptionsError('tools.startMode', 'must be "eager" or "lazy"');
  }
  const tempDirs = sandbox.tempDirs ?? [];
  if (!Array.isArray(tempDirs)) {
    throw new InvalidOptionsError('sandbox.tempDirs', 'must be an array of folder paths');
  }
  const sandboxReadPaths = sandbox.readPaths ?? [];
  if (!Array.isArray(sandboxReadPaths)) {
    throw new InvalidOptionsError('sandbox.readPaths', 'must be an array of folder paths');
  }
  const home = folder('home', options.home);
  const userHome = folder('userHome', options.userHome);
  const cacheDir =
    sandbox.cacheDir === undefined
      ? path.join(userHome, '.cache', 'garuda-mcp')
      : folder('sandbox.cacheDir', sandbox.cacheDir);
  if (isWithin(cacheDir, home)) {
    throw new InvalidOptionsError(
      'sandbox.cacheDir',
      `must not be inside home (${JSON.stringify(home)}): servers cannot see that folder, so they could not use the cache`,
    );
  }
  const serverHomesDir =
    sandbox.serverHomesDir === undefined
      ? path.join(userHome, '.local', 'share', 'garuda-mcp', 'servers')
      : folder('sandbox.serverHomesDir', sandbox.serverHomesDir);
  if (
    isWithin(serverHomesDir, home) ||
    hiddenPathOf(serverHomesDir, { home: userHome, garudaHome: home }) !== undefined
  ) {
    throw new InvalidOptionsError(
      'sandbox.serverHomesDir',
      `must not be inside home (${JSON.stringify(home)}) or a path the sandbox hides: servers could not use their homes there`,
    );
  }
  const servers = options.servers === undefined ? {} : options.servers;
  if (!isRecord(servers)) {
    throw new InvalidOptionsError(
      'servers',
      "must be an object of server names to servers, like { demo: { command: 'demo-server' } }",
    );
  }
  const enabledForSession = tools.enabledForSession ?? {};
  if (
    !isRecord(enabledForSession) ||
    Object.values(enabledForSession).some((value) => typeof value !== 'boolean')
  ) {
    throw new InvalidOptionsError(
      'tools.enabledForSession',
      'must be an object of server names to true (on) or false (off)',
    );
  }
  const tokenStorage = storage.tokenStorage ?? 'file';
  if (!TOKEN_STORAGES.includes(tokenStorage)) {
    throw new InvalidOptionsError(
      'storage.tokenStorage',
      `must be one of ${TOKEN_STORAGES.map((mode) => `'${mode}'`).join(', ')}`,
    );
  }
  return {
    root: folder('root', options.root),
    home,
    enabledForSession: new Map(Object.entries(enabledForSession)),
    tokenStorage,
    userHome,
    cacheDir,
    serverHomesDir,
    env,
    clientInfo: { name: clientInfo.name, version: clientInfo.version },
    prompter,
    logger,
    rules,
    approvalMode,
    exposure,
    auditLog,
    elicitation,
    trustStore,
    servers: { ...servers },
    userConfigFile: optionalFile('storage.userConfigFile', storage.userConfigFile),
    projectConfigFile: optionalFile('storage.projectConfigFile', storage.projectConfigFile),
    sandbox: sandboxInfo,
    startTimeoutMs,
    downloadTimeoutMs,
    onStartStep: options.onStartStep,
    startMode,
    tempDirs: tempDirs.map((dir, index) => folder(`sandbox.tempDirs[${index}]`, dir)),
    sandboxReadPaths: sandboxReadPaths.map((dir, index) =>
      sharedReadPath(`sandbox.readPaths[${index}]`, dir, { home, userHome }),
    ),
    projectFetchOptions,
    openBrowser: options.openBrowser,
    clientMetadataUrl: remote.clientMetadataUrl,
    importConfigs: [...new Set(importConfigs)],
    onChange: options.onChange,
    onServerLog: options.onServerLog,
  };
}
