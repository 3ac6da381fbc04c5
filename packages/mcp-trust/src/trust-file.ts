import type { JsonValue } from './json-value.js';

/** The only file format version this package reads and writes. @internal */
export const TRUST_FILE_VERSION = 1;

/** What a trust file's text holds. @internal */
export type ParsedTrustFile =
  { ok: true; entries: Map<string, JsonValue> } | { ok: false; reason: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses the text of a trust file: `{ "version": 1, "entries": { … } }`. Anything else is
 * reported with a reason, never thrown.
 * @internal
 */
export function parseTrustFile(text: string): ParsedTrustFile {
  let data: unknown;
  try {
    // An editor may have added a byte order mark; it is not part of the JSON.
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { ok: false, reason: text.trim() === '' ? 'it is empty' : 'it is not valid JSON' };
  }
  if (!isPlainObject(data)) return { ok: false, reason: 'it is not a JSON object' };
  if (data.version !== TRUST_FILE_VERSION) {
    const version = data.version;
    return {
      ok: false,
      reason:
        version === undefined
          ? 'it has no "version"'
          : `its "version" is ${typeof version === 'number' ? String(version) : 'not a number'}, ` +
            `this version of @garuda/mcp-trust reads version ${TRUST_FILE_VERSION}`,
    };
  }
  if (!isPlainObject(data.entries)) return { ok: false, reason: 'its "entries" is not an object' };
  // JSON.parse only produces JSON values, and Object.entries sees a "__proto__" key as the own
  // data property JSON.parse created.
  return { ok: true, entries: new Map(Object.entries(data.entries) as [string, JsonValue][]) };
}

/**
 * The text of a trust file holding `entries`, keys sorted so the file diffs well.
 * @internal
 */
export function serializeTrustFile(entries: ReadonlyMap<string, JsonValue>): string {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const body = { version: TRUST_FILE_VERSION, entries: Object.fromEntries(sorted) };
  return `${JSON.stringify(body, null, 2)}\n`;
}
