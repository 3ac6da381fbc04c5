import { callPreview } from '@garuda/mcp-tools';
import { linkSignals, type QuestionQueue } from './abort.js';
import { matchesAllowRule, validateAllowRule } from './allow-rules.js';
import {
  CallCancelledError,
  CallDeclinedError,
  CallFailedError,
  ManagerClosedError,
} from './errors.js';
import { forPrompter, messageOf, oneLine } from './text.js';
import type { McpTool, Prompter } from './types.js';

/** What a call's approval needs of the manager. @internal */
export interface ApprovalDeps {
  readonly allowRules: readonly string[];
  readonly prompter: Prompter;
  readonly questions: QuestionQueue;
  /** Aborts when the manager closes. */
  readonly lifetime: AbortSignal;
  readonly closed: () => boolean;
}

/**
 * Asks `prompter.approveCall` for one call (one question at a time, the preview cleaned), unless
 * an allow rule matches. Only `true` is a yes. @internal
 *
 * @param tool - The tool.
 * @param input - Its arguments.
 * @param deps - The rules, the prompter and its queue.
 * @param signal - The caller's signal.
 * @throws {@link CallDeclinedError}, {@link CallCancelledError}, {@link ManagerClosedError}, or
 *   {@link CallFailedError} when the prompter failed.
 */
export async function approveCall(
  tool: McpTool,
  input: Record<string, unknown>,
  deps: ApprovalDeps,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (matchesAllowRule(deps.allowRules, tool.server, tool.tool)) return;
  const { controller, detach } = linkSignals(signal, deps.lifetime);
  let approved: unknown;
  try {
    approved = await deps.questions.ask(
      async () =>
        await deps.prompter.approveCall(forPrompter(callPreview(tool, input)), controller.signal),
      controller.signal,
    );
  } catch (error) {
    if (signal?.aborted) throw new CallCancelledError(tool.name, { cause: signal.reason });
    if (deps.closed()) throw new ManagerClosedError(`the call of ${tool.name}`);
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

/**
 * The notices about allow rules that are not usable (each is ignored). @internal
 *
 * @param rules - The host's rules.
 * @returns One notice per unusable rule.
 */
export function allowRuleNotices(rules: readonly string[]): string[] {
  return rules.flatMap((rule) => {
    const problem = validateAllowRule(rule);
    return problem === undefined ? [] : [`An MCP allow rule is ignored: ${problem}`];
  });
}
