import { cleanJson, neutralizeTags } from '@garuda/mcp-sanitize';
import { isRecord } from '@garuda/internal';
import { BodyParts, blockText, readResult, safeOnce, wrap } from './content-text.js';
import { countOption } from './errors.js';
import { resultContent } from './result-content.js';
import type { CallResult } from './types.js';

/** The longest result text given to the model by default (inside the wrapper). */
export const MAX_RESULT_CHARS = 30_000;

/** Options of {@link formatResult}. */
export interface FormatResultOptions {
  /** The most characters of result text (default {@link MAX_RESULT_CHARS}). */
  readonly maxChars?: number;
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

/** The body of a result: its blocks, then structured content when no block is text. */
function resultBody(
  result: Record<string, unknown>,
  maxChars: number,
  clean: (text: string) => string,
): string {
  const parts = new BodyParts(maxChars, clean);
  let hasText = false;
  const content: unknown = result.content;
  if (Array.isArray(content)) {
    for (const block of content as unknown[]) {
      if (isRecord(block) && block.type === 'text') hasText = true;
      if (!parts.add(blockText(block))) return parts.text();
    }
  } else if (content !== undefined) {
    parts.add('[content that is not a list, not shown]');
  }
  if (!hasText) {
    if (result.structuredContent !== undefined) parts.add(prettyJson(result.structuredContent));
    else if (content === undefined && result.toolResult !== undefined) {
      // The 2024-11-05 result form.
      parts.add(prettyJson(result.toolResult));
    }
  }
  if (parts.empty) parts.add('[no content]');
  return parts.text();
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
  let isError = false;
  // The body and the typed content read the same text blocks: each is cleaned once.
  const clean = safeOnce();
  const read = readResult(
    result,
    (record) => {
      isError = record.isError === true;
      return {
        body: resultBody(record, maxChars, clean),
        content: resultContent(record.content, maxChars, clean),
      };
    },
    (note) => ({ body: note, content: [] }),
  );
  return {
    text: wrap('mcp_result', { server, tool }, read.body, maxChars),
    isError,
    content: read.content,
  };
}
