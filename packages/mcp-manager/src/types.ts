// The shapes shared by the manager and its parts. Everything in them that came from a server or
// a project file has been cleaned already (cleanLine for one-line fields, cleanText otherwise).
import type { ExposureMode } from './offer/tool-exposure.js';
import type { StartStep } from './launch/download-phase.js';
import type { EnvSource, ServerSource } from '@garuda/mcp-config';
import type { NameClash, ServerOrigin } from '@garuda/internal';
import type { CallPreview, CallResult as ToolCallResult } from '@garuda/mcp-tools';
import type { ApprovalMode, RiskSummary, RiskTier } from './calls/risk-tier.js';

export type { ApprovalMode, RiskSummary, RiskTier } from './calls/risk-tier.js';
import type { ElicitReply, ElicitRequest } from './elicit/elicit-types.js';

export type {
  ElicitField,
  ElicitFieldKind,
  ElicitFormRequest,
  ElicitOption,
  ElicitReply,
  ElicitRequest,
  ElicitUrlRequest,
  ElicitValue,
  ElicitValues,
} from './elicit/elicit-types.js';

// The model-facing shapes live in @garuda/mcp-tools; the manager's API hands them out.
export type {
  CallPreview,
  CallPreviewTextOptions,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  PreviewArgument,
  PreviewValue,
  PromptArgument,
  PromptMessage,
  PromptResult,
  ResourceContent,
  ResourceResult,
  UriRefusal,
} from '@garuda/mcp-tools';
export type { NameClash, ServerOrigin } from '@garuda/internal';

/**
 * A tool or prompt name a server lost to another server (`StatusRow.lostNames`): it is not
 * offered, and the server that holds the name answers it. `name` is the model-facing tool name
 * or the host's prompt name (`<server>__<prompt>`).
 */
export interface LostName extends NameClash {
  readonly kind: 'tool' | 'prompt';
}

/**
 * The state of one configured server, as `status()` shows it. `ready`: a lazy start
 * (`tools.startMode: 'lazy'`) offers its pinned tools from the cache, and its first use starts it.
 */
export type ServerState =
  'disabled' | 'denied' | 'starting' | 'ready' | 'connected' | 'failed' | 'stopped';

/** An answer to a consent question: this session only, remember it, or no. */
export type ConsentAnswer = 'once' | 'remember' | 'deny';

/**
 * What a prompter's `consent` may return: one of the {@link ConsentAnswer}s — or any other
 * string, which counts as `deny`. The wide type lets a plain object literal
 * (`{ consent: async () => 'once', … }`, where TypeScript widens `'once'` to `string`) be a
 * {@link Prompter} without a cast, while editors still offer the three answers.
 */
export type ConsentReply = ConsentAnswer | (string & {});

/** One environment variable or header of a server, and where its value comes from. */
export interface ValueSource {
  /** The variable or header name (cleaned, capped). */
  readonly name: string;
  /**
   * Where its value comes from: written in the file (`literal`), or the host environment's
   * variables its `${NAME}`s take (`vars`; `missing` are those not set). Never the value.
   * `valueSourceText` words it.
   */
  readonly source: ValueOrigin;
}

/**
 * Where a value on a consent screen comes from: mcp-config's `EnvSource`, with the variable
 * names cleaned and capped for the screen.
 */
export type ValueOrigin = EnvSource;

/** A tool as a consent screen lists it. */
export interface ToolSummary {
  /** The tool's MCP name (cleaned). */
  readonly name: string;
  /** Its description (cleaned, capped). */
  readonly description: string;
}

/** A changed tool, and what changed. */
export interface ToolChangeSummary extends ToolSummary {
  readonly descriptionChanged: boolean;
  readonly schemaChanged: boolean;
}

/**
 * A consent question. `kind: 'server'` asks before a project server starts (or before a project's
 * remote server is contacted); `kind: 'tools'` asks when a project server's tools changed since
 * they were trusted.
 */
export interface ConsentRequest {
  readonly kind: 'server' | 'tools';
  /** Server name. */
  readonly server: string;
  readonly source: ServerSource;
  /** The config file it came from. */
  readonly file: string;
  /** Local servers: the full command line on one line, hidden characters shown as escapes. */
  readonly commandLine?: string;
  /** Local servers: the working folder, when set. */
  readonly cwd?: string;
  /** The sandbox it would run in (`remote` for a remote server); `sandboxText` words it. */
  readonly sandbox: SandboxStatus;
  /** Whether the server gets network access (always true for a remote server: data leaves the machine). */
  readonly network: boolean;
  /** Local servers: every environment variable and where its value comes from. */
  readonly env: readonly ValueSource[];
  /** Local servers: folders it may write besides the project and temp folders. */
  readonly writePaths: readonly string[];
  /** Local servers: its own home folder (writable, kept across restarts; see `sandbox.serverHomesDir`). */
  readonly home?: string;
  /**
   * Local servers with read paths: the files or folders it may read although the sandbox would
   * hide them (read-only), as written. Left out when there are none.
   */
  readonly readPaths?: readonly string[];
  /**
   * Local servers started through a package runner (`npx`, `pnpm dlx`, `uvx`…): the packages it
   * downloads and runs, the one that runs first.
   */
  readonly packages?: readonly PackageSummary[];
  /** Remote servers: the URL. */
  readonly url?: string;
  /** Remote servers: every header and where its value comes from. */
  readonly headers?: readonly ValueSource[];
  /** Plain-language warnings, most serious first. */
  readonly warnings: readonly string[];
  /**
   * The risk tier of its calls from the `capabilities` its entry declares (undeclared: `high`),
   * and whether they run one at a time: what an approval mode will let run without asking.
   */
  readonly risk: RiskSummary;
  /** `kind: 'tools'`: what changed since the tools were trusted. */
  readonly toolChanges?: {
    readonly added: readonly ToolSummary[];
    readonly removed: readonly string[];
    readonly changed: readonly ToolChangeSummary[];
    /** False when the old pin cannot say which tools changed (every tool is listed as changed). */
    readonly detailed: boolean;
  };
}

/** A package that a package runner downloads and runs, on a consent screen (cleaned). */
export interface PackageSummary {
  /** The runner as written: `npx`, `pnpm dlx`, `uvx`, `pipx run`, … */
  readonly runner: string;
  /** The package name (for a git source or a path: the whole spec). */
  readonly name: string;
  /** The version written after the name, when there is one. */
  readonly version?: string;
  /**
   * `pinned`: one exact version (or commit) runs; `unpinned`: whatever the registry has when it
   * starts; `local`: a path on this machine, nothing is downloaded.
   */
  readonly pin: 'pinned' | 'unpinned' | 'local';
}

/**
 * Why a remote server needs a sign-in: `required` (it has none, or its sign-in was refused),
 * `expired` (it was signed in; that sign-in no longer works and could not be refreshed), or
 * `more-access` (it answered `403 insufficient_scope`: the call needs scopes the sign-in lacks).
 */
export type SignInReason = 'required' | 'expired' | 'more-access';

/** The sign-in question for a remote server. Every string is cleaned and tag-neutralised. */
export interface SignInRequest {
  readonly server: string;
  readonly url: string;
  /** The origin of the sign-in page the browser will open. */
  readonly signInOrigin: string;
  /** The local callback address. */
  readonly callback: string;
  /** Why the sign-in is needed. */
  readonly reason: SignInReason;
  /** The scopes the sign-in asks for (empty when the sign-in page names none). */
  readonly scopes: readonly string[];
  /** `more-access`: the scopes the server asked for that the current sign-in lacks. */
  readonly addedScopes: readonly string[];
}

/**
 * The user interface of a host: the manager asks through it and never prints. Every question
 * may be cancelled through the signal.
 */
export interface Prompter {
  /**
   * Whether this prompter shows each question where it belongs, several at once (a gateway asks
   * each call's question in that call's own request). Then the manager asks every question as
   * it comes, and no question waits for another one's answer. Default `false`: one question at a
   * time, in order (a terminal shows one).
   */
  readonly concurrent?: boolean;
  /**
   * Asks whether a server may start, or whether its changed tools may be used: `'once'` (this
   * session), `'remember'` (stored), `'deny'`; anything else is a no.
   */
  consent(request: ConsentRequest, signal?: AbortSignal): ConsentReply | Promise<ConsentReply>;
  /** Tells the user something (a clash, a skipped tool, a changed user server, a stopped server). */
  notice(text: string): void;
  /**
   * Asks whether one tool call may run: the preview, with its server's risk tier, the approval
   * mode and why this call asks (`callPreviewText` words the preview). `true` runs it once;
   * `'always'`, where `request.remember` offers it, also remembers the answer for this tool;
   * anything else is a no.
   */
  approveCall(
    request: CallApprovalRequest,
    signal?: AbortSignal,
  ): CallApprovalReply | Promise<CallApprovalReply>;
  /** Asks whether to sign in to a remote server (remote servers only). */
  signIn?(request: SignInRequest, signal?: AbortSignal): Promise<boolean>;
  /**
   * For a browser on another machine: asked while a sign-in waits for its callback, resolves
   * with the address the browser ended on (pasted by the user), or `undefined` to keep waiting.
   * The signal aborts when the callback arrived first. Optional.
   */
  pasteRedirect?(request: SignInRequest, signal?: AbortSignal): Promise<string | undefined>;
  /**
   * Answers a server that asks the user something (MCP elicitation): a form to fill in (start
   * from `request.defaults`, let the user review and edit, `request.check` says what does not
   * fit) or a page to open (show `request.url` in full with `request.host` highlighted; warn on
   * `punycode` and `otherDomain`). `accept` sends the form's values, or opens the page through
   * the manager's opener. Optional: without it servers are told the client cannot ask.
   */
  elicit?(request: ElicitRequest, signal?: AbortSignal): ElicitReply | Promise<ElicitReply>;
}

/**
 * The sandbox a server runs in: bubblewrap or Seatbelt; `none` with why (cleaned, one line);
 * `remote` (no local process); `unknown` before `start()` detected it.
 */
export type SandboxStatus =
  | { readonly kind: 'bwrap' | 'seatbelt' }
  | { readonly kind: 'none'; readonly reason: string }
  | { readonly kind: 'remote' }
  | { readonly kind: 'unknown' };

/**
 * What a server reaches: a local server's network switch, or a remote server's URL (cleaned,
 * one line) and whether it is signed in with OAuth.
 */
export type NetworkStatus =
  | { readonly kind: 'local'; readonly allowed: boolean }
  | { readonly kind: 'remote'; readonly url: string; readonly signedIn: boolean };

/** One row of `status()`. */
export interface StatusRow {
  readonly name: string;
  readonly source: ServerSource;
  /**
   * Where its definition comes from, finer than `source`: `host` (the `servers` option), `user`,
   * `project`, `imported` (another client's project file). Decides who keeps a name that clashes.
   */
  readonly origin: ServerOrigin;
  readonly state: ServerState;
  /**
   * While it starts (`state` `starting`): the step it is at, `downloading` (its package runner
   * fetches its packages) or `starting` (its process starts, connects and lists its tools).
   */
  readonly step?: StartStep;
  /** Tools registered for the model (in `tools()`). */
  readonly tools: number;
  /** Tools of the server the user hid (`denyTools`, `allowTools`, `disable()`); `hiddenTools()` lists them. */
  readonly hiddenTools: number;
  /** Offered tools not in `tools()`: they wait behind `mcp_tool_search` (exposure search or proxy). */
  readonly heldTools: number;
  /** A connected server's exposure mode (`auto` decided). */
  readonly exposure?: ExposureMode;
  /** The risk tier of its calls, from the capabilities the user declared (undeclared: `high`). */
  readonly risk: RiskSummary;
  /** The sandbox it runs in (`remote` for a remote server); `sandboxText` words it. */
  readonly sandbox: SandboxStatus;
  /** Whether a local server may use the network, or a remote one's URL and sign-in; `networkText` words it. */
  readonly network: NetworkStatus;
  /** Why the server is failed or denied, cleaned (one line). */
  readonly detail?: string;
  /** A local server's own home folder (see the `sandbox.serverHomesDir` option); kept when it is removed. */
  readonly home?: string;
  /**
   * The names of its tools and prompts another server holds (compared without case; the host's
   * servers, then the user's, then the project's keep a name that clashes): not offered. A
   * connected server with any is degraded.
   */
  readonly lostNames: readonly LostName[];
}

/**
 * A change of what a server offers the model, told through the `onChange` option: its tools,
 * prompts or resources list changed (`tools()` and the other lists give the new one), or the
 * contents of one resource the host subscribed to. Every string in it is cleaned.
 */
export interface ServerChange {
  /** The server's name. */
  readonly server: string;
  readonly kind: 'tools' | 'prompts' | 'resources' | 'resource';
  /** `kind: 'resource'`: the URI whose contents changed (cleaned, one line). */
  readonly uri?: string;
  /**
   * `kind: 'resource'`: that URI as the server sent it, the one given to `subscribeResource()`
   * (not cleaned: compare it, never show it; two URIs may be shown alike).
   */
  readonly resourceUri?: string;
}

/**
 * How far a running call has come, from the server's progress notifications (asked for with the
 * call's `onProgress` option). Told at most once every 100 ms; every string in it is cleaned.
 */
export interface CallProgress {
  /** The server's name. */
  readonly server: string;
  /** The tool's model-facing name. */
  readonly tool: string;
  /** How far it is, as the server counts (a finite number that grows). */
  readonly progress: number;
  /** The total, when the server knows it. */
  readonly total?: number;
  /** The server's words about it (cleaned, one line, at most 200 code points). */
  readonly message?: string;
}

/** The levels of a server's log messages, least severe first (RFC 5424's, as MCP names them). */
export type ServerLogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * A log message a server sent (`notifications/message`), told through the `onServerLog` option:
 * cleaned, one line, and at most {@link MAX_SERVER_LOGS_PER_SECOND} a second per server (the
 * rest are counted, and told as one entry with `dropped`).
 */
export interface ServerLogEntry {
  /** The server's name. */
  readonly server: string;
  /** Its level (`info` when the server sent none the spec knows). */
  readonly level: ServerLogLevel;
  /** The logger name the server gave (cleaned, one line). */
  readonly logger?: string;
  /** The message (cleaned, one line, at most 500 code points); a JSON value is shown as JSON. */
  readonly text: string;
  /** On the entry that says messages were dropped: how many. */
  readonly dropped?: number;
}

/** An optional logger (the manager never prints). */
export interface ManagerLogger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** What `prompter.approveCall` is asked: the call's preview, its risk, and why it asks. */
export interface CallApprovalRequest extends CallPreview {
  /** Its server's tier and how the user declared it, e.g. `high (capabilities not declared)`. */
  readonly risk: { readonly tier: RiskTier; readonly text: string };
  /** The host's approval mode. */
  readonly mode: ApprovalMode;
  /** Why this call asks, e.g. `approval mode "ask" asks before every call`. */
  readonly why: string;
  /**
   * Whether "always allow this tool" may be answered (`'always'`): the grant is kept in the
   * trust store, bound to the server's definition, the capabilities declared for it and the
   * tool's input schema, so any change of those asks again. Never offered for a destructive
   * server's tool or one an ask rule covers.
   */
  readonly remember: boolean;
}

/** What `prompter.approveCall` answers: `true` (once), `'always'`, or anything else for no. */
export type CallApprovalReply = boolean | 'always';

/** How a call of `call()` was approved (on its result). */
export interface CallApproval {
  /** Whether the user was asked (and said yes). */
  readonly asked: boolean;
  /** Why it ran, e.g. `approval mode "balanced" runs low-risk (read-only) calls without asking`. */
  readonly why: string;
  /** The user chose "always allow": the grant was stored. */
  readonly remembered?: boolean;
}

/**
 * What `call()` returns: the formatted result (`text` for the model, `isError`, typed
 * `content`), and how the call was approved.
 */
export interface ManagerCallResult extends ToolCallResult {
  /** Whether the user was asked, and why it ran; absent on a result no call produced. */
  readonly approval?: CallApproval;
}
