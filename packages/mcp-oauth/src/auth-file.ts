import type { JsonFileCheck } from '@garuda/mcp-trust';
import { isPlainObject } from './auth-entry.js';

/** The only file format version this package reads and writes. @internal */
export const AUTH_FILE_VERSION = 1;

/**
 * Reads the parsed JSON of an auth file: `{ "version": 1, "entries": { "<key>": { … } } }`. A
 * file of another shape is reported with a reason (never with its content), never thrown.
 * Entries are kept as they are: the store checks each one when it reads it, and writes back the
 * ones it does not understand untouched.
 * @internal
 */
export function authFileFromJson(data: unknown): JsonFileCheck<Map<string, unknown>> {
  if (!isPlainObject(data)) return { ok: false, reason: 'it is not a JSON object' };
  if (data.version !== AUTH_FILE_VERSION) {
    return {
      ok: false,
      reason:
        data.version === undefined
          ? 'it has no "version"'
          : `its "version" is not ${AUTH_FILE_VERSION}, the version this package reads`,
    };
  }
  if (!isPlainObject(data.entries)) return { ok: false, reason: 'its "entries" is not an object' };
  // Object.entries sees a "__proto__" key as the own data property JSON.parse created.
  return { ok: true, value: new Map(Object.entries(data.entries)) };
}

/** The JSON of an auth file holding `entries`, keys sorted. @internal */
export function authFileToJson(entries: ReadonlyMap<string, unknown>): unknown {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { version: AUTH_FILE_VERSION, entries: Object.fromEntries(sorted) };
}
