// How the gateway offers the manager's tools: names without the manager's `mcp__` prefix, and
// the manager's notes after a call's result.
import {
  CallCancelledError,
  CallDeclinedError,
  McpManagerError,
  type CallProgress,
  type McpManager,
} from '@garuda/mcp-manager';
import { type McpTool } from '@garuda/mcp-tools';
import type { GatewayApprovals } from '../gateway.js';
import { declinedText, hostAnswerOf } from '../questions/approve-call.js';
import {
  hostAsks,
  type Conversation,
  type Conversations,
  type ToolResult,
} from '../questions/conversations.js';
import type { ServerCalls } from '../questions/forward-elicitation.js';
import { REVIEW_TOOL, type Review } from '../review/review.js';
import type { GatewayTexts } from '../texts.js';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { HostLogs } from './logging.js';
import type { Offered } from './offered.js';
import { appCallTarget, appHostTools, hostRendersApps, toolUiMeta } from './apps.js';
import { hostRunsTasks, hostTask, type GivenTasks } from './tasks.js';
import { hostToolName, type ToolIndex } from './tool-index.js';
import { hostBlocks } from './typed-blocks.js';
import { linkedSignal } from './linked-signal.js';

/**
 * A manager tool as the host lists it; `meta` is the tool's `_meta` for the host (MCP Apps: see
 * apps.ts), when it has one.
 */
export function hostTool(tool: McpTool, meta?: Record<string, unknown>) {
  return {
    name: hostToolName(tool.name),
    description: tool.description,
    inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
    ...(meta === undefined ? {} : { _meta: meta }),
  };
}

/**
 * The manager's tool behind a host's tool name, among the tools offered now; for a host that
 * renders MCP Apps also the app-only tools, and a tool an app names by its server's own name.
 */
export function findTool(mcp: McpManager, name: string, apps = false): McpTool | undefined {
  const listed = apps ? appHostTools(mcp) : mcp.tools();
  const tool = listed.find((entry) => hostToolName(entry.name) === name);
  return tool ?? (apps ? appCallTarget(mcp, name) : undefined);
}

/**
 * The manager's notes the model has not seen (a server it cannot use, a server degraded because
 * another holds some of its names), each as a `<garuda_note>` text block after a call's result.
 * The manager cleans and tag-neutralises them.
 */
export function noteBlocks(mcp: McpManager) {
  return mcp
    .takeNotes()
    .map((note) => ({ type: 'text' as const, text: `<garuda_note>${note}</garuda_note>` }));
}

/** What the tool handlers need besides the list's basics. */
export interface ToolsOffered extends Offered {
  readonly approvals: GatewayApprovals;
  readonly conversations: Conversations;
  readonly serverCalls: ServerCalls;
  readonly review: Review;
  readonly texts: GatewayTexts;
  /** The host answers requests on this connection (a 2025 host on a connection that lasts). */
  readonly hostAnswers: boolean;
  readonly hostLogs: HostLogs;
  /** The task ids given to hosts (tasks.ts): a host that declares the extension may get a task. */
  readonly given: GivenTasks;
  /** The manager's tools by host name (a call's lookup). */
  readonly toolIndex: ToolIndex;
}

/**
 * Answers `tools/list` and `tools/call` on `server`: the manager's tools under host names (and
 * `garuda_review` while questions wait), calls run through the manager, inside a conversation
 * when the host can be asked.
 */
export function offerTools(offered: ToolsOffered): void {
  const { server, mcp, started, approvals, conversations, review } = offered;
  server.setRequestHandler('tools/list', async (_request, requestContext) => {
    await started;
    const own = approvals === 'elicit' ? review.tool() : undefined;
    const apps = hostRendersApps(server, requestContext) ? mcp.apps() : undefined;
    const tools =
      apps === undefined
        ? mcp.tools().map((tool) => hostTool(tool))
        : appHostTools(mcp).map((tool) => hostTool(tool, toolUiMeta(tool, apps)));
    return { tools: [...(own === undefined ? [] : [own]), ...tools] };
  });
  server.setRequestHandler('tools/call', async (request, requestContext) => {
    await started;
    const { name, arguments: args } = request.params;
    // A round that brings an answer continues its conversation.
    const ongoing = conversations.of(requestContext, name);
    if (ongoing === 'expired') {
      return errorResult(
        `This question expired: it was not answered within ${Math.round(conversations.answerTimeoutMs / 1000)} s, ` +
          'so what it was about did not run. Call the tool again to be asked again.',
      );
    }
    if (ongoing === 'unknown') {
      return errorResult(
        'This question is no longer open (it was answered, expired or cancelled): call the ' +
          'tool again.',
      );
    }
    if (ongoing !== undefined) return ongoing.round(requestContext);
    const asks =
      approvals === 'elicit' ? hostAsks(server, requestContext) : { form: false, url: false };
    if (name === REVIEW_TOOL && approvals === 'elicit') {
      if (!asks.form) return review.byCommands();
      return conversations.start(requestContext, { hostTool: name, asks }, (conversation) =>
        review.run(conversation, mcp),
      );
    }
    const apps = hostRendersApps(server, requestContext);
    const tool = apps ? findTool(mcp, name, true) : offered.toolIndex.find(name);
    if (tool === undefined) {
      return errorResult(
        `No tool ${JSON.stringify(name)} behind this gateway (see tools/list; a server that ` +
          'is not connected lists none).',
      );
    }
    // The server's logs during the call reach a host without a stream on the call's request.
    const run = offered.hostLogs.around(
      tool.server,
      server,
      requestContext,
      callRunner(offered, tool, name, args ?? {}, progressOf(requestContext, offered.hostAnswers), {
        tasks: hostRunsTasks(requestContext),
      }),
    );
    // Only a host that can ask gets a conversation: its call may come back as a question. The
    // host cancelling its request (or the conversation's round) cancels the call behind it.
    if (!asks.form) {
      const linked = linkedSignal(offered.signal, requestContext.mcpReq.signal);
      return conversations.alone(() => run(linked.signal, undefined)).finally(linked.detach);
    }
    return conversations.start(
      requestContext,
      { hostTool: name, tool: tool.name, asks },
      (conversation) => {
        const linked = linkedSignal(offered.signal, conversation.signal);
        return run(linked.signal, conversation).finally(linked.detach);
      },
    );
  });
}

/** How long a result waits for the last progress report to be handed to the host's transport. */
const LAST_PROGRESS_WAIT_MS = 1_000;
/**
 * How long after the last progress report the result leaves, for a host that cannot be asked
 * (see {@link progressOf}).
 */
const LAST_PROGRESS_GAP_MS = 25;

/** Tells a call's progress to its host, and waits until the last report reached it. */
interface ProgressToHost {
  readonly report: (progress: CallProgress) => void;
  /**
   * Settles once the host has read the last report (or, for a host that cannot be asked,
   * {@link LAST_PROGRESS_GAP_MS} after it left), after at most a second, or when `signal` aborts.
   */
  readonly told: (signal: AbortSignal) => Promise<void>;
}

/**
 * The host's progress token: the server's progress (cleaned, at most every 100 ms by the
 * manager; the report still held when the result comes is told before it) is told on it, on the
 * request that started the call.
 *
 * The result waits until the host has read the last report. A host's SDK hands a notification to
 * its handler a turn later but settles a response at once, and forgets the request's progress
 * handler then: a report and a result read in the same chunk lose the report (100/100). Where
 * the host answers requests on this connection (`hostAnswers`: a 2025 host on a connection that
 * lasts), a `ping` after the report is the proof: the host answers it only after it read what
 * came before. Where it cannot (a 2026-07-28 host, a stateless exchange), the result leaves
 * {@link LAST_PROGRESS_GAP_MS} after the report, which a host that is reading parts them by.
 */
function progressOf(
  requestContext: ServerContext,
  hostAnswers: boolean,
): ProgressToHost | undefined {
  const progressToken = requestContext.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let last: Promise<void> | undefined;
  return {
    report: (progress) => {
      last = requestContext.mcpReq
        .notify({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          },
        })
        .catch(() => {});
    },
    told: async (signal) => {
      if (last === undefined) return;
      const read = hostAnswers
        ? last.then(() =>
            requestContext.mcpReq
              .send({ method: 'ping' }, { signal, timeout: LAST_PROGRESS_WAIT_MS })
              .then(
                () => {},
                () => {},
              ),
          )
        : last.then(() => pause(LAST_PROGRESS_GAP_MS));
      await settledWithin(read, LAST_PROGRESS_WAIT_MS, signal);
    },
  };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Settles when `promise` does, after `ms`, or when `signal` aborts, whichever comes first. */
async function settledWithin(promise: Promise<void>, ms: number, signal: AbortSignal) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      promise,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = resolve;
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** Runs one call of `tool` through the manager; a refusal or a failure is an error result. */
function callRunner(
  { mcp, serverCalls, texts, given }: ToolsOffered,
  tool: McpTool,
  hostName: string,
  args: Record<string, unknown>,
  progress: ProgressToHost | undefined,
  host: { readonly tasks: boolean },
) {
  return async (
    signal: AbortSignal,
    conversation: Conversation | undefined,
  ): Promise<ToolResult> => {
    const leave = serverCalls.enter(tool.server, conversation);
    try {
      const options = {
        signal,
        ...(progress === undefined ? {} : { onProgress: progress.report }),
      };
      // A host of the tasks extension may get a task (approved now, like any call).
      const called = host.tasks ? await mcp.callTask(tool.name, args, options) : undefined;
      if (called?.kind === 'task') {
        given.give(called.task);
        return { resultType: 'task', ...hostTask(called.task) } as unknown as ToolResult;
      }
      const result = called?.result ?? (await mcp.call(tool.name, args, options));
      await progress?.told(signal);
      return {
        content: [
          { type: 'text', text: result.text },
          ...hostBlocks(result.content),
          ...noteBlocks(mcp),
        ],
        isError: result.isError,
      };
    } catch (error) {
      if (CallDeclinedError.isInstance(error)) {
        return errorResult(declinedText(tool, hostName, error, hostAnswerOf(conversation), texts));
      }
      if (CallCancelledError.isInstance(error)) return errorResult('The call was cancelled.');
      if (McpManagerError.isInstance(error)) return errorResult(error.message);
      throw error;
    } finally {
      leave();
    }
  };
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
