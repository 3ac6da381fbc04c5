// The tasks extension (io.modelcontextprotocol/tasks, protocol 2026-07-28) through the gateway:
// a host that declares it may get a task from `tools/call` (approved like any call, at once);
// `tasks/get` and `tasks/cancel` reach the server that made the task, through the manager's id
// for it, which the gateway gave this host. Results are the manager's: cleaned and framed.
import { RELATED_TASK_META_KEY, stampedMeta } from './meta.js';
import { McpManagerError, UnknownTaskError, type McpTask } from '@garuda/mcp-manager';
import {
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { Offered } from './offered.js';
import { hostBlocks } from './typed-blocks.js';

/** The extension's id, as capabilities name it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where a 2026-07-28 request carries the host's capabilities. */
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** The task ids the gateway remembers having given; the oldest is forgotten past this. */
const MAX_GIVEN = 512;

/**
 * The related-task metadata of a message (the one place the gateway reads or writes it, so the
 * relay of `_meta` keys can hold it): whether the host's `_meta` names `taskId`, and the `_meta`
 * entry naming `taskId` for an answer.
 */
export const relatedTask = {
  names(meta: unknown, taskId: string): boolean {
    if (typeof meta !== 'object' || meta === null) return false;
    const related = (meta as Record<string, unknown>)[RELATED_TASK_META_KEY];
    return (
      typeof related === 'object' &&
      related !== null &&
      (related as Record<string, unknown>).taskId === taskId
    );
  },
  meta(taskId: string): Record<string, unknown> {
    return stampedMeta({ relatedTaskId: taskId }) ?? {};
  },
};

/** Whether the host's request declares the tasks extension (2026-07-28 hosts only). */
export function hostRunsTasks(requestContext: ServerContext): boolean {
  const envelope = requestContext.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_KEY] as
    { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The task ids this gateway gave its hosts (a task the manager's owner made is not theirs). */
export class GivenTasks {
  readonly #ids = new Set<string>();

  give(task: McpTask): void {
    this.#ids.add(task.taskId);
    if (this.#ids.size > MAX_GIVEN) {
      const oldest = this.#ids.values().next();
      if (oldest.done !== true) this.#ids.delete(oldest.value);
    }
  }

  has(taskId: string): boolean {
    return this.#ids.has(taskId);
  }
}

/** A task as the host gets it: from `tools/call` (`resultType: "task"`) and from `tasks/get`. */
export function hostTask(task: McpTask): Record<string, unknown> {
  const { result } = task;
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs === undefined ? {} : { pollIntervalMs: task.pollIntervalMs }),
    ...(task.status === 'completed' && result !== undefined
      ? {
          result: {
            resultType: 'complete',
            content: [{ type: 'text', text: result.text }, ...hostBlocks(result.content)],
            isError: result.isError,
            ...(task.related ? { _meta: relatedTask.meta(task.taskId) } : {}),
          },
        }
      : {}),
    // The server's own questions are not passed on (no tasks/update): the status says that it
    // waits, with none the host could answer.
    ...(task.status === 'input_required' ? { inputRequests: {} } : {}),
    ...(task.status === 'failed'
      ? { error: { code: ProtocolErrorCode.InternalError, message: result?.text ?? 'failed' } }
      : {}),
    ...(task.related ? { _meta: relatedTask.meta(task.taskId) } : {}),
  };
}

/** `{ taskId }` params, as the SDK checks a custom method's params. */
const TASK_ID_PARAMS: StandardSchemaV1<unknown, { taskId: string; _meta?: unknown }> = {
  '~standard': {
    version: 1,
    vendor: 'garuda',
    validate: (value) => {
      const params = value as { taskId?: unknown; _meta?: unknown } | null;
      return typeof params === 'object' && params !== null && typeof params.taskId === 'string'
        ? { value: { taskId: params.taskId, _meta: params._meta } }
        : { issues: [{ message: 'params.taskId must be a string' }] };
    },
  },
};

/**
 * Answers `tasks/get` and `tasks/cancel` on `server` for the tasks this gateway gave. An id it
 * did not give (or another server's id) is refused before anything is sent; the server's own
 * time limit and the host's cancel bound the wait.
 */
export function offerTasks(offered: Offered & { readonly given: GivenTasks }): void {
  const { server, mcp, signal, given } = offered;
  const known = (taskId: string) => {
    if (!given.has(taskId)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No task ${JSON.stringify(taskId.slice(0, 80))} was started through this gateway: use ` +
          'the id a tools/call answered with.',
      );
    }
  };
  const options = (params: { taskId: string; _meta?: unknown }, ctx: ServerContext) => ({
    signal: AbortSignal.any([signal, ctx.mcpReq.signal]),
    related: relatedTask.names(params._meta, params.taskId),
  });
  server.setRequestHandler('tasks/get', { params: TASK_ID_PARAMS }, async (params, ctx) => {
    known(params.taskId);
    return refusedAs(async () => hostTask(await mcp.getTask(params.taskId, options(params, ctx))));
  });
  server.setRequestHandler('tasks/cancel', { params: TASK_ID_PARAMS }, async (params, ctx) => {
    known(params.taskId);
    return refusedAs(async () => {
      await mcp.cancelTask(params.taskId, options(params, ctx));
      return {};
    });
  });
}

/** The manager's refusals and failures as JSON-RPC errors with its (cleaned) message. */
async function refusedAs<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (UnknownTaskError.isInstance(error)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    }
    if (McpManagerError.isInstance(error)) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    }
    throw error;
  }
}
