// The parts the views of a server's lists share: a listing (resources, resource templates,
// prompts), each entry judged alone, one notice per skipped entry, repeats skipped, a cap on the
// count, and the cleaning of the fields an entry has; and the items of a result (a resource's
// contents, a prompt's messages) as a body of text and typed data.
import { capText, cleanLine, cleanText, neutralizeTags } from '@garuda/mcp-sanitize';
import { groupDigits, isRecord } from '@garuda/internal';
import { MAX_DESCRIPTION_CHARS, MAX_SKIP_NOTICES } from './adapt-tools.js';
import { BodyParts } from './content-text.js';
import { headLine, quoteText } from './quote-text.js';
import { MAX_CONTENT_BLOCKS } from './result-content.js';

/**
 * The longest one-line field of a listed resource, resource template or prompt (a name, a
 * title, a MIME type, a prompt argument's description), in code points.
 */
export const MAX_FIELD_CHARS = 500;

/**
 * A string field as one cleaned, tag-neutralised line of at most `max` code points (only its
 * head is read, so a huge value costs no more than a short one); `undefined` when it is not a
 * string or nothing is left. @internal
 */
export function lineField(value: unknown, max: number = MAX_FIELD_CHARS): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = headLine(value, max);
  return line === '' ? undefined : line;
}

/**
 * A string field that may keep its lines (a description): cleaned, tag-neutralised, trimmed and
 * capped with `capText`; `undefined` when it is not a string or nothing is left. @internal
 */
export function paragraphField(
  value: unknown,
  max: number = MAX_DESCRIPTION_CHARS,
): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = neutralizeTags(cleanText(value)).trim();
  return text === '' ? undefined : capText(text, max);
}

/** `{ [key]: value }`, or nothing when `value` is `undefined`: for optional fields. @internal */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, V>>);
}

/**
 * What one entry of a list became: an item with the key that must be unique, or a problem. `name`
 * is the entry's name as sent, to name it in a notice.
 */
export type Listed<T> =
  | { readonly item: T; readonly key: string; readonly name: unknown; readonly problem?: undefined }
  | { readonly problem: string; readonly name?: unknown };

/** How a list's entries are named in notices. */
export interface ListKind {
  /** One entry, e.g. `resource`. */
  readonly one: string;
  /** Many, e.g. `resources`. */
  readonly many: string;
  /** What must be unique, e.g. `URI`. */
  readonly key: string;
}

/** What {@link adaptList} returns. */
export interface AdaptedList<T> {
  readonly items: T[];
  /** One-line, cleaned notices: skipped entries (at most {@link MAX_SKIP_NOTICES} named), a cut. */
  readonly skipped: string[];
}

/**
 * Turns a list a server sent (untrusted) into items, one entry at a time: an entry that is not an
 * object, one `read` finds a problem with, one whose key an earlier item has, and one that
 * throws (a getter, a proxy) is skipped with a notice; entries past `max` items are left out with
 * one notice. Never throws. @internal
 *
 * @param server - The server name.
 * @param list - The list as it came.
 * @param kind - How entries are named in notices.
 * @param max - The most items kept.
 * @param read - Judges and adapts one entry; reads each of its fields once.
 * @returns The items and the notices.
 */
export function adaptList<T>(
  server: string,
  list: unknown,
  kind: ListKind,
  max: number,
  read: (entry: Record<string, unknown>) => Listed<T>,
): AdaptedList<T> {
  const who = `MCP server ${quoteText(server)}`;
  const items: T[] = [];
  const skipped: string[] = [];
  let length: number;
  try {
    if (!Array.isArray(list)) {
      return { items, skipped: [`${who} returned a ${kind.one} list that is not a list`] };
    }
    length = (list as unknown[]).length;
  } catch {
    // A revoked proxy, or a length that throws: nothing no JSON parser makes.
    return { items, skipped: [`${who} returned a ${kind.one} list that could not be read`] };
  }
  const entries = list as unknown[];
  const firstByKey = new Map<string, number>();
  let count = 0;
  const skip = (index: number, name: unknown, reason: string) => {
    if (++count > MAX_SKIP_NOTICES) return;
    const quoted = typeof name === 'string' ? quoteText(name) : '""';
    const label = quoted === '""' ? '' : ` ${quoted}`;
    skipped.push(cleanLine(`${who}: ${kind.one} #${index + 1}${label} was skipped: ${reason}`));
  };
  let index = 0;
  for (; index < length && items.length < max; index++) {
    let listed: Listed<T>;
    try {
      const entry: unknown = entries[index];
      listed = isRecord(entry) ? read(entry) : { problem: 'it is not an object' };
    } catch {
      // Only a value no JSON parser produces (a throwing getter, a proxy) gets here.
      listed = { problem: 'it could not be read' };
    }
    if (listed.problem !== undefined) {
      skip(index, listed.name, listed.problem);
      continue;
    }
    const first = firstByKey.get(listed.key);
    if (first !== undefined) {
      skip(index, listed.name, `its ${kind.key} is listed already, by ${kind.one} #${first + 1}`);
      continue;
    }
    firstByKey.set(listed.key, index);
    items.push(listed.item);
  }
  if (count > MAX_SKIP_NOTICES) {
    skipped.push(
      `${who}: ${groupDigits(count - MAX_SKIP_NOTICES)} more ${kind.many} were skipped (malformed or listed twice)`,
    );
  }
  const left = length - index;
  if (left > 0) {
    skipped.push(
      `${who} listed ${groupDigits(length)} ${kind.many}: only ${groupDigits(max)} are used, the first ones listed (${groupDigits(left)} left out)`,
    );
  }
  return { items, skipped };
}

/** How the items of a result are named in notes, e.g. `content`, `contents`, `no content`. */
export interface ItemKind {
  readonly one: string;
  readonly many: string;
  readonly none: string;
}

/** What {@link resultItems} returns. */
export interface ResultItems<T> {
  /** The items' text, one line break between two, each cleaned; past `maxChars`, no more. */
  readonly body: string;
  /** The well-formed items typed, at most `MAX_CONTENT_BLOCKS`. */
  readonly items: T[];
  /** How many of the list's items are not in `items` (malformed, or past the cap). */
  readonly omitted: number;
}

/**
 * The items of a result (untrusted) as a body of text and as typed data: `read` gives each
 * object item's text and, when it is well formed, its typed form; an item that is not an object
 * or that throws gives a note, as does a list that is not a list. The text stops once it passes
 * `maxChars` and the typed list at `MAX_CONTENT_BLOCKS`, so the work stays bounded. @internal
 *
 * @param list - The result's list, as it came.
 * @param kind - How items are named in notes.
 * @param maxChars - The cap of the text.
 * @param read - Reads one item; reads each of its fields once.
 * @returns The body, the typed items and how many were left out.
 */
export function resultItems<T>(
  list: unknown,
  kind: ItemKind,
  maxChars: number,
  read: (item: Record<string, unknown>) => { readonly text: string; readonly typed?: T },
): ResultItems<T> {
  const parts = new BodyParts(maxChars);
  const items: T[] = [];
  if (!Array.isArray(list)) {
    parts.add(
      list === undefined ? `[${kind.none}]` : `[${kind.many} that are not a list, not shown]`,
    );
    return { body: parts.text(), items, omitted: 0 };
  }
  const all = list as unknown[];
  let open = true;
  for (let i = 0; i < all.length && (open || i < MAX_CONTENT_BLOCKS); i++) {
    let one: { readonly text: string; readonly typed?: T };
    try {
      const item: unknown = all[i];
      one = isRecord(item)
        ? read(item)
        : { text: `[a ${kind.one} that is not an object, not shown]` };
    } catch {
      // Only a value no JSON parser produces (a throwing getter, a proxy) gets here.
      one = { text: `[a ${kind.one} that could not be read]` };
    }
    if (one.typed !== undefined && i < MAX_CONTENT_BLOCKS) items.push(one.typed);
    if (open) open = parts.add(one.text);
  }
  if (parts.empty) parts.add(`[${kind.none}]`);
  return { body: parts.text(), items, omitted: all.length - items.length };
}
