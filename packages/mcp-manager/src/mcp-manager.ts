import { setMaxListeners } from 'node:events';
import path from 'node:path';
import {
  defHash,
  defaultPaths,
  formatProblem,
  loadConfig,
  type ConfigProblem,
  type ServerConfig,
} from '@garuda/mcp-config';
import { detectSandbox, type SandboxInfo } from '@garuda/mcp-transport';
import { createPinnedFetch } from '@garuda/pinned-fetch';
import { AuthStore, USER_SCOPE, openBrowser, revoke, type RevokeResult } from '@garuda/mcp-oauth';
import {
  TrustStore,
  getMcpTrustEntry,
  mcpTrustKey,
  type McpTrustEntry,
  type TrustStoreLike,
} from '@garuda/mcp-trust';
import { callPreview, formatResult, quoteText, toolPrefix } from '@garuda/mcp-tools';
import { QuestionQueue, linkSignals, within } from './abort.js';
import { matchesAllowRule, validateAllowRule } from './allow-rules.js';
import {
  AlreadyStartedError,
  CallCancelledError,
  CallDeclinedError,
  CallFailedError,
  InvalidArgumentsError,
  InvalidOptionsError,
  ManagerClosedError,
  NotStartedError,
  ServerNotConnectedError,
  ServerStoppedError,
  StartCancelledError,
  UnknownServerError,
  UnknownToolError,
} from './errors.js';
import { withDenialNote, withDenialNoteError } from './sandbox-denial-note.js';
import { forceSignIn, hasStaticAuthorization } from './remote-connect.js';
import { NoteTracker, unavailableReason } from './notes.js';
import { checkOptions, type CheckedOptions, type McpManagerOptions } from './options.js';
import type { ServerConnection } from './server-connection.js';
import { startServer, type StartContext, type StartOutcome } from './start-server.js';
import { statusRow } from './status.js';
import { forPrompter, messageOf, noticeText, oneLine } from './text.js';
import type { CallResult, McpTool, ServerState, StatusRow } from './types.js';
import { isRecord } from './plain-object.js';

/** How long `close()` waits for all servers together before it gives up waiting. */
const CLOSE_BOUND_MS = 20_000;

/** Options of {@link McpManager.start} and {@link McpManager.reload}. */
export interface StartOptions {
  /**
   * Cancels the start: consent questions are withdrawn, servers still starting are stopped
   * (state `stopped`), and the promise rejects with `StartCancelledError`.
   */
  readonly signal?: AbortSignal;
  /**
   * `start()` only: start just these servers (by name), e.g. the one server a command needs.
   * The others are listed by `status()` as `stopped` ("not started") and can be started later
   * with `reload(name)`. A name that no file configures throws `UnknownServerError`. Default:
   * every server.
   */
  readonly only?: readonly string[];
}

/** Options of {@link McpManager.call}. */
export interface CallOptions {
  /** Cancels the call (approval question included): it rejects with `CallCancelledError`. */
  readonly signal?: AbortSignal;
}

interface Attempt {
  readonly controller: AbortController;
  done: Promise<void>;
}

interface ServerRecord {
  config: ServerConfig;
  state: ServerState;
  detail: string | undefined;
  /** Goes up on every state change: notes are given once per version. */
  version: number;
  /** The adapted tools of its last successful start (kept after a stop, for clear call errors). */
  tools: readonly McpTool[];
  attempt: Attempt | undefined;
  /** A remote server that connected with OAuth tokens. */
  signedIn?: boolean;
}

interface ToolView {
  readonly list: readonly McpTool[];
  readonly byName: ReadonlyMap<string, McpTool>;
  readonly clashes: readonly { name: string; kept: string; dropped: string }[];
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An OAuth scope name (RFC 6749 §3.3 characters), not too long. */
function isScopeName(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length <= 200 && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(value)
  );
}

function argumentsOf(args: unknown, name: string): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (isRecord(args)) return args;
  throw new InvalidArgumentsError(name, Array.isArray(args) ? 'an array' : `a ${typeof args}`);
}

/**
 * The MCP client facade: reads the user's and the project's `mcp.json`, asks consent for
 * project servers, starts every local server in the OS sandbox, pins their tools against
 * silent changes, gives the model their cleaned tools, runs approved calls with cleaned and
 * wrapped results, and keeps `status()` and notes for the model.
 *
 * One manager is one session: `start()` once, then `tools()`, `call()`, `status()`,
 * `takeNotes()` and `reload(name)` as often as needed, and `close()` at the end. It never
 * prints: it asks and tells through the `prompter`, and logs through `logger`.
 *
 * @example
 * ```ts
 * const mcp = new McpManager({ root, home, userHome, env: process.env, clientInfo, prompter });
 * await mcp.start();
 * const tools = mcp.tools(); // give these to the model
 * const result = await mcp.call('mcp__github__search', { query: 'bug' }, { signal });
 * ui.show(result.text); // <mcp_result server="github" tool="search">…</mcp_result>
 * await mcp.close();
 * ```
 */
export class McpManager {
  readonly #options: CheckedOptions;
  readonly #store: TrustStoreLike;
  /** Every configured server, in configuration order (the user's first). */
  readonly #records = new Map<string, ServerRecord>();
  /** The running servers. A server leaves this list before a planned stop, so it gives no notice. */
  readonly #connections = new Map<string, ServerConnection>();
  /** Trust answered with "once": this session only. */
  readonly #session = new Map<string, McpTrustEntry>();
  readonly #questions = new QuestionQueue();
  readonly #notes = new NoteTracker();
  readonly #lifetime = new AbortController();
  readonly #clashesNoticed = new Set<string>();
  /** Stops still in progress of servers whose start failed or was denied. */
  readonly #stopping = new Set<Promise<void>>();
  #problems: readonly ConfigProblem[] = [];
  #sandbox: SandboxInfo | undefined;
  /** The default pinned fetch for project remote servers, made on first use. */
  #pinnedFetch: ReturnType<typeof createPinnedFetch> | undefined;
  /** The sign-ins of remote servers, `<home>/mcp-auth.json`. */
  readonly #authStore: AuthStore;
  #view: ToolView | undefined;
  #started = false;
  #closed = false;
  #closing: Promise<void> | undefined;

  /**
   * @param options - Where the project and the user's files are, the host's environment and
   *   prompter; see {@link McpManagerOptions}. Nothing is read or started until `start()`.
   * @throws {@link InvalidOptionsError} when an option is unusable.
   */
  constructor(options: McpManagerOptions) {
    this.#options = checkOptions(options);
    // Every server start and call in flight listens to the manager's lifetime: more than ten is
    // normal here, and Node's "possible leak" warning would print on the host's stderr.
    setMaxListeners(0, this.#lifetime.signal);
    this.#store =
      this.#options.trustStore ??
      new TrustStore(
        defaultPaths({ home: this.#options.home, root: this.#options.root }).trustFile,
        {
          ...(this.#options.logger ? { logger: this.#options.logger } : {}),
        },
      );
    this.#authStore = new AuthStore(path.join(this.#options.home, 'mcp-auth.json'), {
      ...(this.#options.logger ? { logger: this.#options.logger } : {}),
    });
  }

  /**
   * Reads the configuration and starts every enabled server concurrently. Config problems are
   * told through `prompter.notice` (and kept for {@link problems}). Each server has
   * `startTimeoutMs` (30 s) for start + connect + list; a slow or failing server never holds up
   * or breaks the others (consent questions are asked one at a time). Resolves when every server
   * is connected, disabled, denied or failed.
   *
   * @param options - `signal` cancels the start; `only` starts just the named servers.
   * @throws {@link UnknownServerError} when `only` names a server no file configures,
   *   {@link AlreadyStartedError} on a second call, {@link ManagerClosedError} after (or
   *   during) `close()`, {@link StartCancelledError} when the signal aborts.
   */
  async start(options: StartOptions = {}): Promise<void> {
    if (this.#closed) throw new ManagerClosedError('start()');
    if (this.#started) throw new AlreadyStartedError();
    this.#started = true;
    const { signal } = options;
    for (const rule of this.#options.allowRules) {
      const problem = validateAllowRule(rule);
      if (problem !== undefined) this.#notice(`An MCP allow rule is ignored: ${problem}`);
    }
    const { servers } = await this.#loadConfig(undefined);
    if (this.#closed) throw new ManagerClosedError('start()');
    const only = options.only === undefined ? undefined : new Set(options.only);
    for (const name of only ?? []) {
      if (typeof name !== 'string' || !servers.some((config) => config.name === name)) {
        throw new UnknownServerError(String(name), quoteText(String(name)));
      }
    }
    for (const config of servers) {
      this.#records.set(config.name, {
        config,
        state: 'starting',
        detail: undefined,
        version: 0,
        tools: [],
        attempt: undefined,
      });
    }
    try {
      await this.#ensureSandbox(signal);
    } catch (error) {
      for (const record of this.#records.values()) {
        this.#setState(record, 'stopped', 'its start was cancelled');
      }
      if (signal?.aborted || this.#closed) throw new StartCancelledError('start()');
      throw error;
    }
    const launched = [...this.#records.values()].filter((record) => {
      if (only === undefined || only.has(record.config.name)) return true;
      this.#setState(record, 'stopped', 'not started (this run needs other servers)');
      return false;
    });
    // One listener on the caller's signal, however many servers start: each server links to
    // this one (ours, so it may have any number of listeners without Node warning the host).
    const startLink = linkSignals(signal);
    setMaxListeners(0, startLink.controller.signal);
    try {
      await Promise.all(
        launched.map((record) => this.#launch(record, signal && startLink.controller.signal)),
      );
    } finally {
      startLink.detach();
    }
    if (this.#closed) throw new ManagerClosedError('start()');
    this.#reportClashes();
    if (signal?.aborted) throw new StartCancelledError('start()');
  }

  /**
   * The tools of every connected server, for the model: sorted by server, then tool name, so
   * the prompt is byte-stable. When two servers' tools get the same name, the server first in
   * that order keeps it (a notice names the other). The tools of a server that stopped are no
   * longer listed.
   *
   * @returns A new array of the adapted tools.
   */
  tools(): McpTool[] {
    return [...this.#toolView().list];
  }

  /**
   * Calls one tool: asks `prompter.approveCall` (unless an allow rule matches), runs it with the
   * server's `timeoutMs` and the caller's signal, and returns the cleaned, capped result wrapped
   * in `<mcp_result server="…" tool="…">`. A tool that ran and reported an error is a result
   * with `isError: true`, not an exception. When a sandboxed local server's error (a result with
   * `isError`, or a JSON-RPC error: {@link CallFailedError}) says the system refused a file the
   * sandbox keeps from it (`EROFS`, `EACCES`…), a `(note: …)` follows (on a line after the
   * wrapper, or at the end of the message) naming the path and the write or read path that would
   * allow it, with the `garuda-mcp add … --replace` command; the path is cleaned and quoted.
   *
   * Every error thrown from here is an {@link McpManagerError} whose message is written for the
   * model too (hand it over as the tool's answer).
   *
   * @param name - The tool's name as given to the model (`mcp__<server>__<tool>`).
   * @param args - Its arguments: a JSON object (`undefined` means `{}`).
   * @param options - `signal` cancels the call.
   * @returns The formatted result.
   * @throws {@link UnknownToolError}, {@link ServerNotConnectedError} (naming the server's state),
   *   {@link InvalidArgumentsError}, {@link CallDeclinedError} (the user said no),
   *   {@link CallCancelledError}, {@link CallTimeoutError}, {@link ResultTooLargeError},
   *   {@link ServerStoppedError}, {@link CallFailedError}, {@link NotStartedError},
   *   {@link ManagerClosedError}.
   */
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<CallResult> {
    const label = typeof name === 'string' ? quoteText(name) : `(${typeof name})`;
    if (this.#closed) throw new ManagerClosedError(`the call of ${label}`);
    if (!this.#started) throw new NotStartedError('call()');
    const tool = typeof name === 'string' ? this.#toolView().byName.get(name) : undefined;
    if (tool === undefined) {
      const owner = typeof name === 'string' ? this.#ownerOf(name) : undefined;
      if (owner !== undefined) {
        throw new ServerNotConnectedError(
          owner.config.name,
          owner.state,
          unavailableReason(owner.state, owner.detail),
        );
      }
      throw new UnknownToolError(String(name), label);
    }
    const input = argumentsOf(args, tool.name);
    const { signal } = options;
    if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });

    if (!matchesAllowRule(this.#options.allowRules, tool.server, tool.tool)) {
      const { controller, detach } = linkSignals(signal, this.#lifetime.signal);
      let approved: unknown;
      try {
        approved = await this.#questions.ask(
          () =>
            this.#options.prompter.approveCall(
              forPrompter(callPreview(tool, input)),
              controller.signal,
            ),
          controller.signal,
        );
      } catch (error) {
        if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });
        if (this.#closed) throw new ManagerClosedError(`the call of ${tool.name}`);
        throw new CallFailedError(
          tool.name,
          `the approval question failed: ${oneLine(messageOf(error))}`,
          { cause: error },
        );
      } finally {
        detach();
      }
      if (approved !== true) throw new CallDeclinedError(tool.name);
    }

    // The server may have stopped while the user was deciding.
    const record = this.#records.get(tool.server);
    const connection = this.#connections.get(tool.server);
    if (this.#closed) throw new ManagerClosedError(`the call of ${tool.name}`);
    if (record === undefined || connection === undefined || record.state !== 'connected') {
      const state = record?.state ?? 'stopped';
      throw new ServerNotConnectedError(
        tool.server,
        state,
        unavailableReason(state, record?.detail),
      );
    }
    // A sandboxed server's error about a file the sandbox kept from it gets a note saying so.
    const denial = { server: record.config, sandbox: this.#sandbox, options: this.#options };
    try {
      const result = await connection.call(tool.tool, tool.name, input, {
        signal,
        timeoutMs: record.config.def.timeoutMs,
      });
      return withDenialNote(formatResult(tool.server, tool.tool, result), denial);
    } catch (error) {
      if (this.#closed && ServerStoppedError.isInstance(error)) {
        throw new ManagerClosedError(`the call of ${tool.name}`);
      }
      throw withDenialNoteError(error, tool.name, denial);
    }
  }

  /**
   * One row per configured server, in configuration order (the user's servers first): name,
   * source, state, tool count, sandbox, network, and why it is denied or failed.
   *
   * @returns The rows (empty before `start()`).
   */
  status(): StatusRow[] {
    const counts = new Map<string, number>();
    for (const tool of this.#toolView().list) {
      counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
    }
    return [...this.#records.values()].map((record) =>
      statusRow(record, counts.get(record.config.name) ?? 0, this.#sandbox),
    );
  }

  /**
   * Notes for the model about servers it cannot use, each given once per state change, e.g.
   * `MCP server "fix" is not available (you did not allow it). Do not pretend to use it.`
   * Reasons quoted from a server are cleaned and tag-neutralised. The host wraps each note in a
   * `<garuda_note>` block.
   *
   * @returns The notes not taken yet (often none).
   */
  takeNotes(): string[] {
    return this.#notes.take(
      [...this.#records.values()].map((record) => ({
        name: record.config.name,
        state: record.state,
        detail: record.detail,
        version: record.version,
      })),
    );
  }

  /**
   * The problems `loadConfig` found in the configuration files at the last `start()` or
   * `reload()` (each was also told through `prompter.notice`).
   *
   * @returns The problems, with file, line, column, server and field.
   */
  problems(): readonly ConfigProblem[] {
    return [...this.#problems];
  }

  /**
   * Signs in to a remote server now, even when it is signed in: asks `prompter.signIn`, opens
   * the sign-in page and waits for its callback, asking for the server's configured scopes, the
   * scopes its current sign-in holds, and `scopes` (e.g. the `addedScopes` of a
   * {@link SignInRequiredError} a call ended with). Works before `start()` (the start then uses
   * the new sign-in) and after it (a connected or failed server is reconnected with it). A
   * project's server must have been allowed already.
   *
   * @param name - The remote server's name, as configured.
   * @param options - `scopes` to ask for besides those; `signal` cancels the sign-in.
   * @throws {@link UnknownServerError} (no server of that name), {@link InvalidOptionsError} (a
   *   local server, one with its own `Authorization` header, or a bad scope name),
   *   {@link ServerNotConnectedError} (a project server not allowed yet),
   *   {@link SignInRequiredError} (the sign-in did not complete), {@link ManagerClosedError},
   *   {@link StartCancelledError} (the reconnect was cancelled).
   */
  async signIn(
    name: string,
    options: { readonly scopes?: readonly string[]; readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    if (this.#closed) throw new ManagerClosedError('signIn()');
    const scopes = options.scopes ?? [];
    if (!Array.isArray(scopes) || !scopes.every((scope) => isScopeName(scope))) {
      throw new InvalidOptionsError(
        'scopes',
        'must be a list of OAuth scope names (no spaces, quotes or backslashes)',
      );
    }
    const record = this.#records.get(name);
    const config =
      record?.config ??
      (await this.#loadConfig(name)).servers.find((server) => server.name === name);
    if (config === undefined) throw new UnknownServerError(String(name), quoteText(name));
    if (config.kind !== 'remote') {
      throw new InvalidOptionsError(
        'name',
        `${quoteText(name)} is a local server: only remote servers sign in`,
      );
    }
    if (hasStaticAuthorization(config)) {
      throw new InvalidOptionsError(
        'name',
        `${quoteText(name)} sends its own Authorization header (in its configuration), so it does not sign in with OAuth`,
      );
    }
    if (config.source === 'project' && !(await this.#allowed(config))) {
      throw new ServerNotConnectedError(
        name,
        record?.state ?? 'stopped',
        'it comes from the project file and you have not allowed it yet: start it first',
      );
    }
    const { controller, detach } = linkSignals(options.signal, this.#lifetime.signal);
    try {
      await forceSignIn(config, this.#context(controller.signal), scopes);
    } finally {
      detach();
    }
    if (this.#closed) throw new ManagerClosedError('signIn()');
    if (record !== undefined && (record.state === 'connected' || record.state === 'failed')) {
      await this.reload(name, options.signal === undefined ? {} : { signal: options.signal });
    }
  }

  /** Whether a project server's definition has been allowed (remembered, or this session). */
  async #allowed(config: ServerConfig): Promise<boolean> {
    const key = mcpTrustKey({ kind: 'project', root: this.#options.root }, config.name);
    const def = defHash(config.def);
    if (this.#session.get(key)?.def === def) return true;
    const stored = await getMcpTrustEntry(this.#store, key).catch(() => undefined);
    return stored?.def === def;
  }

  /**
   * Signs out of a remote server: every stored sign-in of `name` is removed from
   * `<home>/mcp-auth.json` first, then its tokens are revoked at the authorization server
   * (RFC 7009) where it offers that. A connection signed in with OAuth is stopped (state
   * `stopped`, its tools fail with `SERVER_NOT_CONNECTED`); the next connect (`reload(name)`,
   * another manager) asks to sign in again.
   *
   * @param name - The server's name, as configured.
   * @param options - `signal` stops the revocation requests (the local entries are gone already).
   * @returns What was removed and revoked; a failed revocation is reported there, not thrown.
   * @throws {@link UnknownServerError} when no remote server of that name is configured (after
   *   `start()`), {@link ManagerClosedError}.
   */
  async logout(name: string, options: { signal?: AbortSignal } = {}): Promise<RevokeResult> {
    if (this.#closed) throw new ManagerClosedError('logout()');
    const record = this.#records.get(name);
    if (record !== undefined && record.config.kind !== 'remote')
      throw new UnknownServerError(name, quoteText(name));
    const config = record?.config.kind === 'remote' ? record.config : undefined;
    // Before start() (or for a server no longer configured) the stored sign-ins say where the
    // server came from: a project's sign-in is revoked through the strict fetch, and so is a
    // mix of both.
    const stored =
      config === undefined
        ? (await this.#authStore.list().catch(() => [])).filter((entry) => entry.name === name)
        : [];
    const user =
      config !== undefined
        ? config.source === 'user'
        : stored.every((entry) => entry.scope === USER_SCOPE);
    const result = await revoke({
      serverUrl: config?.url ?? stored[0]?.url ?? 'https://invalid.invalid/',
      store: this.#authStore,
      name,
      fetch: user
        ? (input, init) => fetch(input, init)
        : (this.#options.fetchForProject ?? ((input, init) => this.#projectFetch(input, init))),
      allowHttpLoopback: user,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.#options.logger ? { logger: this.#options.logger } : {}),
    });
    if (record !== undefined && record.signedIn === true) {
      // Its connection holds the signed-in session: end it, so no tool of a signed-out server
      // still answers. `reload(name)` signs in again.
      await this.#stop(record, 'you signed out');
      this.#setState(record, 'stopped', 'you signed out (reload it to sign in again)');
    }
    if (record !== undefined) record.signedIn = false;
    return result;
  }

  /**
   * Stops one server (a planned stop: no notice) and runs its whole start sequence again with
   * its configuration read anew: consent and pins apply again ("once" trust lasts for this
   * manager's session). A server removed from the configuration is stopped and leaves
   * `status()`; one added since `start()` is started.
   *
   * @param name - The server's name.
   * @param options - `signal` cancels the start.
   * @throws {@link UnknownServerError} when no file configures `name`,
   *   {@link NotStartedError}, {@link ManagerClosedError}, {@link StartCancelledError}.
   */
  async reload(name: string, options: StartOptions = {}): Promise<void> {
    if (typeof name !== 'string' || name === '') {
      throw new InvalidOptionsError('name', 'must be the name of a configured server');
    }
    const label = `reload(${quoteText(name)})`;
    if (this.#closed) throw new ManagerClosedError(label);
    if (!this.#started) throw new NotStartedError('reload()');
    const { signal } = options;
    const { servers } = await this.#loadConfig(name);
    const config = servers.find((server) => server.name === name);
    let record = this.#records.get(name);
    if (config === undefined && record === undefined)
      throw new UnknownServerError(name, quoteText(name));
    if (record !== undefined) await this.#stop(record, 'it was reloaded');
    if (this.#closed) throw new ManagerClosedError(label);
    if (config === undefined) {
      this.#records.delete(name);
      this.#notes.forget(name);
      this.#view = undefined;
      return;
    }
    if (record === undefined) {
      record = {
        config,
        state: 'starting',
        detail: undefined,
        version: 0,
        tools: [],
        attempt: undefined,
      };
      this.#records.set(name, record);
    } else {
      record.config = config;
    }
    try {
      await this.#ensureSandbox(signal);
    } catch (error) {
      this.#setState(record, 'stopped', 'its start was cancelled');
      if (signal?.aborted || this.#closed) throw new StartCancelledError(label);
      throw error;
    }
    await this.#launch(record, signal);
    if (this.#closed) throw new ManagerClosedError(label);
    this.#reportClashes();
    if (signal?.aborted) throw new StartCancelledError(label);
  }

  /**
   * Stops every server: the list of connections is cleared first (so these planned stops give
   * no "stopped" notice), starts in progress are cancelled, and every client and process is
   * closed concurrently (stdin closed, then TERM and KILL to each process group), bounded in
   * time. Afterwards every server shows `stopped` and no server process is left. Safe to call
   * twice.
   *
   * @returns When everything has stopped.
   */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#closed = true;
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    this.#lifetime.abort(new Error('the MCP manager was closed'));
    const attempts = [...this.#records.values()].flatMap((record) =>
      record.attempt ? [record.attempt.done] : [],
    );
    this.#closing = (async () => {
      const stopped = await within(
        Promise.all([
          ...connections.map((connection) => connection.close('the MCP manager was closed')),
          ...attempts,
        ]),
        CLOSE_BOUND_MS,
      );
      // Starts that were cancelled above leave their stops here.
      const alsoStopped = await within(Promise.all([...this.#stopping]), CLOSE_BOUND_MS);
      if (!stopped || !alsoStopped) {
        this.#options.logger?.warn?.('some MCP servers took too long to stop');
      }
      for (const record of this.#records.values()) this.#setState(record, 'stopped', undefined);
      await this.#pinnedFetch?.close().catch(() => {});
    })();
    return this.#closing;
  }

  async #loadConfig(only: string | undefined): Promise<{ servers: readonly ServerConfig[] }> {
    const paths = defaultPaths({ home: this.#options.home, root: this.#options.root });
    const { servers, problems } = await loadConfig({
      userFile: this.#options.userConfigFile ?? paths.userFile,
      projectFile: this.#options.projectConfigFile ?? paths.projectFile,
      env: this.#options.env,
      importedProjectFiles: this.#options.importConfigs.map((client) => ({
        file: path.join(this.#options.root, '.mcp.json'),
        client,
      })),
    });
    this.#problems = problems;
    for (const problem of problems) {
      if (only === undefined || problem.server === only) {
        this.#notice(`MCP configuration: ${formatProblem(problem)}`);
      }
    }
    const session = this.#options.enabledForSession;
    return {
      // `enabled` is outside the definition hash: a switch for this session asks no consent.
      servers: servers.map((server) => {
        const enabled = session.get(server.name);
        return enabled === undefined || enabled === server.def.enabled
          ? server
          : ({ ...server, def: { ...server.def, enabled } } as ServerConfig);
      }),
    };
  }

  async #ensureSandbox(signal: AbortSignal | undefined): Promise<void> {
    if (this.#sandbox !== undefined) return;
    const { controller, detach } = linkSignals(signal, this.#lifetime.signal);
    try {
      this.#sandbox =
        this.#options.sandbox ??
        (await detectSandbox({
          ...(this.#options.env.PATH === undefined ? {} : { searchPath: this.#options.env.PATH }),
          signal: controller.signal,
        }));
    } finally {
      detach();
    }
    const local = [...this.#records.values()].some(
      (record) => record.config.kind === 'local' && record.config.def.enabled,
    );
    if (this.#sandbox.kind === 'none' && local) {
      this.#notice(
        `No OS sandbox is available (${oneLine(this.#sandbox.reason ?? 'unknown reason')}): local MCP servers run without one, with only an allowlisted environment.`,
      );
    }
  }

  #context(signal: AbortSignal): StartContext {
    const options = this.#options;
    return {
      root: options.root,
      home: options.home,
      userHome: options.userHome,
      cacheDir: options.cacheDir,
      env: options.env,
      tempDirs: options.tempDirs,
      sandboxReadPaths: options.sandboxReadPaths,
      sandbox: this.#sandbox as SandboxInfo,
      clientInfo: options.clientInfo,
      store: this.#store,
      session: this.#session,
      startTimeoutMs: options.startTimeoutMs,
      signal,
      ask: (request, askSignal) =>
        this.#questions.ask(
          () => options.prompter.consent(forPrompter(request), askSignal),
          askSignal,
        ),
      notice: (text) => this.#notice(text),
      track: (stopping) => this.#track(stopping),
      logger: options.logger,
      projectFetch: options.fetchForProject ?? ((input, init) => this.#projectFetch(input, init)),
      authStore: this.#authStore,
      clientMetadataUrl: options.clientMetadataUrl,
      signIn:
        options.prompter.signIn === undefined
          ? undefined
          : (request, askSignal) =>
              this.#questions.ask(
                () =>
                  options.prompter.signIn?.(forPrompter(request), askSignal) ??
                  Promise.resolve(false),
                askSignal,
              ),
      pasteRedirect:
        options.prompter.pasteRedirect === undefined
          ? undefined
          : (request, askSignal) =>
              options.prompter.pasteRedirect?.(forPrompter(request), askSignal) ??
              Promise.resolve(undefined),
      openBrowser:
        options.openBrowser ??
        ((url, { allowHttpLocalhost }) =>
          openBrowser(url, {
            allowHttpLocalhost,
            ...(options.logger ? { logger: options.logger } : {}),
          })),
    };
  }

  #projectFetch(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    this.#pinnedFetch ??= createPinnedFetch();
    return this.#pinnedFetch(input, init);
  }

  #launch(record: ServerRecord, signal: AbortSignal | undefined): Promise<void> {
    const { controller, detach } = linkSignals(signal, this.#lifetime.signal);
    const attempt: Attempt = { controller, done: Promise.resolve() };
    record.attempt = attempt;
    this.#setState(record, 'starting', undefined);
    const name = record.config.name;
    attempt.done = (async () => {
      let outcome: StartOutcome;
      try {
        outcome = await startServer(record.config, this.#context(controller.signal));
      } catch (error) {
        outcome = { state: 'failed', detail: `it could not start: ${messageOf(error)}` };
      } finally {
        detach();
      }
      const current =
        record.attempt === attempt && !this.#closed && this.#records.get(name) === record;
      if (record.attempt === attempt) record.attempt = undefined;
      if (outcome.state === 'connected') {
        const { connection } = outcome;
        if (!current) {
          this.#track(connection.close('it was stopped'));
          return;
        }
        record.tools = outcome.tools;
        record.signedIn = outcome.signedIn;
        this.#connections.set(name, connection);
        this.#setState(record, 'connected', undefined);
        connection.onExit((reason) => this.#exited(record, connection, reason));
        return;
      }
      if (!current) return;
      this.#setState(record, outcome.state, outcome.detail);
      if (outcome.state === 'failed') {
        this.#notice(`MCP server "${name}" failed: ${oneLine(outcome.detail)}`);
      }
    })();
    return attempt.done;
  }

  async #stop(record: ServerRecord, reason: string): Promise<void> {
    const name = record.config.name;
    const attempt = record.attempt;
    if (attempt !== undefined) {
      attempt.controller.abort(new Error(reason));
      await within(attempt.done, CLOSE_BOUND_MS);
    }
    const connection = this.#connections.get(name);
    if (connection !== undefined) {
      this.#connections.delete(name);
      this.#setState(record, 'stopped', undefined);
      await connection.close(reason);
    }
  }

  #exited(record: ServerRecord, connection: ServerConnection, reason: string): void {
    const name = record.config.name;
    // A planned stop removed the connection from the list first: nothing to report.
    if (this.#connections.get(name) !== connection) return;
    this.#connections.delete(name);
    this.#setState(record, 'failed', `it stopped by itself: ${reason}`);
    this.#options.logger?.warn?.(`MCP server "${name}" stopped: ${oneLine(reason)}`);
    this.#notice(`MCP server "${name}" stopped. Its tools now fail.`);
  }

  #track(stopping: Promise<void>): void {
    this.#stopping.add(stopping);
    void stopping.finally(() => this.#stopping.delete(stopping));
  }

  #setState(record: ServerRecord, state: ServerState, detail: string | undefined): void {
    if (record.state === state && record.detail === detail) return;
    record.state = state;
    record.detail = detail;
    record.version += 1;
    this.#view = undefined;
    this.#options.logger?.debug?.(
      `MCP server "${record.config.name}": ${state}${detail === undefined ? '' : ` (${oneLine(detail)})`}`,
    );
  }

  #notice(text: string): void {
    try {
      this.#options.prompter.notice(noticeText(text));
    } catch (error) {
      this.#options.logger?.warn?.(`prompter.notice failed: ${messageOf(error)}`);
    }
  }

  #toolView(): ToolView {
    if (this.#view !== undefined) return this.#view;
    const list: McpTool[] = [];
    const byName = new Map<string, McpTool>();
    const clashes: { name: string; kept: string; dropped: string }[] = [];
    const connected = [...this.#records.values()]
      .filter((record) => record.state === 'connected')
      .sort((a, b) => byCodeUnit(a.config.name, b.config.name));
    for (const record of connected) {
      for (const tool of [...record.tools].sort((a, b) => byCodeUnit(a.name, b.name))) {
        const holder = byName.get(tool.name);
        if (holder !== undefined) {
          clashes.push({ name: tool.name, kept: holder.server, dropped: record.config.name });
          continue;
        }
        byName.set(tool.name, tool);
        list.push(tool);
      }
    }
    this.#view = { list, byName, clashes };
    return this.#view;
  }

  #reportClashes(): void {
    for (const clash of this.#toolView().clashes) {
      const key = `${clash.name}\u0000${clash.kept}\u0000${clash.dropped}`;
      if (this.#clashesNoticed.has(key)) continue;
      this.#clashesNoticed.add(key);
      this.#notice(
        `MCP tool name "${clash.name}" is offered by servers "${clash.kept}" and "${clash.dropped}": "${clash.kept}" keeps it and the tool of "${clash.dropped}" is left out. Rename one of the servers to use both.`,
      );
    }
  }

  /** The server a tool name belongs to when that server is not connected. */
  #ownerOf(name: string): ServerRecord | undefined {
    let owner: ServerRecord | undefined;
    for (const record of this.#records.values()) {
      if (record.state === 'connected') continue;
      const known = record.tools.some((tool) => tool.name === name);
      const prefixed = name.startsWith(toolPrefix(record.config.name));
      if (!known && !prefixed) continue;
      if (owner === undefined || record.config.name.length > owner.config.name.length) {
        owner = record;
      }
    }
    return owner;
  }
}
