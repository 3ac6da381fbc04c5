// Calls that a server runs as tasks (the tasks extension, io.modelcontextprotocol/tasks, on the
// 2026-07-28 protocol): approved once, when the task is created, like any call; then its status
// and result are asked of the server that made it, through the manager's own id for the task.
import { randomUUID } from 'node:crypto';
import { capText, cleanLine } from '@garuda/mcp-sanitize';
import { formatResult } from '@garuda/mcp-tools';
import { isRecord } from '@garuda/internal';
import type * as TasksV2 from '@modelcontextprotocol/ext-tasks/core/v2';
import type { TaskStatusV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { CallCancelledError, CallFailedError, ServerStoppedError } from '../errors.js';
import { UnknownTaskError } from './task-errors.js';
import type { ServerConnection } from '../start/server-connection.js';
import type { ServerRegistry } from '../start/server-registry.js';
import type { CallOptions } from './call-options.js';
import {
  approveToolCall,
  callTool,
  frameCallResult,
  runCall,
  type ApprovedCall,
  type CallOutcome,
  type CallToolDeps,
  type RunCallDeps,
} from './run-call.js';
import type { CallApproval, ManagerCallResult } from '../types.js';

/** The `_meta` key that names the task a message is about. */
const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';
/** The tasks the manager remembers; the oldest is forgotten when another comes. */
const MAX_TASKS = 512;
/** The longest status message kept (one line). */
const MAX_STATUS_CHARS = 500;

/** Where a task is in its life (the tasks extension's statuses). */
export type TaskStatus = TaskStatusV2;

/** A task a server runs for a call, as {@link McpManager.callTask} and `getTask` tell it. */
export interface McpTask {
  /** The manager's id of the task (not the server's): what `getTask` and `cancelTask` take. */
  readonly taskId: string;
  /** The server that runs it. */
  readonly server: string;
  /** The tool (model-facing name). */
  readonly tool: string;
  readonly status: TaskStatus;
  /** The server's status message, cleaned to one line. */
  readonly statusMessage?: string;
  /** When the server created it and last changed it (ISO 8601, as the server said, cleaned). */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** How long the server keeps it after it was created (`null`: no limit). */
  readonly ttlMs: number | null;
  /** How often the server suggests asking for its status. */
  readonly pollIntervalMs?: number;
  /**
   * `completed`: the result, cleaned, capped and framed like `call()`'s. `failed`: the server's
   * error as an `isError` result, framed the same way.
   */
  readonly result?: ManagerCallResult;
  /** Whether the server's answer named this task in related-task metadata (`_meta`). */
  readonly related: boolean;
}

/** What {@link McpManager.callTask} returns: the result at once, or the task that will make it. */
export type TaskCallResult =
  | { readonly kind: 'result'; readonly result: ManagerCallResult }
  | { readonly kind: 'task'; readonly task: McpTask; readonly approval: CallApproval };

/** Options of `getTask` and `cancelTask`. */
export interface TaskRequestOptions {
  /** Cancels the wait for the server's answer (the task itself goes on). */
  readonly signal?: AbortSignal;
  /**
   * The caller's request named this task in related-task metadata: the server's request names
   * it too (by the server's own id).
   */
  readonly related?: boolean;
}

/** One task the manager gave an id to. */
interface Entry {
  readonly approved: ApprovedCall;
  readonly serverTaskId: string;
  /** The connection that made it: a task never outlives it (nor reaches another). */
  readonly connection: ServerConnection;
  /** Whether its end was audited (once, at the first answer that tells it). */
  ended: boolean;
}

/** The tasks extension's shape checks, loaded with the first task (a manager may run none). */
function taskShapes(): Promise<typeof TasksV2> {
  return import('@modelcontextprotocol/ext-tasks/core/v2');
}

/** The tasks of one manager, by the manager's ids. @internal */
export class TaskBook {
  readonly #entries = new Map<string, Entry>();

  add(entry: Entry): string {
    const id = randomUUID();
    this.#entries.set(id, entry);
    if (this.#entries.size > MAX_TASKS) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    return id;
  }

  /** The task of `id` on the connection that made it, still running. */
  find(registry: ServerRegistry, id: unknown): { readonly id: string; readonly entry: Entry } {
    const given = typeof id === 'string' ? id : String(id);
    const entry = this.#entries.get(given);
    if (entry === undefined) {
      throw new UnknownTaskError(given, 'that was started through this manager');
    }
    if (registry.connections.get(entry.approved.tool.server) !== entry.connection) {
      this.#entries.delete(given);
      throw new UnknownTaskError(given, 'any more: its server stopped, and its tasks with it');
    }
    return { id: given, entry };
  }
}

/**
 * `callTask()`: approved like `call()` (the same rules, questions, grants and audit); a server
 * that runs tasks gets the call with the tasks extension declared and may answer with a task,
 * any other server gets a plain call. @internal
 */
export async function callTask(
  registry: ServerRegistry,
  target: { readonly name: string; readonly label: string; readonly args: unknown },
  options: CallOptions,
  deps: CallToolDeps,
  book: TaskBook,
): Promise<TaskCallResult> {
  const { name, label, args } = target;
  const connection = registry.connections.get(registry.view().byName.get(name)?.server ?? '');
  if (connection === undefined || !connection.runsTasks) {
    return { kind: 'result', result: await callTool(registry, name, label, args, options, deps) };
  }
  const approved = await approveToolCall(registry, name, label, args, options, deps);
  if ('text' in approved) return { kind: 'result', result: approved };
  const { tool, input, approval, audit } = approved;
  const record = registry.records.get(tool.server);
  // The approval may have taken a while: the server it was asked about must still be there.
  if (record === undefined || registry.connections.get(tool.server) !== connection) {
    audit('failed');
    throw new ServerStoppedError(tool.name, tool.server, 'it stopped while the call waited');
  }
  try {
    const answer = await connection.taskRequest(
      `the call of ${tool.name}`,
      'tools/call',
      { name: tool.tool, arguments: input },
      { signal: options.signal, timeoutMs: record.config.def.timeoutMs },
    );
    if (answer.resultType === 'input_required') {
      // A question before anything ran: asked again as a plain call (already approved), whose
      // questions the SDK carries (this request went beside it).
      const { signal, onProgress } = options;
      const result = await runCall(registry, tool, input, deps, { signal, onProgress });
      audit(result.isError ? 'tool-error' : 'ok', result.text);
      return { kind: 'result', result: { ...result, approval } };
    }
    if (answer.resultType !== 'task') {
      const result = await frameCallResult(tool, answer, record.config, deps);
      audit(result.isError ? 'tool-error' : 'ok', result.text);
      return { kind: 'result', result: { ...result, approval } };
    }
    const { isCreateTaskResultV2 } = await taskShapes();
    if (!isCreateTaskResultV2(answer)) {
      throw new CallFailedError(
        tool.name,
        `MCP server "${tool.server}" answered with a task that is not well formed`,
      );
    }
    const entry: Entry = { approved, serverTaskId: answer.taskId, connection, ended: false };
    const id = book.add(entry);
    return { kind: 'task', task: await taskView(id, entry, answer, deps), approval };
  } catch (error) {
    audit(CallCancelledError.isInstance(error) ? 'cancelled' : 'failed');
    throw error;
  }
}

/**
 * `getTask()`: the task's status, asked of the server that made it; its result once completed.
 * @internal
 */
export async function getTask(
  registry: ServerRegistry,
  book: TaskBook,
  taskId: unknown,
  options: TaskRequestOptions,
  deps: Pick<RunCallDeps, 'options' | 'sandbox'>,
): Promise<McpTask> {
  const { id, entry } = book.find(registry, taskId);
  const answer = await ask(registry, entry, 'tasks/get', options);
  const { isDetailedTaskV2 } = await taskShapes();
  if (!isDetailedTaskV2(answer) || answer.taskId !== entry.serverTaskId) {
    throw new CallFailedError(
      entry.approved.tool.name,
      `MCP server "${entry.approved.tool.server}" answered with a task status that is not well formed`,
    );
  }
  return taskView(id, entry, answer, deps);
}

/**
 * `cancelTask()`: asks the server that made the task to cancel it (its status tells when it
 * did). @internal
 */
export async function cancelTask(
  registry: ServerRegistry,
  book: TaskBook,
  taskId: unknown,
  options: TaskRequestOptions,
): Promise<void> {
  const { entry } = book.find(registry, taskId);
  await ask(registry, entry, 'tasks/cancel', options);
}

/** Sends one `tasks/*` request about `entry` to its server, under the server's time limit. */
async function ask(
  registry: ServerRegistry,
  entry: Entry,
  method: 'tasks/get' | 'tasks/cancel',
  options: TaskRequestOptions,
): Promise<Record<string, unknown>> {
  const { tool } = entry.approved;
  const timeoutMs = registry.records.get(tool.server)?.config.def.timeoutMs ?? 60_000;
  const related = options.related === true ? { _meta: relatedTaskMeta(entry.serverTaskId) } : {};
  return entry.connection.taskRequest(
    `${method} of a task of ${tool.name}`,
    method,
    { taskId: entry.serverTaskId, ...related },
    { signal: options.signal, timeoutMs },
  );
}

/** The related-task `_meta` entry naming `taskId`. */
function relatedTaskMeta(taskId: string): Record<string, unknown> {
  return { [RELATED_TASK_KEY]: { taskId } };
}

/** Whether `value` (an answer or a result) names `taskId` in its related-task `_meta`. */
function namesTask(value: unknown, taskId: string): boolean {
  if (!isRecord(value) || !isRecord(value._meta)) return false;
  const related = value._meta[RELATED_TASK_KEY];
  return isRecord(related) && related.taskId === taskId;
}

/** The task as the manager's caller sees it: cleaned, the result framed, the end audited once. */
async function taskView(
  id: string,
  entry: Entry,
  answer: Record<string, unknown> & { readonly status: TaskStatus },
  deps: Pick<RunCallDeps, 'options' | 'sandbox'>,
): Promise<McpTask> {
  const { tool, audit } = entry.approved;
  let result: ManagerCallResult | undefined;
  if (answer.status === 'completed') {
    result = await frameCallResult(tool, answer.result, entry.approved.config, deps);
  } else if (answer.status === 'failed') {
    const error = isRecord(answer.error) ? answer.error : {};
    const message = typeof error.message === 'string' ? error.message : 'no reason given';
    const text = `The task failed: ${message}`;
    result = formatResult(tool.server, tool.tool, {
      content: [{ type: 'text', text }],
      isError: true,
    });
  }
  endOnce(entry, answer.status, result, audit);
  const line = (value: unknown, max: number) => capText(cleanLine(String(value)), max);
  return {
    taskId: id,
    server: tool.server,
    tool: tool.name,
    status: answer.status,
    ...(typeof answer.statusMessage === 'string'
      ? { statusMessage: line(answer.statusMessage, MAX_STATUS_CHARS) }
      : {}),
    createdAt: line(answer.createdAt, 64),
    lastUpdatedAt: line(answer.lastUpdatedAt, 64),
    ttlMs: typeof answer.ttlMs === 'number' ? answer.ttlMs : null,
    ...(typeof answer.pollIntervalMs === 'number' ? { pollIntervalMs: answer.pollIntervalMs } : {}),
    ...(result === undefined ? {} : { result }),
    related: namesTask(answer, entry.serverTaskId) || namesTask(answer.result, entry.serverTaskId),
  };
}

/** Records the task's end in the audit log, the first time an answer tells it. */
function endOnce(
  entry: Entry,
  status: TaskStatus,
  result: ManagerCallResult | undefined,
  audit: (outcome: CallOutcome, text?: string) => void,
): void {
  if (entry.ended) return;
  const outcome: CallOutcome | undefined =
    status === 'completed'
      ? result?.isError === true
        ? 'tool-error'
        : 'ok'
      : status === 'failed'
        ? 'failed'
        : status === 'cancelled'
          ? 'cancelled'
          : undefined;
  if (outcome === undefined) return;
  entry.ended = true;
  audit(outcome, result?.text);
}
