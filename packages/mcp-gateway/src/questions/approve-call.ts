// A call's approval asked through the host, in the call's own conversation, and what a refused
// call tells the host.
import type {
  CallApprovalReply,
  CallApprovalRequest,
  CallDeclinedError,
} from '@garuda/mcp-manager';
import type { McpTool } from '@garuda/mcp-tools';
import type { GatewayTexts } from '../texts.js';
import type { Conversation } from './conversations.js';

/** The answers of the approval form sent by elicitation. */
const ALLOW_ONCE = 'Allow once';
const ALWAYS_ALLOW = "Always allow (bound to this tool's schema)";
const DENY = 'Deny';

/** How the host's user said no to a call's approval form. */
export type HostAnswer = 'deny' | 'decline' | 'cancel';

/**
 * How the host's user said no to a call's approval form, per conversation: chose Deny,
 * declined the form or cancelled it (a question not answered in time is cancelled too).
 */
const hostAnswers = new WeakMap<Conversation, HostAnswer>();

/** How the host's user said no in this conversation, if they did. */
export function hostAnswerOf(conversation: Conversation | undefined): HostAnswer | undefined {
  return conversation === undefined ? undefined : hostAnswers.get(conversation);
}

/**
 * Asks the host's user about one call with a form, in the call's own conversation: the call's
 * preview (every part cleaned by the manager), then allow once, always allow (when the call may
 * be remembered) or deny. Anything but an accepted allow is a no.
 */
export async function askHost(
  conversation: Conversation,
  request: CallApprovalRequest,
  signal: AbortSignal | undefined,
  texts: GatewayTexts,
): Promise<CallApprovalReply> {
  // The form names the tool as this host calls it (`<server>__<tool>`); its title line shows
  // the server and the tool.
  const preview = texts.callPreview({ ...request, name: conversation.hostTool });
  const { action, choice } = await conversation.pick(
    `garuda-mcp asks before this call runs:\n${preview}`,
    'Run this call?',
    request.remember ? [ALLOW_ONCE, ALWAYS_ALLOW, DENY] : [ALLOW_ONCE, DENY],
    signal,
  );
  if (choice === ALLOW_ONCE) return true;
  if (choice === ALWAYS_ALLOW) return 'always';
  hostAnswers.set(conversation, action === 'accept' ? 'deny' : action);
  return false;
}

/**
 * What a refused call tells the host: why it did not run (the host's user said no, a deny rule,
 * or nobody could be asked) and, when nobody was asked, what would allow it.
 */
export function declinedText(
  tool: McpTool,
  hostTool: string,
  error: CallDeclinedError,
  answer: HostAnswer | undefined,
  texts: GatewayTexts,
): string {
  const named = `${JSON.stringify(hostTool)} (tool ${JSON.stringify(tool.tool)} of MCP server ${JSON.stringify(tool.server)})`;
  if (error.rule !== undefined) {
    return `This call was not run: the rule ${JSON.stringify(error.rule)} denies calls of ${named}.`;
  }
  if (answer !== undefined) {
    const how =
      answer === 'deny'
        ? 'the user chose "Deny" in the approval form this host showed'
        : answer === 'decline'
          ? 'the user declined the approval form this host showed'
          : 'the approval form this host showed was cancelled (or not answered in time)';
    return (
      `This call was not run: ${how} for ${named}. Do not call it again unless the user asks ` +
      'you to; continue without it or ask the user what to do.'
    );
  }
  return texts.notAsked(tool, hostTool);
}
