// A server's own question (its elicitation) during a call through `garuda-mcp serve`: passed on to
// the host's user in the call's conversation. What goes out is built from the manager's cleaned
// form (labels, descriptions, options and defaults as the manager cleaned them; field names and
// option values are the cleaned forms the manager maps back; each choice in the shape its server
// wrote: plain enum, titled oneOf/anyOf or legacy enumNames), never the server's own schema, and
// the host's answer goes back through the manager, which checks it against the form again.
import type { ElicitField, ElicitReply, ElicitRequest, ElicitValues } from '@garuda/mcp-manager';
import { inputRequired, type InputRequest } from '@modelcontextprotocol/server';
import type { Conversation } from './conversations.js';

type ChoiceField = Extract<ElicitField, { kind: 'choice' }>;

function titledOptions(options: ChoiceField['options']): { const: string; title: string }[] {
  return options.map((option) => ({ const: option.value, title: option.label }));
}

/**
 * A single choice's options in the shape its server wrote them (SEP-1330): a host renders the
 * form the server meant, and a host that knows only one shape meets the one it was sent.
 */
function choiceOptions(field: ChoiceField): Record<string, unknown> {
  const values = field.options.map((option) => option.value);
  switch (field.shape) {
    case 'untitled':
      return { enum: values };
    case 'enumNames':
      return { enum: values, enumNames: field.options.map((option) => option.label) };
    case 'titled':
      return { oneOf: titledOptions(field.options) };
  }
}

/** One field of the form, as the elicitation schema's restricted JSON Schema says it. */
function fieldSchema(field: ElicitField): Record<string, unknown> {
  const common = {
    title: field.label,
    ...(field.description === undefined ? {} : { description: field.description }),
    ...(field.default === undefined ? {} : { default: field.default }),
  };
  switch (field.kind) {
    case 'text':
      return {
        type: 'string',
        ...common,
        ...(field.format === undefined ? {} : { format: field.format }),
        ...(field.minLength === undefined ? {} : { minLength: field.minLength }),
        ...(field.maxLength === undefined ? {} : { maxLength: field.maxLength }),
      };
    case 'number':
      return {
        type: field.integer ? 'integer' : 'number',
        ...common,
        ...(field.minimum === undefined ? {} : { minimum: field.minimum }),
        ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
      };
    case 'boolean':
      return { type: 'boolean', ...common };
    case 'choice':
      return { type: 'string', ...common, ...choiceOptions(field) };
    case 'choices':
      return {
        type: 'array',
        ...common,
        items:
          field.shape === 'titled'
            ? { anyOf: titledOptions(field.options) }
            : { type: 'string', enum: field.options.map((option) => option.value) },
        ...(field.minItems === undefined ? {} : { minItems: field.minItems }),
        ...(field.maxItems === undefined ? {} : { maxItems: field.maxItems }),
      };
  }
}

/** The embedded request that asks the host's user a server's question. */
function hostRequest(request: ElicitRequest): InputRequest {
  const intro = `MCP server "${request.server}" asks (through garuda-mcp; its words, cleaned):`;
  if (request.mode === 'url') {
    return inputRequired.elicitUrl({ message: `${intro}\n${request.message}`, url: request.url });
  }
  return inputRequired.elicit({
    mode: 'form',
    message: `${intro}\n${request.message}`,
    requestedSchema: {
      type: 'object',
      properties: Object.fromEntries(
        request.fields.map((field) => [field.name, fieldSchema(field)]),
      ),
      required: request.fields.filter((field) => field.required).map((field) => field.name),
    } as Parameters<typeof inputRequired.elicit>[0]['requestedSchema'],
  });
}

/** One call running through the gateway: its conversation, when its host can be asked. */
interface RunningCall {
  readonly conversation: Conversation | undefined;
}

/**
 * The calls running through the gateway, by server: which request a server's own question is
 * about. A server's question names no call (a 2025 server's `elicitation/create` over stdio
 * carries no request id), so it is passed on only when exactly one call of that server runs;
 * with several, it cannot be told which one it is about, and it is not handed to any of them.
 */
export class ServerCalls {
  readonly #running = new Map<string, Set<RunningCall>>();

  /**
   * Counts a call of `server` until the returned function is called (when it ends).
   *
   * @param conversation - The call's conversation; `undefined` when its host cannot be asked.
   */
  enter(server: string, conversation: Conversation | undefined): () => void {
    const call: RunningCall = { conversation };
    let calls = this.#running.get(server);
    if (calls === undefined) {
      calls = new Set();
      this.#running.set(server, calls);
    }
    calls.add(call);
    return () => {
      calls.delete(call);
      if (calls.size === 0 && this.#running.get(server) === calls) this.#running.delete(server);
    };
  }

  /**
   * The conversation a question of `server` belongs to: `'several'` when more than one of its
   * calls runs (it cannot be told which), `undefined` when none runs or the one running has no
   * conversation.
   */
  ownerOf(server: string): Conversation | 'several' | undefined {
    const calls = this.#running.get(server);
    if (calls === undefined || calls.size === 0) return undefined;
    if (calls.size > 1) return 'several';
    return [...calls][0]?.conversation;
  }
}

/**
 * Asks the host's user a server's question in the conversation of that server's call: an accepted
 * form gives its values (the manager checks them), an accepted page means the host opened it.
 * Anything else is the host's decline or cancel.
 */
export async function forwardElicitation(
  conversation: Conversation,
  request: ElicitRequest,
  signal: AbortSignal | undefined,
): Promise<ElicitReply> {
  const answer = await conversation.ask(hostRequest(request), signal);
  if (answer.kind !== 'elicit') return { action: 'cancel' };
  if (answer.action !== 'accept') return { action: answer.action };
  if (request.mode === 'url') return { action: 'accept' };
  return { action: 'accept', values: (answer.content ?? {}) as ElicitValues };
}
