// The two ends of a call: finding the tool a model named (or why it cannot be called), and
// running it on its server's connection with the result cleaned, wrapped and noted.
import { formatResult } from '@garuda/mcp-tools';
import type { SandboxInfo } from '@garuda/mcp-transport';
import path from 'node:path';
import { defHash, LIMITS as CONFIG_LIMITS, type ServerConfig } from '@garuda/mcp-config';
import { spillIfLarge } from './result-spill.js';
import { callSignal, type QuestionQueue } from '../common/abort.js';
import { CallLanes, callPaths } from './call-lanes.js';
import { sha256Json, sha256Text, type AuditEvent } from '@garuda/mcp-audit';
import type { AuditRecorder } from './audit-recorder.js';
import type { ServerConnection } from '../start/server-connection.js';
import { approveCall, type ToolGrantAccess } from './approve-call.js';
import { checkToolGrant, rememberToolGrant, type TrustStoreLike } from '@garuda/mcp-trust';
import { serverPolicy } from '../start/server-policy.js';
import { riskOf } from './risk-tier.js';
import { argumentsOf, type CallOptions } from './call-options.js';
import {
  CallCancelledError,
  CallDeclinedError,
  InvalidOptionsError,
  ManagerClosedError,
  ServerNotConnectedError,
  ServerStoppedError,
  ToolHiddenError,
  UnknownToolError,
} from '../errors.js';
import { unavailableReason } from '../status/notes.js';
import type { CheckedOptions } from '../options.js';
import { withDenialNote, withDenialNoteError } from '../launch/sandbox-denial-note.js';
import type { ServerRecord, ServerRegistry } from '../start/server-registry.js';
import { sameTool } from '../start/lazy-start.js';
import { hiddenText } from '../offer/tool-control.js';
import { ownerOf } from '../offer/tool-view.js';
import type { CallProgress, ManagerCallResult, McpTool } from '../types.js';

/** How a call ended, as the audit log says it. @internal */
export type CallOutcome = 'ok' | 'tool-error' | 'failed' | 'declined' | 'cancelled';

/** The cap a result is formatted with before it is cut to its server's `maxResultChars`. */
const FORMAT_CHARS = 8 * 1024 * 1024;

/**
 * The tool a model named. @internal
 *
 * @param registry - The manager's servers.
 * @param name - The name the model gave.
 * @param label - That name as a message shows it.
 * @returns The tool.
 * @throws {@link ServerNotConnectedError} when its server is not connected (naming its state),
 *   {@link ToolHiddenError} when the user hid it, {@link UnknownToolError} when no server has it.
 */
export function findTool(registry: ServerRegistry, name: unknown, label: string): McpTool {
  const tool = typeof name === 'string' ? registry.view().byName.get(name) : undefined;
  if (tool !== undefined) return tool;
  const hidden = registry.hidden().find((h) => h.name === name);
  if (hidden !== undefined) {
    throw new ToolHiddenError(
      hidden.name,
      hidden.reason,
      `MCP tool "${hidden.name}" is hidden by the user (${hiddenText(hidden)}), so it cannot be called. Use only the MCP tools you were given.`,
    );
  }
  const owner = typeof name === 'string' ? ownerOf(registry.records.values(), name) : undefined;
  if (owner !== undefined) {
    throw new ServerNotConnectedError(
      owner.name,
      owner.state,
      unavailableReason(owner.state, owner.detail),
    );
  }
  throw new UnknownToolError(String(name), label);
}

/**
 * The answer to a call of a tool that left the list while its server ran (removed, or held back
 * until the user allows a change): an error result naming the change; nothing is sent. @internal
 *
 * @param gone - The tool's server, MCP name and why it is gone.
 * @returns An `isError` result, wrapped like any other.
 */
export function goneResult(gone: {
  readonly server: string;
  readonly tool: string;
  readonly reason: string;
}): ManagerCallResult {
  const text = `This tool cannot be called: ${gone.reason}. Use the tools you have now.`;
  return formatResult(gone.server, gone.tool, { content: [{ type: 'text', text }], isError: true });
}

/** What running a call needs of the manager besides its servers. @internal */
export interface RunCallDeps {
  readonly options: CheckedOptions;
  readonly sandbox: SandboxInfo | undefined;
  readonly closed: () => boolean;
  /** Aborts when the manager closes. */
  readonly lifetime: AbortSignal;
}

/**
 * Runs an approved call on its server, which may have stopped while the user was deciding. A
 * sandboxed server's error about a file the sandbox kept from it gets a note saying so. @internal
 *
 * @param registry - The manager's servers.
 * @param tool - The tool.
 * @param input - Its arguments.
 * @param deps - The options, the sandbox, whether the manager closed.
 * @param options - The caller's signal, and where the call's progress goes.
 * @returns The formatted result.
 */
export async function runCall(
  registry: ServerRegistry,
  tool: McpTool,
  input: Record<string, unknown>,
  deps: RunCallDeps,
  options: {
    readonly signal: AbortSignal | undefined;
    readonly onProgress: ((progress: CallProgress) => void) | undefined;
  },
): Promise<ManagerCallResult> {
  const { signal, onProgress } = options;
  const record = registry.records.get(tool.server);
  const connection = registry.connections.get(tool.server);
  if (deps.closed()) throw new ManagerClosedError(`the call of ${tool.name}`);
  if (record === undefined || connection === undefined || record.state !== 'connected') {
    const state = record?.state ?? 'stopped';
    throw new ServerNotConnectedError(tool.server, state, unavailableReason(state, record?.detail));
  }
  const denial = { server: record.config, sandbox: deps.sandbox, options: deps.options };
  const release = await enterLane(registry, record.config, connection, input, deps, signal, tool);
  try {
    const result = await connection.call(tool.tool, tool.name, input, {
      signal,
      timeoutMs: record.config.def.timeoutMs,
      onProgress,
    });
    return await frameCallResult(tool, result, record.config, deps);
  } catch (error) {
    if (deps.closed() && ServerStoppedError.isInstance(error)) {
      throw new ManagerClosedError(`the call of ${tool.name}`);
    }
    throw withDenialNoteError(error, tool.name, denial);
  } finally {
    release();
  }
}

/**
 * A server's result as a call's caller gets it: formatted whole (the message cap bounds it),
 * cut to the server's `maxResultChars` with the rest spilled to a file, and an error a sandbox
 * caused noted. @internal
 *
 * @param tool - The tool.
 * @param result - The server's result (unchecked: the formatter copes with any shape).
 * @param config - Its server's configuration.
 * @param deps - The options and the sandbox.
 * @returns The framed result.
 */
export async function frameCallResult(
  tool: McpTool,
  result: unknown,
  config: ServerConfig,
  deps: Pick<RunCallDeps, 'options' | 'sandbox'>,
): Promise<ManagerCallResult> {
  const formatted = formatResult(tool.server, tool.tool, result, { maxChars: FORMAT_CHARS });
  const text = await spillIfLarge(
    formatted.text,
    config.def.maxResultChars ?? CONFIG_LIMITS.defaultMaxResultChars,
    tool,
    { dir: path.join(deps.options.home, 'spill') },
  );
  return withDenialNote(
    { ...formatted, text },
    { server: config, sandbox: deps.sandbox, options: deps.options },
  );
}

/**
 * Waits for the call's turn on its server (see call-lanes.ts): after every earlier call it
 * conflicts with, all of them for a `serialized` server. @internal
 */
async function enterLane(
  registry: ServerRegistry,
  config: ServerConfig,
  connection: ServerConnection,
  input: Record<string, unknown>,
  deps: RunCallDeps,
  signal: AbortSignal | undefined,
  tool: McpTool,
): Promise<() => void> {
  // How calls of a server overlap is decided once, in riskOf (the consent screen shows the same).
  const { batching } = riskOf(config);
  if (batching === 'parallel') return () => {};
  let lanes = registry.lanes.get(connection);
  if (lanes === undefined) {
    lanes = new CallLanes();
    registry.lanes.set(connection, lanes);
  }
  const base =
    config.kind === 'local' && config.def.cwd !== undefined
      ? path.resolve(deps.options.root, config.def.cwd)
      : deps.options.root;
  const paths = batching === 'path_scoped' ? callPaths(input, base) : undefined;
  const waiting = callSignal(signal, deps.lifetime);
  try {
    return await lanes.enter(paths, waiting.signal);
  } catch (error) {
    if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });
    if (deps.closed()) throw new ManagerClosedError(`the call of ${tool.name}`);
    throw error;
  } finally {
    waiting.detach();
  }
}

/**
 * The first use of a `ready` server: starts it (the pin check runs before anything is sent) and
 * returns an error result, with nothing sent, when the tool the model called is not the one its
 * cached list described: changed since, or gone. `undefined` when the call may go on. @internal
 */
async function wakeFor(
  registry: ServerRegistry,
  tool: McpTool,
  record: ServerRecord,
  deps: CallToolDeps,
  signal: AbortSignal | undefined,
): Promise<ManagerCallResult | undefined> {
  const cached = record.raw;
  try {
    await deps.wake(record, signal);
  } catch (error) {
    if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });
    throw error;
  }
  if (record.state !== 'connected' || sameTool(tool.tool, cached, record.raw)) return undefined;
  const what = record.raw.some((listed) => listed.name === tool.tool)
    ? 'changed it since its tools were last listed'
    : 'no longer lists it';
  const text = `This tool was not called: MCP server "${record.name}" ${what}, and the tool you were given was its old definition. Use the tools you have now.`;
  return formatResult(tool.server, tool.tool, { content: [{ type: 'text', text }], isError: true });
}

/** What `call()` needs of the manager: {@link RunCallDeps} and the approval's parts. @internal */
export interface CallToolDeps extends RunCallDeps {
  /** Starts a `ready` server (its first use) and waits for it, or for the caller's signal. */
  readonly wake: (record: ServerRecord, signal: AbortSignal | undefined) => Promise<void>;
  readonly questions: QuestionQueue;
  readonly audit: AuditRecorder;
  /** Where "always allow" grants are kept (the trust store). */
  readonly store: TrustStoreLike;
  readonly notice: (text: string) => void;
}

/** Each configuration's trust key (for the root it was worked out for): asked on every call. */
const trustKeys = new WeakMap<ServerConfig, { readonly root: string; readonly key: string }>();

function trustKeyOf(config: ServerConfig, root: string): string {
  const known = trustKeys.get(config);
  if (known !== undefined && known.root === root) return known.key;
  const key = serverPolicy(config, root).trustKey;
  trustKeys.set(config, { root, key });
  return key;
}

/**
 * Each configuration's definition hash, worked out once: a grant is checked on every call, and
 * hashing the definition was most of that check. A configuration is never changed in place (a
 * reload makes new ones), so its object stands for its definition.
 */
const defHashes = new WeakMap<ServerConfig, string>();

function defHashOf(config: ServerConfig): string {
  let hash = defHashes.get(config);
  if (hash === undefined) {
    hash = defHash(config.def);
    defHashes.set(config, hash);
  }
  return hash;
}

/**
 * The grant of one tool, bound to its server's definition, the capabilities the user declared
 * and the input schema the server listed (not the cleaned one the model reads: a change the
 * cleaning would hide must still ask again). `undefined` when the raw tool is not known.
 */
function grantOf(
  registry: ServerRegistry,
  tool: McpTool,
  config: ServerConfig,
  deps: CallToolDeps,
): ToolGrantAccess | undefined {
  const raw = registry.records.get(tool.server)?.raw.find((listed) => listed.name === tool.tool);
  if (raw === undefined) return undefined;
  // Worked out only when the approval reaches the grant (a rule or the mode decides first).
  const key = () => trustKeyOf(config, deps.options.root);
  const binding = () => ({
    def: defHashOf(config),
    capabilities: config.def.capabilities,
    inputSchema: raw.inputSchema,
  });
  return {
    check: () => checkToolGrant(deps.store, key(), tool.tool, binding()),
    remember: async () => {
      await rememberToolGrant(deps.store, key(), tool.tool, binding());
    },
  };
}

/**
 * A call the user approved: the tool, its arguments and the approval, and how its end is
 * audited (once, with the text the caller was given). @internal
 */
export interface ApprovedCall {
  readonly tool: McpTool;
  readonly input: Record<string, unknown>;
  readonly approval: Awaited<ReturnType<typeof approveCall>>;
  /** Its server's configuration when it was approved. */
  readonly config: ServerConfig;
  /** Records the call's end in the audit log (`text`: the result the caller got). */
  readonly audit: (outcome: CallOutcome, text?: string) => void;
}

/**
 * `call()` once the manager is usable: a removed tool's clean error result, else the tool, its
 * arguments checked, the approval, and the run. @internal
 */
export async function callTool(
  registry: ServerRegistry,
  name: string,
  label: string,
  args: unknown,
  options: CallOptions,
  deps: CallToolDeps,
): Promise<ManagerCallResult> {
  const approved = await approveToolCall(registry, name, label, args, options, deps);
  if ('text' in approved) return approved;
  const { tool, input, approval, audit } = approved;
  try {
    const { signal, onProgress } = options;
    const result = await runCall(registry, tool, input, deps, { signal, onProgress });
    audit(result.isError ? 'tool-error' : 'ok', result.text);
    return { ...result, approval };
  } catch (error) {
    audit(CallCancelledError.isInstance(error) ? 'cancelled' : 'failed');
    throw error;
  }
}

/**
 * The first phase of a call (of `call()`, and of a call that may become a task): a removed or
 * changed tool's clean error result, else the tool, its arguments checked, and the approval
 * (audited). @internal
 *
 * @throws As `call()` does before anything is sent.
 */
export async function approveToolCall(
  registry: ServerRegistry,
  name: string,
  label: string,
  args: unknown,
  options: CallOptions,
  deps: CallToolDeps,
): Promise<ApprovedCall | ManagerCallResult> {
  const gone = typeof name === 'string' ? registry.goneTool(name) : undefined;
  if (gone !== undefined) return goneResult(gone);
  let tool = findTool(registry, name, label);
  const input = argumentsOf(args, tool.name);
  const { signal, onProgress } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new InvalidOptionsError('onProgress', 'must be a function (progress)');
  }
  if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });
  const waking = registry.records.get(tool.server);
  if (waking !== undefined && (waking.state === 'ready' || waking.waking !== undefined)) {
    const changed = await wakeFor(registry, tool, waking, deps, signal);
    if (changed !== undefined) return changed;
    // Its start ran the pin check: the tool as it is now, or why it cannot be called.
    tool = findTool(registry, name, label);
  }
  const { options: checked, questions, lifetime, closed } = deps;
  const config = registry.records.get(tool.server)?.config;
  if (config === undefined)
    throw new ServerNotConnectedError(
      tool.server,
      'stopped',
      unavailableReason('stopped', undefined),
    );
  const approvalDeps = {
    rules: checked.rules,
    approvalMode: checked.approvalMode,
    prompter: checked.prompter,
    questions,
    lifetime,
    closed,
    notice: deps.notice,
  };
  const started = performance.now();
  const base = { server: tool.server, tool: tool.tool };
  const call = (outcome: CallOutcome, text?: string): AuditEvent => ({
    kind: 'call',
    ...base,
    outcome,
    argsSha256: sha256Json(input),
    ...(text === undefined ? {} : { resultSha256: sha256Text(text) }),
    durationMs: Math.round(performance.now() - started),
    // Text only when the host opted in: no serialising of every call's arguments for nothing.
    ...(deps.audit.includesText
      ? { argsText: JSON.stringify(input), ...(text === undefined ? {} : { resultText: text }) }
      : {}),
  });
  let approval;
  try {
    const grant = grantOf(registry, tool, config, deps);
    approval = await approveCall(tool, config, input, approvalDeps, grant, signal);
  } catch (error) {
    if (CallDeclinedError.isInstance(error)) {
      const { rule } = error as CallDeclinedError;
      deps.audit.record({
        kind: 'approval',
        ...base,
        ...(rule === undefined
          ? { decision: 'declined', why: 'the user declined it' }
          : { decision: 'denied', why: `the deny rule ${JSON.stringify(rule)} matches it` }),
      });
      deps.audit.record(call('declined'));
    }
    throw error;
  }
  deps.audit.record({
    kind: 'approval',
    ...base,
    decision: !approval.asked ? 'auto' : approval.remembered === true ? 'always' : 'approved',
    why: approval.why,
  });
  return {
    tool,
    input,
    approval,
    config,
    audit: (outcome, text) => deps.audit.record(call(outcome, text)),
  };
}
