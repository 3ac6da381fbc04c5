// What a server sent, as text for the model: content blocks, URIs and notes, and the wrapper that
// marks it as the server's. Shared by the views of tool results, resources and prompts, so each of
// them says the same thing about the same content and cleans it the same way.
import {
  capText,
  checkUrl,
  cleanAndNeutralize,
  cleanLine,
  neutralizeTags,
} from '@garuda/mcp-sanitize';
import type { UrlRefusalCode } from '@garuda/mcp-sanitize';
import { capLine, isRecord } from '@garuda/internal';
import { quoteText } from './quote-text.js';

/** The longest attribute value of a wrapper (a server, tool or prompt name, a URI), in code points. */
export const MAX_ATTRIBUTE_CHARS = 200;

/** The longest URI, MIME type or name inside a note, in code points. */
const MAX_NOTE_FIELD_CHARS = 500;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded size of base64 data, without decoding it. @internal */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `value` when it is a string of base64 data (padded, standard alphabet), else `undefined`. @internal */
export function base64(value: unknown): string | undefined {
  return typeof value === 'string' && value.length % 4 === 0 && BASE64.test(value)
    ? value
    : undefined;
}

/**
 * Cleaned and tag-neutralised (`cleanText` then `neutralizeTags`, in the sanitizer's single fused
 * pass), before any cap. @internal
 */
export function safe(text: string): string {
  return cleanAndNeutralize(text);
}

/**
 * {@link safe} that remembers what it cleaned, for one result: its body and its typed content
 * read the same strings, which are then cleaned once, not twice. @internal
 */
export function safeOnce(): (text: string) => string {
  const done = new Map<string, string>();
  return (text) => {
    let clean = done.get(text);
    if (clean === undefined) {
      clean = safe(text);
      done.set(text, clean);
    }
    return clean;
  };
}

/** A string field cleaned to one line and capped for a note; `undefined` when empty. @internal */
export function noteField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = capLine(cleanLine(value), MAX_NOTE_FIELD_CHARS);
  return line === '' ? undefined : line;
}

/** A URI as the model and a person read it, and why it is not shown when it is not. @internal */
export interface ShownUri {
  /** The URI in the form `checkUrl` shows (tag-neutralised, capped), or a note such as `no uri`. */
  readonly shown: string;
  /** Why the URI itself is not shown; absent when `shown` is the URI. */
  readonly refused?: UrlRefusalCode | 'NO_URI';
}

/**
 * A URI a server gave, through the one URL policy (`checkUrl`, `use: 'show'`), so a script scheme,
 * hidden characters or credentials never reach the model as a link; tag-neutralised, since an
 * opaque URI (`urn:…`) keeps its `<` as written. Never throws. @internal
 */
export function showUri(value: unknown): ShownUri {
  if (typeof value !== 'string' || value === '') return { shown: 'no uri', refused: 'NO_URI' };
  const verdict = checkUrl(value, { use: 'show' });
  return verdict.ok
    ? { shown: capLine(neutralizeTags(verdict.shown), MAX_NOTE_FIELD_CHARS) }
    : { shown: `a URI that is not shown (${verdict.code})`, refused: verdict.code };
}

/** {@link showUri}'s text only. @internal */
export function uriText(value: unknown): string {
  return showUri(value).shown;
}

function mediaNote(kind: string, block: Record<string, unknown>): string {
  const mime = noteField(block.mimeType) ?? 'unknown type';
  const size = typeof block.data === 'string' ? `, ${base64Bytes(block.data)} bytes` : '';
  return `[${kind}: ${mime}${size}, not shown]`;
}

function resourceText(block: Record<string, unknown>): string {
  const resource = block.resource;
  if (!isRecord(resource)) return '[embedded resource without content, not shown]';
  const uri = uriText(resource.uri);
  if (typeof resource.text === 'string') return `[resource: ${uri}]\n${resource.text}`;
  if (typeof resource.blob === 'string') {
    const mime = noteField(resource.mimeType) ?? 'unknown type';
    return `[resource: ${uri}, ${mime}, ${base64Bytes(resource.blob)} bytes, not shown]`;
  }
  return `[resource: ${uri}, no content]`;
}

/**
 * One MCP content block (text, image, audio, resource_link, resource) as text, not yet cleaned:
 * binary data as a note, URIs through {@link showUri}, any other block a note. Never throws on a
 * parsed JSON value. @internal
 */
export function blockText(block: unknown): string {
  if (!isRecord(block)) return '[a content block that is not an object, not shown]';
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '[a text block without text]';
    case 'image':
      return mediaNote('image', block);
    case 'audio':
      return mediaNote('audio', block);
    case 'resource_link': {
      const name = noteField(block.name);
      return `[resource link: ${uriText(block.uri)}${name === undefined ? '' : ` ${name}`}]`;
    }
    case 'resource':
      return resourceText(block);
    default:
      return `[content of type ${quoteText(block.type)}, not shown]`;
  }
}

/** The note for a result that is not an object (`null`, a list, a string…). @internal */
export function notAnObjectNote(result: unknown): string {
  const kind = result === null ? 'null' : Array.isArray(result) ? 'a list' : typeof result;
  return `[the server returned a result that is not an object (${kind}), not shown]`;
}

/**
 * `read(result)` for a result that is an object; `noted(note)` with a note for one that is not,
 * or that throws while it is read. Never throws. @internal
 *
 * @param result - A server's result, as it came.
 * @param read - Reads an object result.
 * @param noted - What to return instead, given the note that says why.
 * @returns What `read` or `noted` returned.
 */
export function readResult<T>(
  result: unknown,
  read: (result: Record<string, unknown>) => T,
  noted: (note: string) => T,
): T {
  try {
    return isRecord(result) ? read(result) : noted(notAnObjectNote(result));
  } catch {
    // Only a value no JSON parser produces (a throwing getter, a revoked proxy) gets here.
    return noted('[the result could not be read]');
  }
}

/**
 * The parts of a body, each cleaned and tag-neutralised as it is added, until they pass
 * `maxChars`: past the cap nothing more can show, and stopping bounds the work on a list of many
 * tiny parts. @internal
 */
export class BodyParts {
  readonly #parts: string[] = [];
  readonly #maxChars: number;
  readonly #clean: (text: string) => string;
  #length = 0;

  /**
   * @param maxChars - The cap the body will be cut to.
   * @param clean - How a part is cleaned (default {@link safe}).
   */
  constructor(maxChars: number, clean: (text: string) => string = safe) {
    this.#maxChars = maxChars;
    this.#clean = clean;
  }

  /**
   * @param text - One part, as the server sent it.
   * @returns Whether more parts can still show.
   */
  add(text: string): boolean {
    const part = this.#clean(text);
    this.#parts.push(part);
    this.#length += part.length + 1;
    return this.#length <= this.#maxChars;
  }

  /** Whether nothing was added. */
  get empty(): boolean {
    return this.#parts.length === 0;
  }

  /** The parts, one line break between two. */
  text(): string {
    return this.#parts.join('\n');
  }
}

function attribute(value: string): string {
  return capLine(neutralizeTags(cleanLine(value)), MAX_ATTRIBUTE_CHARS)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/**
 * `body` wrapped in `<tag a="…">\n…\n</tag>`: the attribute values cleaned to one line,
 * tag-neutralised, capped at {@link MAX_ATTRIBUTE_CHARS} and with `&`, `"`, `<` and `>` escaped
 * (names come from the server); the body cleaned and tag-neutralised once more as a whole (a tag
 * could otherwise form across the line between two parts), then capped at `maxChars`. `lead`, a
 * line of our own, comes first and is not counted in the cap. @internal
 *
 * @param tag - Our tag name, one of mcp-sanitize's `DEFAULT_TAGS`.
 * @param attributes - Each attribute's name and value, in order.
 * @param body - The text inside.
 * @param maxChars - The cap of the body.
 * @param lead - A first line of our own.
 * @returns The wrapped text.
 */
export function wrap(
  tag: string,
  attributes: Readonly<Record<string, string>>,
  body: string,
  maxChars: number,
  lead?: string,
): string {
  const open = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${attribute(value)}"`)
    .join('');
  const text = capText(safe(body), maxChars);
  return `<${tag}${open}>\n${lead === undefined ? '' : `${lead}\n`}${text}\n</${tag}>`;
}
