import { isRecord } from '@garuda/internal';
import { shortText } from './quote-text.js';
import { LOCAL_KEYS, REMOTE_KEYS } from './server-schema.js';
import type { ServerSource } from './server-types.js';
import { validateServer } from './validate-server.js';

/**
 * A field of the old entry that a replacement did not keep, and why:
 * - `'not-given'`: the new entry does not set it, and other fields were not to be kept;
 * - `'other-kind'`: the new entry is of the other kind (local or remote), which has no such field;
 * - `'invalid'`: its old value would not load;
 * - `'unknown'`: no server has such a field.
 */
export interface DroppedField {
  /** The field name (cleaned to one line and capped: it comes from the file). */
  readonly field: string;
  readonly reason: 'not-given' | 'other-kind' | 'invalid' | 'unknown';
}

/** What replacing an entry writes, and which old fields it kept or dropped. @internal */
export interface Replacement {
  readonly value: Record<string, unknown>;
  readonly kept: readonly string[];
  readonly dropped: readonly DroppedField[];
}

// What a server runs or where it connects always comes from the new entry: these are never kept
// and never reported (a new command line replaces the old args; "type" follows the kind).
const IDENTITY: ReadonlySet<string> = new Set(['command', 'args', 'url', 'type']);

function plainObject(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/**
 * The entry that replaces `old`. With `keep`, every field of the old entry that `entry` does
 * not set is kept when the new entry's kind has it and its old value is valid; the others are
 * reported as dropped. Without `keep`, `entry` is written as it is and every old field it does
 * not set is reported as dropped (`'not-given'`). @internal
 */
export function replaceEntry(
  name: string,
  entry: Record<string, unknown>,
  old: unknown,
  source: ServerSource,
  keep: boolean,
): Replacement {
  const oldFields = plainObject(old);
  const local = Object.hasOwn(entry, 'command');
  const allowed = local ? LOCAL_KEYS : REMOTE_KEYS;
  const otherKind = local ? REMOTE_KEYS : LOCAL_KEYS;
  const candidates: string[] = [];
  const dropped: DroppedField[] = [];
  for (const key of Object.keys(oldFields)) {
    if (IDENTITY.has(key) || Object.hasOwn(entry, key)) continue;
    if (!keep) dropped.push({ field: shortText(key), reason: 'not-given' });
    else if (allowed.includes(key)) candidates.push(key);
    else {
      dropped.push({
        field: shortText(key),
        reason: otherKind.includes(key) ? 'other-kind' : 'unknown',
      });
    }
  }
  if (candidates.length === 0) return { value: entry, kept: [], dropped };
  // An old value is kept only when it is valid beside the new entry (checked together, so a
  // field the old entry's own problems hid from the check is judged too).
  const invalid = new Set(
    validateServer(name, merged(allowed, entry, oldFields, candidates), source).issues.flatMap(
      (issue) => {
        const first = issue.path?.[0];
        return typeof first === 'string' && candidates.includes(first) ? [first] : [];
      },
    ),
  );
  const kept = candidates.filter((key) => !invalid.has(key));
  for (const key of candidates) {
    if (invalid.has(key)) dropped.push({ field: shortText(key), reason: 'invalid' });
  }
  // Dropped fields in the old entry's order.
  const order = Object.keys(oldFields);
  dropped.sort(
    (a, b) =>
      order.findIndex((k) => shortText(k) === a.field) -
      order.findIndex((k) => shortText(k) === b.field),
  );
  if (kept.length === 0) return { value: entry, kept, dropped };
  return { value: merged(allowed, entry, oldFields, kept), kept, dropped };
}

/** `entry` with the `kept` fields of `old`, in the schema's order, then the rest of `entry`. */
function merged(
  allowed: readonly string[],
  entry: Record<string, unknown>,
  old: Record<string, unknown>,
  kept: readonly string[],
): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const key of allowed) {
    if (Object.hasOwn(entry, key)) value[key] = entry[key];
    else if (kept.includes(key)) value[key] = old[key];
  }
  // Whatever else `entry` has is refused when it is checked; it is kept so the check sees it.
  for (const key of Object.keys(entry)) {
    if (!Object.hasOwn(value, key)) {
      Object.defineProperty(value, key, {
        value: entry[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return value;
}
