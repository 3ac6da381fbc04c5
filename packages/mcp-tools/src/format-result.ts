import {
  capText,
  checkUrl,
  cleanJson,
  cleanLine,
  cleanText,
  neutralizeTags,
} from '@garuda/mcp-sanitize';
import { countOption } from './errors.js';
import { capLine, quoteText } from './quote-text.js';
import { isRecord } from '@garuda/internal';
import { base64Bytes, resultContent } from './result-content.js';
import type { CallResult } from './types.js';

/** The longest result text given to the model by default (inside the wrapper). */
export const MAX_RESULT_CHARS = 30_000;

/** The longest server or tool name in the wrapper's attributes, in code points. */
export const MAX_ATTRIBUTE_CHARS = 200;

/** The longest URI, MIME type or name inside a note, in code points. */
const MAX_NOTE_FIELD_CHARS = 500;

/** Options of {@link formatResult}. */
export interface FormatResultOptions {
  /** The most characters of result text (default {@link MAX_RESULT_CHARS}). */
  readonly maxChars?: number;
}

function field(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = capLine(cleanLine(value), MAX_NOTE_FIELD_CHARS);
  return line === '' ? undefined : line;
}

/**
 * A resource's URI as the model reads it: through the one URL policy (`checkUrl`, `use: 'show'`),
 * so a script scheme, hidden characters or credentials never reach the model as a link.
 */
function uriText(value: unknown): string {
  if (typeof value !== 'string' || value === '') return 'no uri';
  const verdict = checkUrl(value, { use: 'show' });
  return verdict.ok
    ? capLine(verdict.shown, MAX_NOTE_FIELD_CHARS)
    : `a URI that is not shown (${verdict.code})`;
}

function mediaNote(kind: string, block: Record<string, unknown>): string {
  const mime = field(block.mimeType) ?? 'unknown type';
  const size = typeof block.data === 'string' ? `, ${base64Bytes(block.data)} bytes` : '';
  return `[${kind}: ${mime}${size}, not shown]`;
}

function resourceText(block: Record<string, unknown>): string {
  const resource = block.resource;
  if (!isRecord(resource)) return '[embedded resource without content, not shown]';
  const uri = uriText(resource.uri);
  if (typeof resource.text === 'string') return `[resource: ${uri}]\n${resource.text}`;
  if (typeof resource.blob === 'string') {
    const mime = field(resource.mimeType) ?? 'unknown type';
    return `[resource: ${uri}, ${mime}, ${base64Bytes(resource.blob)} bytes, not shown]`;
  }
  return `[resource: ${uri}, no content]`;
}

/** One content block as text; never throws. */
function blockText(block: unknown): string {
  if (!isRecord(block)) return '[a content block that is not an object, not shown]';
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '[a text block without text]';
    case 'image':
      return mediaNote('image', block);
    case 'audio':
      return mediaNote('audio', block);
    case 'resource_link': {
      const name = field(block.name);
      return `[resource link: ${uriText(block.uri)}${name === undefined ? '' : ` ${name}`}]`;
    }
    case 'resource':
      return resourceText(block);
    default:
      return `[content of type ${quoteText(block.type)}, not shown]`;
  }
}

/** Cleaned and tag-neutralised: the order the sanitizer asks for, before any cap. */
function safe(text: string): string {
  return neutralizeTags(cleanText(text));
}

/** Shorter strings are shown as they are: a token or an id may use the same letters. */
const MIN_BLOB_CHARS = 1024;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * A string that is base64 data (an image a server repeats in its structured content), as a note:
 * the model cannot read it, and it would fill the whole cap.
 */
function blobNote(text: string): string | undefined {
  return text.length >= MIN_BLOB_CHARS && BASE64.test(text)
    ? `[base64 data, ${text.length} characters, not shown]`
    : undefined;
}

function prettyJson(value: unknown): string {
  return JSON.stringify(
    cleanJson(value, { mapString: (text) => blobNote(text) ?? neutralizeTags(text) }),
    null,
    2,
  );
}

function attribute(value: string): string {
  return capLine(neutralizeTags(cleanLine(value)), MAX_ATTRIBUTE_CHARS)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** The body of a result: its blocks, then structured content when no block is text. */
function resultBody(result: Record<string, unknown>, maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  let hasText = false;
  const add = (text: string): boolean => {
    const part = safe(text);
    parts.push(part);
    length += part.length + 1;
    // Past the cap nothing more can show; stopping bounds the work on a list of many tiny blocks.
    return length <= maxChars;
  };
  const content: unknown = result.content;
  if (Array.isArray(content)) {
    for (const block of content as unknown[]) {
      if (isRecord(block) && block.type === 'text') hasText = true;
      if (!add(blockText(block))) return parts.join('\n');
    }
  } else if (content !== undefined) {
    add('[content that is not a list, not shown]');
  }
  if (!hasText) {
    if (result.structuredContent !== undefined) add(prettyJson(result.structuredContent));
    else if (content === undefined && result.toolResult !== undefined) {
      // The 2024-11-05 result form.
      add(prettyJson(result.toolResult));
    }
  }
  if (parts.length === 0) add('[no content]');
  return parts.join('\n');
}

/**
 * Turns a tool call's result (untrusted, possibly hostile) into text for the model.
 *
 * Text blocks give their text; images and audio a note such as
 * `[image: image/png, 70 bytes, not shown]`; resource links `[resource link: <uri> <name>]`;
 * embedded resources their text after `[resource: <uri>]`, or a note for binary ones; any other
 * block type a note (never a throw). When no block is text, `structuredContent` is added as
 * pretty JSON, a base64 string of 1024 characters or more in it as a note
 * (`[base64 data, N characters, not shown]`). Everything is cleaned (`cleanText`), tag-neutralised (so `</mcp_result>` or
 * `<garuda_note>` in any disguise cannot close the wrapper or pose as the host) and capped at
 * `maxChars` (`capText`), then wrapped in
 * `<mcp_result server="<server>" tool="<tool>">…</mcp_result>`, whose attribute values are
 * cleaned to one line, tag-neutralised, capped and have `&`, `"`, `<` and `>` escaped (tool
 * names come from the server). `isError` is the server's `isError === true`. `content` is the
 * same blocks typed, for hosts that render them (`ResultContent`: text cleaned; image and audio
 * data kept as base64; URIs through `checkUrl`). A result that is not an object gives a note.
 * Nothing a server sends makes this throw.
 *
 * @param server - The server name.
 * @param tool - The tool's MCP name (as the server knows it).
 * @param result - What `client.callTool()` returned.
 * @param options - `maxChars` (default 30 000).
 * @returns The wrapped text and `isError`.
 * @throws InvalidOptionError when `maxChars` is not a non-negative integer (a programming error).
 * @example
 * ```ts
 * formatResult('github', 'search', { content: [{ type: 'text', text: 'found 3' }] });
 * // { text: '<mcp_result server="github" tool="search">\nfound 3\n</mcp_result>', isError: false,
 * //   content: [{ type: 'text', text: 'found 3' }] }
 * ```
 */
export function formatResult(
  server: string,
  tool: string,
  result: unknown,
  options: FormatResultOptions = {},
): CallResult {
  const maxChars = countOption('formatResult', 'maxChars', options.maxChars, MAX_RESULT_CHARS);
  let body: string;
  let isError = false;
  let content: CallResult['content'] = [];
  if (isRecord(result)) {
    try {
      isError = result.isError === true;
      body = resultBody(result, maxChars);
      content = resultContent(result.content, maxChars);
    } catch {
      // Only a value no JSON parser produces (a throwing getter, a proxy) gets here.
      body = '[the result could not be read]';
    }
  } else {
    body = `[the server returned a result that is not an object (${result === null ? 'null' : Array.isArray(result) ? 'a list' : typeof result}), not shown]`;
  }
  // Once more over the whole: a tag could otherwise form across the line between two blocks.
  const text = capText(safe(body), maxChars);
  return {
    text: `<mcp_result server="${attribute(server)}" tool="${attribute(tool)}">\n${text}\n</mcp_result>`,
    isError,
    content,
  };
}
