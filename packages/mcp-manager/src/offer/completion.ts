// Argument completion (`completion/complete`): asked of the server whose prompt or resource
// template it is, only for a prompt that passed the pin check or a template the server listed.
// What comes back is a server's text a host shows in its input field: every value is cleaned to
// one line and capped, and so is their number; a server that offers no completions answers
// nothing rather than an error, so a host's input field simply shows no suggestions.
import { LIMITS as TOOL_LIMITS } from '@garuda/mcp-tools';
import { CallFailedError } from '../calls/call-errors.js';
import { quoteText, oneLine } from '../common/text.js';
import { InvalidOptionsError } from '../errors.js';
import type { ServerRegistry } from '../start/server-registry.js';
import { connectionOf } from './offer-calls.js';

/** The most values a completion answers (the spec's own cap). */
export const MAX_COMPLETION_VALUES = 100;
/** The longest completion value, in code points (a longer one is cut with `…`). */
export const MAX_COMPLETION_VALUE_CHARS = 200;
/** The longest argument name or value a host may send, in characters. */
const MAX_ARGUMENT_CHARS = 1000;
/** The most context arguments sent along. */
const MAX_CONTEXT_ARGUMENTS = 50;
/** A completion answers while the user types: it waits at most this long (or the server's `timeoutMs`, if shorter). */
export const COMPLETION_TIMEOUT_MS = 10_000;

/** What to complete: one argument of a server's prompt or one variable of its resource template. */
export interface CompletionRequest {
  /** The server's name. */
  readonly server: string;
  /**
   * The prompt (its name as the server lists it) or the resource template (its `uriTemplate`
   * exactly as the server listed it) whose argument is completed.
   */
  readonly ref:
    | { readonly type: 'prompt'; readonly name: string }
    | { readonly type: 'template'; readonly uriTemplate: string };
  /** The argument (or template variable) and what the user typed so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** The values of the other arguments already filled in. */
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
}

/** The suggestions of a completion, cleaned. */
export interface CompletionResult {
  /**
   * The values, each cleaned to one line (escapes, bidi and invisible characters removed, tags
   * neutralised) and at most {@link MAX_COMPLETION_VALUE_CHARS} code points; at most
   * {@link MAX_COMPLETION_VALUES}, without duplicates or empty ones.
   */
  readonly values: string[];
  /** How many values the server says there are in all, when it says (a whole number). */
  readonly total?: number;
  /** Whether there are more than `values` (the server said so, or values were left out). */
  readonly hasMore: boolean;
}

/** A string a host passes, checked. */
function checkString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length > MAX_ARGUMENT_CHARS) {
    throw new InvalidOptionsError(
      what,
      `must be a string of at most ${MAX_ARGUMENT_CHARS} characters`,
    );
  }
  return value;
}

/** The context arguments: a flat object of strings. */
function contextArguments(
  context: CompletionRequest['context'],
): Record<string, string> | undefined {
  const args: unknown = context?.arguments;
  if (args === undefined) return undefined;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidOptionsError('context.arguments', 'must be an object of strings');
  }
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length > MAX_CONTEXT_ARGUMENTS) {
    throw new InvalidOptionsError(
      'context.arguments',
      `must have at most ${MAX_CONTEXT_ARGUMENTS} entries`,
    );
  }
  return Object.fromEntries(
    entries.map(([name, value]) => [
      checkString(name, 'context.arguments'),
      checkString(value, 'context.arguments'),
    ]),
  );
}

/**
 * The server's answer made safe: values cleaned, deduplicated and capped; anything that is not
 * a completion result answers no values.
 */
export function cleanCompletion(raw: unknown): CompletionResult {
  const completion =
    typeof raw === 'object' && raw !== null
      ? (raw as { completion?: unknown }).completion
      : undefined;
  if (typeof completion !== 'object' || completion === null) return { values: [], hasMore: false };
  const { values, total, hasMore } = completion as Record<string, unknown>;
  const listed = Array.isArray(values) ? values : [];
  const kept = new Set<string>();
  for (const value of listed.slice(0, MAX_COMPLETION_VALUES * 2)) {
    if (kept.size >= MAX_COMPLETION_VALUES) break;
    if (typeof value !== 'string') continue;
    const line = oneLine(value, MAX_COMPLETION_VALUE_CHARS).trim();
    if (line !== '') kept.add(line);
  }
  const cut = listed.length > MAX_COMPLETION_VALUES;
  return {
    values: [...kept],
    ...(typeof total === 'number' && Number.isSafeInteger(total) && total >= 0 ? { total } : {}),
    hasMore: hasMore === true || cut,
  };
}

/**
 * Asks a connected server to complete one argument of its prompt or resource template.
 * @internal
 *
 * @throws {@link UnknownServerError}, {@link ServerNotConnectedError}, {@link InvalidOptionsError}
 *   (the request), {@link CallFailedError} (no such prompt or template, or the server failed),
 *   and the request errors of `ServerConnection.request`.
 */
export async function complete(
  registry: ServerRegistry,
  request: CompletionRequest,
  options: { readonly signal?: AbortSignal | undefined; readonly timeoutMs?: number | undefined },
): Promise<CompletionResult> {
  const { record, connection } = connectionOf(registry, request.server);
  const argument = {
    name: checkString(request.argument?.name, 'argument.name'),
    value: checkString(request.argument?.value, 'argument.value'),
  };
  const context = contextArguments(request.context);
  const { ref } = request;
  let wire: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  let label: string;
  if (ref?.type === 'prompt') {
    label = `the completion of the prompt ${quoteText(ref.name)} of MCP server "${record.name}"`;
    if (!record.prompts.some((prompt) => prompt.name === ref.name)) {
      throw new CallFailedError(label, 'the server lists no such prompt (or it is held back)');
    }
    wire = { type: 'ref/prompt', name: ref.name };
  } else if (ref?.type === 'template') {
    const template = record.resources.templates.find((t) => t.uriTemplate === ref.uriTemplate);
    label = `the completion of the resource template ${template?.shownUriTemplate ?? quoteText(ref.uriTemplate, TOOL_LIMITS.maxQuotedChars)} of MCP server "${record.name}"`;
    if (template === undefined) {
      throw new CallFailedError(label, 'the server lists no such resource template');
    }
    wire = { type: 'ref/resource', uri: template.uriTemplate };
  } else {
    throw new InvalidOptionsError(
      'ref',
      'must be { type: "prompt", name } or { type: "template", uriTemplate }',
    );
  }
  const timeoutMs = Math.min(
    options.timeoutMs ?? COMPLETION_TIMEOUT_MS,
    record.config.def.timeoutMs,
  );
  const raw = await connection.request(
    label,
    (client, limits) =>
      // No `completions` capability: no suggestions, without asking (the SDK would refuse).
      client.getServerCapabilities()?.completions === undefined
        ? Promise.resolve(undefined)
        : client.complete(
            {
              ref: wire,
              argument,
              ...(context === undefined ? {} : { context: { arguments: context } }),
            },
            limits,
          ),
    { signal: options.signal, timeoutMs },
  );
  return cleanCompletion(raw);
}
