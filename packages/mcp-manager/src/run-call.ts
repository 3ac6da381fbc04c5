// The two ends of a call: finding the tool a model named (or why it cannot be called), and
// running it on its server's connection with the result cleaned, wrapped and noted.
import { formatResult } from '@garuda/mcp-tools';
import type { SandboxInfo } from '@garuda/mcp-transport';
import type { QuestionQueue } from './abort.js';
import { approveCall } from './approve-call.js';
import { argumentsOf, type CallOptions } from './call-options.js';
import {
  CallCancelledError,
  InvalidOptionsError,
  ManagerClosedError,
  ServerNotConnectedError,
  ServerStoppedError,
  UnknownToolError,
} from './errors.js';
import { unavailableReason } from './notes.js';
import type { CheckedOptions } from './options.js';
import { withDenialNote, withDenialNoteError } from './sandbox-denial-note.js';
import type { ServerRegistry } from './server-registry.js';
import { ownerOf } from './tool-view.js';
import type { CallProgress, CallResult, McpTool } from './types.js';

/**
 * The tool a model named. @internal
 *
 * @param registry - The manager's servers.
 * @param name - The name the model gave.
 * @param label - That name as a message shows it.
 * @returns The tool.
 * @throws {@link ServerNotConnectedError} when its server is not connected (naming its state),
 *   {@link UnknownToolError} when no server has it.
 */
export function findTool(registry: ServerRegistry, name: unknown, label: string): McpTool {
  const tool = typeof name === 'string' ? registry.view().byName.get(name) : undefined;
  if (tool !== undefined) return tool;
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
}): CallResult {
  const text = `This tool cannot be called: ${gone.reason}. Use the tools you have now.`;
  return formatResult(gone.server, gone.tool, { content: [{ type: 'text', text }], isError: true });
}

/** What running a call needs of the manager besides its servers. @internal */
export interface RunCallDeps {
  readonly options: CheckedOptions;
  readonly sandbox: SandboxInfo | undefined;
  readonly closed: () => boolean;
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
): Promise<CallResult> {
  const { signal, onProgress } = options;
  const record = registry.records.get(tool.server);
  const connection = registry.connections.get(tool.server);
  if (deps.closed()) throw new ManagerClosedError(`the call of ${tool.name}`);
  if (record === undefined || connection === undefined || record.state !== 'connected') {
    const state = record?.state ?? 'stopped';
    throw new ServerNotConnectedError(tool.server, state, unavailableReason(state, record?.detail));
  }
  const denial = { server: record.config, sandbox: deps.sandbox, options: deps.options };
  try {
    const result = await connection.call(tool.tool, tool.name, input, {
      signal,
      timeoutMs: record.config.def.timeoutMs,
      onProgress,
    });
    return withDenialNote(formatResult(tool.server, tool.tool, result), denial);
  } catch (error) {
    if (deps.closed() && ServerStoppedError.isInstance(error)) {
      throw new ManagerClosedError(`the call of ${tool.name}`);
    }
    throw withDenialNoteError(error, tool.name, denial);
  }
}

/** What `call()` needs of the manager: {@link RunCallDeps} and the approval's parts. @internal */
export interface CallToolDeps extends RunCallDeps {
  readonly questions: QuestionQueue;
  readonly lifetime: AbortSignal;
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
): Promise<CallResult> {
  const gone = typeof name === 'string' ? registry.goneTool(name) : undefined;
  if (gone !== undefined) return goneResult(gone);
  const tool = findTool(registry, name, label);
  const input = argumentsOf(args, tool.name);
  const { signal, onProgress } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new InvalidOptionsError('onProgress', 'must be a function (progress)');
  }
  if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });
  const { options: checked, questions, lifetime, closed } = deps;
  const approval = { allowRules: checked.allowRules, prompter: checked.prompter, questions };
  await approveCall(tool, input, { ...approval, lifetime, closed }, signal);
  return runCall(registry, tool, input, deps, { signal, onProgress });
}
