// Codex CLI keeps its servers in TOML. smol-toml is used because it is small, has no
// dependencies, follows TOML 1.0 (tested against the official suite), keeps `__proto__` keys as
// plain own keys of prototype-less tables, and has a nesting limit: writing a TOML parser here
// would be more code to get wrong than the dependency.
import { parse, TomlError } from 'smol-toml';
import { ImportNoteCode, type ImportNote } from './import-types.js';
import { MAX_JSON_DEPTH } from './limits.js';
import type { ParsedSource, SourcePlace } from './parse-source-json.js';
import { shortText } from './quote-text.js';

/**
 * `[<key>.<name>` or `<key>.<name>` at a line's start. `key` is a host descriptor's own
 * `serversKey` constant (never text from a file), escaped all the same.
 */
function tableKey(key: string): RegExp {
  const bare = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^(\\s*)(\\[\\s*)?${bare}\\s*\\.\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*'|[A-Za-z0-9_-]+)`,
  );
}

/**
 * Where each `[<key>.<name>]` (or `<key>.<name>.field = …`) is first written, in one pass over
 * the lines: TOML parsers give no positions. Best effort (a server written as an inline table
 * gets none).
 */
function serverPlaces(text: string, key: string): Map<string, SourcePlace> {
  const places = new Map<string, SourcePlace>();
  const lines = text.split(/\r\n|\n/);
  const pattern = tableKey(key);
  for (let i = 0; i < lines.length; i++) {
    const match = pattern.exec(lines[i] ?? '');
    if (match === null) continue;
    const raw = match[3] ?? '';
    let name = raw;
    if (raw.startsWith('"')) {
      try {
        name = JSON.parse(raw) as string;
      } catch {
        continue;
      }
    } else if (raw.startsWith("'")) {
      name = raw.slice(1, -1);
    }
    if (!places.has(name)) places.set(name, { line: i + 1, column: (match[1]?.length ?? 0) + 1 });
  }
  return places;
}

/** Parses a TOML file whose server list is `serversKey`. Never throws. @internal */
export function parseSourceToml(text: string, serversKey: string): ParsedSource {
  if (text.trim() === '') {
    return {
      ok: false,
      problems: [{ code: ImportNoteCode.INVALID_SYNTAX, message: 'is empty: nothing to import' }],
    };
  }
  let value: unknown;
  try {
    value = parse(text, { maxDepth: MAX_JSON_DEPTH });
  } catch (error) {
    const note: ImportNote =
      error instanceof TomlError
        ? {
            code: ImportNoteCode.INVALID_SYNTAX,
            line: error.line,
            column: error.column,
            // The library's first line says what is wrong; the code excerpt after it is left out.
            message:
              `is not valid TOML at line ${error.line}, column ${error.column}: ` +
              `${shortText((error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, ''))}; ` +
              'nothing was imported from it',
          }
        : {
            code: ImportNoteCode.INVALID_SYNTAX,
            message: 'could not be parsed as TOML: nothing was imported from it',
          };
    return { ok: false, problems: [note] };
  }
  let places: Map<string, SourcePlace> | undefined;
  return {
    ok: true,
    value,
    placeOf: (path) => {
      if (path.length !== 2 || path[0] !== serversKey) return undefined;
      places ??= serverPlaces(text, serversKey);
      return places.get(path[1] ?? '');
    },
    // TOML itself refuses a key defined twice.
    duplicates: [],
  };
}
