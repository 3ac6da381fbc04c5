// Prompts as a host and the model see them: the list of `prompts/list`, and a `prompts/get`
// result wrapped for the model. A prompt is text a server wrote for the model to follow, so its
// messages are marked as the server's words, never as the user's.
import { capText, neutralizeTags } from '@garuda/mcp-sanitize';
import { isRecord } from '@garuda/internal';
import { blockText, readResult, safe, wrap } from './content-text.js';
import { resultContent, type ResultContent } from './result-content.js';
import { countOption } from './errors.js';
import { MAX_RESULT_CHARS } from './format-result.js';
import type { FormatResultOptions } from './format-result.js';
import { adaptList, lineField, optional, paragraphField, resultItems } from './list-view.js';
import type { Listed, ResultItems } from './list-view.js';
import { quoteText } from './quote-text.js';
import { rawNameProblem } from './tool-shape.js';
import type { McpPrompt, PromptArgument, PromptMessage, PromptResult } from './types.js';

/** How many prompts of one server are kept by default. */
export const MAX_PROMPTS_PER_SERVER = 100;

/** The most arguments a prompt may have; a prompt with more is skipped. */
export const MAX_PROMPT_ARGUMENTS = 50;

/** Options of {@link adaptPrompts}. */
export interface AdaptPromptsOptions {
  /** How many prompts are kept, the first ones listed (default {@link MAX_PROMPTS_PER_SERVER}). */
  readonly maxPrompts?: number;
}

/** What {@link adaptPrompts} returns. */
export interface AdaptPromptsResult {
  /** The prompts, in the order the server listed them. */
  readonly prompts: readonly McpPrompt[];
  /** One-line, cleaned notices for the user: skipped prompts and why, a cut list. */
  readonly skipped: readonly string[];
}

/**
 * A prompt's arguments, or the problem that makes the prompt unusable: a host could not fill in
 * an argument it was not shown, so a list is taken whole or not at all.
 */
function promptArguments(value: unknown): PromptArgument[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'its arguments are not a list';
  const list = value as unknown[];
  if (list.length > MAX_PROMPT_ARGUMENTS) {
    return `it has more than ${MAX_PROMPT_ARGUMENTS} arguments`;
  }
  const out: PromptArgument[] = [];
  const seen = new Map<string, number>();
  for (const [index, entry] of list.entries()) {
    const which = `its argument #${index + 1}`;
    if (!isRecord(entry)) return `${which} is not an object`;
    const { name, description, required } = entry;
    const problem = rawNameProblem(name);
    if (problem !== undefined) return `${which} is not usable: ${problem}`;
    const raw = name as string;
    const first = seen.get(raw);
    if (first !== undefined) return `${which} has the name of argument #${first + 1}`;
    seen.set(raw, index);
    out.push({
      name: raw,
      ...optional('description', lineField(description)),
      required: required === true,
    });
  }
  return out;
}

function promptEntry(server: string, entry: Record<string, unknown>): Listed<McpPrompt> {
  // Each field is read once: a value built in code (not parsed JSON) could change between reads.
  const { name, title, description, arguments: args } = entry;
  const problem = rawNameProblem(name);
  if (problem !== undefined) return { problem, name };
  const argumentsOrProblem = promptArguments(args);
  if (typeof argumentsOrProblem === 'string') return { problem: argumentsOrProblem, name };
  const raw = name as string;
  return {
    key: raw,
    name,
    item: {
      server,
      name: raw,
      ...optional('title', lineField(title)),
      ...optional('description', paragraphField(description)),
      arguments: argumentsOrProblem,
    },
  };
}

/**
 * Turns the prompt list a server returned (untrusted, possibly hostile) into prompts for a host.
 *
 * Each entry is judged alone: its `name` is used as it is for `prompts/get`, so it must be a
 * non-empty string of at most `MAX_RAW_TOOL_NAME_CHARS` characters that cleaning would not
 * change (no control, invisible or bidi characters, line breaks or wrapper tags), as a tool's
 * name must; so must each argument's `name`, without repeats. A prompt with a malformed argument
 * list, more than {@link MAX_PROMPT_ARGUMENTS} arguments, a name an earlier prompt has, or that
 * throws is skipped with a notice (a cut argument list would ask for other arguments than the
 * prompt takes); prompts past `maxPrompts` are left out with one notice. `title` and each
 * argument's `description` are cleaned to one line, tag-neutralised, at most 500 code points;
 * `description` keeps its lines, at most 2 000 characters; `required` is the server's
 * `required === true`. Nothing a server sends makes this throw.
 *
 * @param server - The server name (from the config).
 * @param list - The `prompts` of the server's `prompts/list` result, as it came.
 * @param options - `maxPrompts` (default 100).
 * @returns The prompts and the notices.
 * @throws InvalidOptionError when `maxPrompts` is not a non-negative integer (a programming error).
 * @example
 * ```ts
 * adaptPrompts('git', [{ name: 'review', arguments: [{ name: 'pr', required: true }] }]);
 * // { prompts: [{ server: 'git', name: 'review',
 * //     arguments: [{ name: 'pr', required: true }] }], skipped: [] }
 * ```
 */
export function adaptPrompts(
  server: string,
  list: unknown,
  options: AdaptPromptsOptions = {},
): AdaptPromptsResult {
  const max = countOption('adaptPrompts', 'maxPrompts', options.maxPrompts, MAX_PROMPTS_PER_SERVER);
  const kind = { one: 'prompt', many: 'prompts', key: 'name' };
  const { items, skipped } = adaptList(server, list, kind, max, (entry) =>
    promptEntry(server, entry),
  );
  return { prompts: items, skipped };
}

/**
 * The first line inside a prompt's wrapper: who wrote the messages that follow.
 *
 * @param server - The server name.
 * @returns `[prompt messages from the MCP server "x"; they are its words, not the user's]`
 */
function promptLead(server: string): string {
  return `[prompt messages from the MCP server ${quoteText(server)}; they are its words, not the user's]`;
}

/** One message: its heading and text, and its typed form. */
function readMessage(
  value: Record<string, unknown>,
  maxChars: number,
): { text: string; typed: PromptMessage } {
  const { role, content } = value;
  const text = capText(safe(blockText(content)), maxChars);
  const [block = { type: 'other', note: 'a message without content' } as const] = resultContent(
    [content],
    maxChars,
  );
  const typed = tagFree(block);
  if (role === 'user' || role === 'assistant') {
    return { text: `[${role}]\n${text}`, typed: { role, text, content: typed } };
  }
  return {
    text: `[a message with the role ${quoteText(role)}, which MCP does not have: not trusted]\n${text}`,
    typed: { role: 'other', text, content: typed },
  };
}

/**
 * A message's typed content with its short fields (MIME type, name, URI) tag-neutralised too, as
 * its text is: a prompt's messages are the model's words, wherever a host puts them.
 */
function tagFree(block: ResultContent): ResultContent {
  switch (block.type) {
    case 'image':
    case 'audio':
      return { ...block, mimeType: neutralizeTags(block.mimeType) };
    case 'resource_link':
    case 'resource':
      return {
        ...block,
        ...(block.uri === undefined ? {} : { uri: neutralizeTags(block.uri) }),
        ...(block.mimeType === undefined ? {} : { mimeType: neutralizeTags(block.mimeType) }),
        ...('name' in block && block.name !== undefined ? { name: neutralizeTags(block.name) } : {}),
      };
    default:
      return block;
  }
}

const MESSAGES = { one: 'message', many: 'messages', none: 'no messages' };

/**
 * Turns what a server returned for `prompts/get` (untrusted, possibly hostile) into text for the
 * model and messages for a host.
 *
 * A prompt is instructions a server wrote, so the text opens with
 * `[prompt messages from the MCP server "<server>"; they are its words, not the user's]`, then
 * gives each message as `[user]` or `[assistant]` and its content as text: text blocks their
 * text, images and audio a note, resource links and embedded resources their URI through
 * `checkUrl` (the same text as {@link formatResult}). A role other than `user` or `assistant` is
 * named in a note that says it is not trusted; a malformed message, messages that are not a
 * list and a result that is not an object give notes. Everything is cleaned, tag-neutralised (so
 * `</mcp_prompt>` in any disguise cannot close the wrapper) and capped at `maxChars`, then
 * wrapped in `<mcp_prompt server="<server>" name="<name>">…</mcp_prompt>`, whose attribute values
 * are escaped as {@link formatResult}'s are. `messages` are the messages as data (at most
 * `MAX_CONTENT_BLOCKS`; `omitted` counts the rest): `role` (`other` for an unknown one) and
 * `text`, cleaned and capped. `description` is the result's, cleaned. Nothing a server sends makes
 * this throw.
 *
 * @param server - The server name.
 * @param name - The prompt's MCP name (`McpPrompt.name`).
 * @param result - What `client.getPrompt()` returned.
 * @param options - `maxChars` (default 30 000).
 * @returns The wrapped text, the messages, how many are left out, and the description.
 * @throws InvalidOptionError when `maxChars` is not a non-negative integer (a programming error).
 * @example
 * ```ts
 * formatPrompt('git', 'review', {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Review PR 7.' } }],
 * }).text;
 * // '<mcp_prompt server="git" name="review">\n[prompt messages from the MCP server "git"; they
 * //  are its words, not the user\'s]\n[user]\nReview PR 7.\n</mcp_prompt>'
 * ```
 */
export function formatPrompt(
  server: string,
  name: string,
  result: unknown,
  options: FormatResultOptions = {},
): PromptResult {
  const maxChars = countOption('formatPrompt', 'maxChars', options.maxChars, MAX_RESULT_CHARS);
  const read = readResult(
    result,
    (record) => ({
      ...resultItems(record.messages, MESSAGES, maxChars, (item) => readMessage(item, maxChars)),
      ...optional('description', paragraphField(record.description)),
    }),
    (note): ResultItems<PromptMessage> & { description?: string } => ({
      body: note,
      items: [],
      omitted: 0,
    }),
  );
  return {
    text: wrap('mcp_prompt', { server, name }, read.body, maxChars, promptLead(server)),
    messages: read.items,
    omitted: read.omitted,
    ...optional('description', read.description),
  };
}
