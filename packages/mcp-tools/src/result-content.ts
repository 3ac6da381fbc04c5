// A tool result's content blocks as typed data, for hosts that render images, audio, links and
// resources themselves. The model reads `formatResult`'s text; this is the same result, cleaned
// the same way, with binary data kept (as the server sent it, checked to be base64) instead of a note.
import { capText, checkUrl } from '@garuda/mcp-sanitize';
import type { UrlRefusalCode } from '@garuda/mcp-sanitize';
import { isRecord } from '@garuda/internal';
import { base64, base64Bytes, noteField, safe } from './content-text.js';
import { quoteText } from './quote-text.js';

/** The most content blocks given as typed data; the rest are counted in one `omitted` block. */
export const MAX_CONTENT_BLOCKS = 1000;

/**
 * A URI a server gave, through the one URL policy (`checkUrl`, `use: 'show'`): `uri` is its
 * shown form when the policy lets it be shown, `uriRefused` the reason when not.
 */
export interface CheckedUri {
  readonly uri?: string;
  readonly uriRefused?: UrlRefusalCode | 'NO_URI';
}

/** One content block of a result, typed; every string cleaned (text blocks also tag-neutralised). */
export type ResultContent =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image' | 'audio';
      /** The server's MIME type (cleaned; not checked: render only the types you trust). */
      readonly mimeType: string;
      /** The base64 data as the server sent it (checked to be base64); empty when it was not. */
      readonly data: string;
      /** The decoded size in bytes. */
      readonly bytes: number;
    }
  | ({
      readonly type: 'resource_link';
      readonly name?: string;
      readonly mimeType?: string;
    } & CheckedUri)
  | ({
      readonly type: 'resource';
      readonly mimeType?: string;
      /** A text resource's text, cleaned, tag-neutralised and capped. */
      readonly text?: string;
      /** A binary resource's base64 data as sent (checked to be base64). */
      readonly blob?: string;
      /** A binary resource's decoded size in bytes. */
      readonly bytes?: number;
    } & CheckedUri)
  | {
      /** A block this client does not know, or one that is malformed: a note says which. */
      readonly type: 'other';
      readonly note: string;
    }
  | {
      /** Blocks past {@link MAX_CONTENT_BLOCKS}, counted. */
      readonly type: 'omitted';
      readonly count: number;
    };

function checkedUri(value: unknown): CheckedUri {
  if (typeof value !== 'string' || value === '') return { uriRefused: 'NO_URI' };
  const verdict = checkUrl(value, { use: 'show' });
  return verdict.ok ? { uri: verdict.shown } : { uriRefused: verdict.code };
}

function blockContent(
  block: unknown,
  maxChars: number,
  clean: (text: string) => string,
): ResultContent {
  const safeText = (text: string) => capText(clean(text), maxChars);
  if (!isRecord(block)) return { type: 'other', note: 'a content block that is not an object' };
  const mimeType = noteField(block.mimeType);
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string'
        ? { type: 'text', text: safeText(block.text) }
        : { type: 'other', note: 'a text block without text' };
    case 'image':
    case 'audio': {
      const data = base64(block.data) ?? '';
      return {
        type: block.type,
        mimeType: mimeType ?? 'unknown type',
        data,
        bytes: base64Bytes(data),
      };
    }
    case 'resource_link': {
      const name = noteField(block.name);
      return {
        type: 'resource_link',
        ...checkedUri(block.uri),
        ...(name === undefined ? {} : { name }),
        ...(mimeType === undefined ? {} : { mimeType }),
      };
    }
    case 'resource': {
      const resource = block.resource;
      if (!isRecord(resource))
        return { type: 'other', note: 'an embedded resource without content' };
      const resourceMime = noteField(resource.mimeType);
      const blob = base64(resource.blob);
      return {
        type: 'resource',
        ...checkedUri(resource.uri),
        ...(resourceMime === undefined ? {} : { mimeType: resourceMime }),
        ...(typeof resource.text === 'string'
          ? { text: safeText(resource.text) }
          : blob === undefined
            ? {}
            : { blob, bytes: base64Bytes(blob) }),
      };
    }
    default:
      return { type: 'other', note: `content of type ${quoteText(block.type)}` };
  }
}

/**
 * A result's `content` as typed blocks (at most {@link MAX_CONTENT_BLOCKS}, then one `omitted`).
 * Never throws. @internal
 *
 * @param content - The result's `content` (untrusted).
 * @param maxChars - The cap of each text.
 * @returns The blocks; none when `content` is not a list.
 */
export function resultContent(
  content: unknown,
  maxChars: number,
  clean: (text: string) => string = safe,
): readonly ResultContent[] {
  if (!Array.isArray(content)) return [];
  const blocks: ResultContent[] = [];
  const list = content as unknown[];
  for (const block of list.slice(0, MAX_CONTENT_BLOCKS)) {
    try {
      blocks.push(blockContent(block, maxChars, clean));
    } catch {
      // Only a value no JSON parser produces (a throwing getter, a proxy) gets here.
      blocks.push({ type: 'other', note: 'a content block that could not be read' });
    }
  }
  if (list.length > MAX_CONTENT_BLOCKS) {
    blocks.push({ type: 'omitted', count: list.length - MAX_CONTENT_BLOCKS });
  }
  return blocks;
}
