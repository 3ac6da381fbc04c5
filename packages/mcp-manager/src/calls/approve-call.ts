// Whether one call runs, asks, or is refused. The order, from the strongest:
//   a deny rule (never runs) > a destructive server (always asks; no rule, mode or grant lowers
//   it) > an ask rule (asks) > an allow rule (runs) > the approval mode (runs its tiers) >
//   the user's "always allow" for this tool, while the definition, declared capabilities and
//   input schema it was given for are unchanged (runs) > the question.
// The one place a call's approval is decided; the audit log records what it answered.
import { callPreview } from '@garuda/mcp-tools';
import type { ToolGrantCheck } from '@garuda/mcp-trust';
import { callSignal, type QuestionQueue } from '../common/abort.js';
import {
  CallCancelledError,
  CallDeclinedError,
  CallFailedError,
  ManagerClosedError,
} from '../errors.js';
import type { ServerConfig } from '@garuda/mcp-config';
import { modeRuns, riskOf, type ApprovalMode } from './risk-tier.js';
import { forPrompter, messageOf, oneLine, quoteText } from '../common/text.js';
import { ruleFor, type ToolRules } from './tool-rules.js';
import type { CallApproval, CallApprovalRequest, McpTool, Prompter } from '../types.js';

/** The user's "always allow" answer for one tool, read and written where it is kept. @internal */
export interface ToolGrantAccess {
  /** Whether a grant holds for the tool as it is now; throws when the store cannot be read. */
  readonly check: () => Promise<ToolGrantCheck>;
  /** Remembers the grant, bound to the tool as it is now. */
  readonly remember: () => Promise<void>;
}

/** What a call's approval needs of the manager. @internal */
export interface ApprovalDeps {
  readonly rules: ToolRules;
  readonly approvalMode: ApprovalMode;
  readonly prompter: Prompter;
  readonly questions: QuestionQueue;
  /** Aborts when the manager closes. */
  readonly lifetime: AbortSignal;
  readonly closed: () => boolean;
  readonly notice: (text: string) => void;
}

const CHANGED_WORDS = {
  capabilities: 'the capabilities you declared for its server changed',
  definition: "its server's definition changed",
  schema: 'its input schema changed',
} as const;

/** Why a call asks, or why it runs: `{ asked: false }` ends the decision. */
async function decide(
  tool: McpTool,
  config: ServerConfig,
  deps: ApprovalDeps,
  grant: ToolGrantAccess | undefined,
): Promise<CallApproval | { why: string; remember: boolean }> {
  const risk = riskOf(config);
  const mode = deps.approvalMode;
  const rule = ruleFor(deps.rules, tool.server, tool.tool);
  if (rule?.decision === 'deny') throw new CallDeclinedError(tool.name, rule.rule);
  if (risk.tier === 'destructive') {
    return {
      why: `its server is declared "irreversible": a destructive call always asks`,
      remember: false,
    };
  }
  if (rule?.decision === 'ask') {
    return {
      why: `the ask rule ${quoteText(rule.rule)} asks before every call of it`,
      remember: false,
    };
  }
  if (rule?.decision === 'allow') {
    return { asked: false, why: `the allow rule ${quoteText(rule.rule)} matches it` };
  }
  const runs = modeRuns(mode, risk.tier);
  if (runs !== undefined) return { asked: false, why: runs };
  let check: ToolGrantCheck = { state: 'none' };
  try {
    if (grant !== undefined) check = await grant.check();
  } catch (error) {
    deps.notice(
      `Could not read your remembered answers for MCP tools (${oneLine(messageOf(error))}): the call of ${tool.name} asks.`,
    );
  }
  if (check.state === 'granted') {
    return { asked: false, why: `you chose to always allow this tool (${check.at.slice(0, 10)})` };
  }
  const modeWhy =
    mode === 'ask'
      ? 'approval mode "ask" asks before every call'
      : `approval mode "${mode}" asks before a ${risk.tier}-risk call`;
  return {
    why:
      check.state === 'stale'
        ? `you chose to always allow this tool, but since then ${check.changed.map((c) => CHANGED_WORDS[c]).join(' and ')}: it asks again`
        : modeWhy,
    remember: grant !== undefined,
  };
}

/**
 * Decides one call (see the order at the top of this file). When it asks, `prompter.approveCall`
 * gets the request cleaned, with the tier, the mode, why it asks and whether "always allow" may
 * be answered (`remember`); only `true` and `'always'` are a yes, and `'always'` is remembered
 * only where it was offered. @internal
 *
 * @param tool - The tool.
 * @param config - Its server's configuration (the capabilities the user declared).
 * @param input - Its arguments.
 * @param deps - The rules, the mode, the prompter and its queue.
 * @param grant - The tool's remembered grant; `undefined` when none can be kept for it.
 * @param signal - The caller's signal.
 * @returns Whether the user was asked, why it ran, and whether a grant was remembered.
 * @throws {@link CallDeclinedError} (the user said no, or a deny rule: `rule`),
 *   {@link CallCancelledError}, {@link ManagerClosedError}, or {@link CallFailedError} when the
 *   prompter failed.
 */
export async function approveCall(
  tool: McpTool,
  config: ServerConfig,
  input: Record<string, unknown>,
  deps: ApprovalDeps,
  grant: ToolGrantAccess | undefined,
  signal: AbortSignal | undefined,
): Promise<CallApproval> {
  const decided = await decide(tool, config, deps, grant);
  if ('asked' in decided) return decided;
  const risk = riskOf(config);
  const request: CallApprovalRequest = {
    ...callPreview(tool, input),
    risk: { tier: risk.tier, text: risk.text },
    mode: deps.approvalMode,
    why: decided.why,
    remember: decided.remember,
  };
  const asking = callSignal(signal, deps.lifetime);
  let approved: unknown;
  try {
    approved = await deps.questions.ask(
      async () => await deps.prompter.approveCall(forPrompter(request), asking.signal),
      asking.signal,
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
    asking.detach();
  }
  if (approved !== true && approved !== 'always') throw new CallDeclinedError(tool.name);
  if (approved !== 'always' || !decided.remember || grant === undefined) {
    return { asked: true, why: 'the user approved it' };
  }
  try {
    await grant.remember();
  } catch (error) {
    deps.notice(
      `Could not remember that you always allow ${tool.name} (${oneLine(messageOf(error))}): it runs this time, and asks again next time.`,
    );
    return { asked: true, why: 'the user approved it' };
  }
  return {
    asked: true,
    why: 'the user approved it and chose to always allow it',
    remembered: true,
  };
}
