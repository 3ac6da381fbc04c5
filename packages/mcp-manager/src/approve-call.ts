import { callPreview } from '@garuda/mcp-tools';
import { linkSignals, type QuestionQueue } from './abort.js';
import { matchesAllowRule, validateAllowRule } from './allow-rules.js';
import {
  CallCancelledError,
  CallDeclinedError,
  CallFailedError,
  ManagerClosedError,
} from './errors.js';
import type { ServerConfig } from '@garuda/mcp-config';
import { modeRuns, riskOf, type ApprovalMode } from './risk-tier.js';
import { forPrompter, messageOf, oneLine } from './text.js';
import type { CallApproval, CallApprovalRequest, McpTool, Prompter } from './types.js';

/** What a call's approval needs of the manager. @internal */
export interface ApprovalDeps {
  readonly allowRules: readonly string[];
  readonly approvalMode: ApprovalMode;
  readonly prompter: Prompter;
  readonly questions: QuestionQueue;
  /** Aborts when the manager closes. */
  readonly lifetime: AbortSignal;
  readonly closed: () => boolean;
}

/**
 * Decides one call: it runs without asking when its server's tier is not destructive and an
 * allow rule matches or the approval mode runs that tier; otherwise `prompter.approveCall` is
 * asked (one question at a time, the request cleaned), saying the tier, the mode and why it
 * asks. Only `true` is a yes. @internal
 *
 * @param tool - The tool.
 * @param config - Its server's configuration (the capabilities the user declared).
 * @param input - Its arguments.
 * @param deps - The rules, the mode, the prompter and its queue.
 * @param signal - The caller's signal.
 * @returns Whether the user was asked, and why it ran.
 * @throws {@link CallDeclinedError}, {@link CallCancelledError}, {@link ManagerClosedError}, or
 *   {@link CallFailedError} when the prompter failed.
 */
export async function approveCall(
  tool: McpTool,
  config: ServerConfig,
  input: Record<string, unknown>,
  deps: ApprovalDeps,
  signal: AbortSignal | undefined,
): Promise<CallApproval> {
  const risk = riskOf(config);
  const mode = deps.approvalMode;
  let why: string;
  if (risk.tier === 'destructive') {
    why = `its server is declared "irreversible": a destructive call always asks`;
  } else if (matchesAllowRule(deps.allowRules, tool.server, tool.tool)) {
    return { asked: false, why: 'an allow rule of the host matches it' };
  } else {
    const runs = modeRuns(mode, risk.tier);
    if (runs !== undefined) return { asked: false, why: runs };
    why =
      mode === 'ask'
        ? 'approval mode "ask" asks before every call'
        : `approval mode "${mode}" asks before a ${risk.tier}-risk call`;
  }
  const request: CallApprovalRequest = {
    ...callPreview(tool, input),
    risk: { tier: risk.tier, text: risk.text },
    mode,
    why,
  };
  const { controller, detach } = linkSignals(signal, deps.lifetime);
  let approved: unknown;
  try {
    approved = await deps.questions.ask(
      async () => await deps.prompter.approveCall(forPrompter(request), controller.signal),
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
  return { asked: true, why: 'the user approved it' };
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
