import type { StoredValue } from './json-value.js';
import type { JsonFileCheck } from './locked-json-file.js';

/** The only file format version this package reads and writes. @internal */
export const TRUST_FILE_VERSION = 1;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the parsed JSON of a trust file: `{ "version": 1, "entries": { … } }`. Anything else is
 * reported with a reason, never thrown.
 * @internal
 */
export function trustFileFromJson(data: unknown): JsonFileCheck<Map<string, StoredValue>> {
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
  return { ok: true, value: new Map(Object.entries(data.entries) as [string, StoredValue][]) };
}

/**
 * The JSON of a trust file holding `entries`, keys sorted so the file diffs well.
 * @internal
 */
export function trustFileToJson(entries: ReadonlyMap<string, StoredValue>): unknown {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { version: TRUST_FILE_VERSION, entries: Object.fromEntries(sorted) };
}
