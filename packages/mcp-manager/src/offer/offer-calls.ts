// The manager's prompts and resources: the lists of the connected servers (byte-stable: sorted by
// server, then name or URI), and `getPrompt` / `readResource`, whose answers are cleaned and
// wrapped by @garuda/mcp-tools before anyone reads them.
import { formatPrompt, formatResource, LIMITS } from '@garuda/mcp-tools';
import { CallFailedError } from '../calls/call-errors.js';
import { InvalidOptionsError, ServerNotConnectedError, UnknownServerError } from '../errors.js';
import { PROMPT_PIN } from './prompt-pins.js';
import type { ServerConnection } from '../start/server-connection.js';
import type { ServerRecord, ServerRegistry } from '../start/server-registry.js';
import { unavailableReason } from '../status/notes.js';
import type {
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  PromptResult,
  ResourceResult,
} from '../types.js';
import { quoteText } from '../common/text.js';

/** The most arguments `getPrompt` sends. @internal */
const MAX_ARGUMENTS = 50;

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The connected servers, and those ready to start on first use (their pinned prompts are
 * offered; their resources are listed once they run), sorted by name.
 */
function connected(registry: ServerRegistry): ServerRecord[] {
  return [...registry.records.values()]
    .filter(
      (record) =>
        record.state === 'ready' ||
        (record.state === 'connected' && registry.connections.has(record.name)),
    )
    .sort((a, b) => byCodeUnit(a.name, b.name));
}

/**
 * Every connected server's prompts, by server, then name; a prompt whose host name
 * (`<server>__<prompt>`) another server holds is left out (see `toolView`). @internal
 */
export function promptList(registry: ServerRegistry): McpPrompt[] {
  return [...registry.view().prompts];
}

/** Every connected server's resources, by server, then URI. @internal */
export function resourceList(registry: ServerRegistry): McpResource[] {
  return connected(registry).flatMap((record) =>
    [...record.resources.resources].sort((a, b) => byCodeUnit(a.uri, b.uri)),
  );
}

/** Every connected server's resource templates, by server, then template. @internal */
export function templateList(registry: ServerRegistry): McpResourceTemplate[] {
  return connected(registry).flatMap((record) =>
    [...record.resources.templates].sort((a, b) => byCodeUnit(a.uriTemplate, b.uriTemplate)),
  );
}

/** The running connection of a server, or the error that says why there is none. @internal */
export function connectionOf(
  registry: ServerRegistry,
  server: unknown,
): { record: ServerRecord; connection: ServerConnection } {
  const record = typeof server === 'string' ? registry.records.get(server) : undefined;
  if (record === undefined) throw new UnknownServerError(String(server), quoteText(String(server)));
  const connection = registry.connections.get(record.name);
  if (record.state !== 'connected' || connection === undefined) {
    const why = unavailableReason(record.state, record.detail);
    throw new ServerNotConnectedError(record.name, record.state, why);
  }
  return { record, connection };
}

/** A URI the host passes: a string a server could have listed. */
function checkUri(uri: unknown): asserts uri is string {
  if (typeof uri !== 'string' || uri === '' || uri.length > LIMITS.maxResourceUriChars) {
    throw new InvalidOptionsError(
      'uri',
      `must be a non-empty string of at most ${LIMITS.maxResourceUriChars} characters`,
    );
  }
}

/** A prompt's arguments: a flat object of strings (MCP prompt arguments are strings). */
function promptArguments(args: unknown, prompt: McpPrompt): Record<string, string> {
  if (args === undefined) args = {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidOptionsError('args', 'must be an object of strings, e.g. { "code": "x = 1" }');
  }
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length > MAX_ARGUMENTS) {
    throw new InvalidOptionsError('args', `must have at most ${MAX_ARGUMENTS} entries`);
  }
  for (const [name, value] of entries) {
    if (typeof value !== 'string') {
      throw new InvalidOptionsError(
        'args',
        `${quoteText(name)} must be a string, not ${typeof value}`,
      );
    }
  }
  const missing = prompt.arguments
    .filter((argument) => argument.required && !Object.hasOwn(args as object, argument.name))
    .map((argument) => quoteText(argument.name));
  if (missing.length > 0) {
    throw new InvalidOptionsError(
      'args',
      `the prompt ${quoteText(prompt.name)} needs ${missing.join(', ')}`,
    );
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * Gets one prompt of a connected server: only a listed prompt that passed the pin check. @internal
 *
 * @throws {@link UnknownServerError}, {@link ServerNotConnectedError}, {@link InvalidOptionsError}
 *   (arguments), {@link CallFailedError} (no such prompt, held back or removed, or the server
 *   failed), and the request errors of `ServerConnection.request`.
 */
export async function getPrompt(
  registry: ServerRegistry,
  server: string,
  name: string,
  args: unknown,
  signal: AbortSignal | undefined,
): Promise<PromptResult> {
  const { record, connection } = connectionOf(registry, server);
  const label = `the prompt ${quoteText(String(name))} of MCP server "${record.name}"`;
  const prompt = record.prompts.find((entry) => entry.name === name);
  if (prompt === undefined) {
    const gone = typeof name === 'string' ? record.gone.get(PROMPT_PIN + name) : undefined;
    throw new CallFailedError(
      label,
      gone === undefined ? 'the server lists no such prompt' : `it cannot be used: ${gone.reason}`,
    );
  }
  const values = promptArguments(args, prompt);
  const result = await connection.request(
    label,
    (client, limits) => client.getPrompt({ name: prompt.name, arguments: values }, limits),
    { signal, timeoutMs: record.config.def.timeoutMs },
  );
  return formatPrompt(record.name, prompt.name, result);
}

/**
 * Reads one resource of a connected server: a listed URI, or one a template expands to. @internal
 *
 * @throws {@link UnknownServerError}, {@link ServerNotConnectedError}, {@link InvalidOptionsError}
 *   (the URI), and the request errors of `ServerConnection.request`.
 */
export async function readResource(
  registry: ServerRegistry,
  server: string,
  uri: string,
  signal: AbortSignal | undefined,
): Promise<ResourceResult> {
  checkUri(uri);
  const { record, connection } = connectionOf(registry, server);
  const listed = record.resources.resources.find((resource) => resource.uri === uri);
  const label = `the resource ${listed?.shownUri ?? quoteText(uri, 200)} of MCP server "${record.name}"`;
  const result = await connection.request(
    label,
    (client, limits) => client.readResource({ uri }, limits),
    { signal, timeoutMs: record.config.def.timeoutMs },
  );
  return formatResource(record.name, uri, result);
}

/**
 * Subscribes to or unsubscribes from one resource of a connected server; its updates then reach
 * the host's `onChange` as `{ kind: 'resource' }`, coalesced. @internal
 *
 * @throws {@link UnknownServerError}, {@link ServerNotConnectedError}, {@link InvalidOptionsError}
 *   (the URI, or too many subscriptions), {@link CallFailedError} (the server offers none, or
 *   refused), and the request errors of `ServerConnection.request`.
 */
export async function setSubscribed(
  registry: ServerRegistry,
  server: string,
  uri: string,
  subscribed: boolean,
  signal: AbortSignal | undefined,
): Promise<void> {
  checkUri(uri);
  const { record, connection } = connectionOf(registry, server);
  const subscriptions = registry.subscriptions.get(connection);
  if (subscriptions === undefined) {
    throw new ServerNotConnectedError(record.name, record.state, 'it is not connected');
  }
  const listed = record.resources.resources.find((resource) => resource.uri === uri);
  const label = `the subscription to ${listed?.shownUri ?? quoteText(uri, 200)} of MCP server "${record.name}"`;
  const limits = { signal, timeoutMs: record.config.def.timeoutMs };
  await (subscribed
    ? subscriptions.add(uri, label, limits)
    : subscriptions.remove(uri, label, limits));
}
