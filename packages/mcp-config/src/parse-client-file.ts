import { invalidArgument } from './errors.js';
import { hostById } from './hosts/index.js';
import { IMPORT_CLIENTS, type ImportClient, type ImportNote } from './import-types.js';
import { parseSourceJson, type ParsedSource } from './parse-source-json.js';
import { parseSourceToml } from './parse-source-toml.js';

/** The result of {@link parseClientFile}. */
export type ParsedClientFile =
  | {
      readonly ok: true;
      /** The data, every key an own property (`__proto__` too: it is never a prototype). */
      readonly value: unknown;
    }
  | {
      readonly ok: false;
      /**
       * Why the text cannot be used (`INVALID_SYNTAX` with line and column, `TOO_DEEP`), each
       * `message` one line to follow the file's name (`is not valid TOML at line 2, column 14:
       * …`), saying what is wrong, not what the caller does about it.
       */
      readonly problems: readonly ImportNote[];
    };

/**
 * Parses the text of another client's configuration file as {@link readImportSources} does:
 * Codex's TOML, JSON with comments and trailing commas for VS Code, Cursor and Gemini CLI,
 * strict JSON for Claude Code and Claude Desktop. Nesting deeper than any configuration needs
 * is a `TOO_DEEP` problem found by a linear scan before any recursive parser sees the text, so
 * no file can exhaust the stack. Never throws for any text.
 *
 * @param client - Whose file it is.
 * @param text - The file's text (UTF-8 decoded, without a byte order mark).
 * @returns The data, or the problems (line and column where known).
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` for a client not in {@link IMPORT_CLIENTS} or
 *   text that is not a string (a programming error).
 * @example
 * ```ts
 * const parsed = parseClientFile('codex', await readFile(file, 'utf8'));
 * if (!parsed.ok) ui.error(`${file} ${parsed.problems[0]?.message}`); // nothing is written to it
 * ```
 */
export function parseClientFile(client: ImportClient, text: string): ParsedClientFile {
  if (!(IMPORT_CLIENTS as readonly string[]).includes(client)) {
    throw invalidArgument(`parseClientFile: client must be one of ${IMPORT_CLIENTS.join(', ')}`);
  }
  if (typeof text !== 'string') throw invalidArgument('parseClientFile: text must be a string');
  const parsed = parseSource(client, text);
  if (parsed.ok) return { ok: true, value: parsed.value };
  // The notes end with what import did about them; a caller that edits the file says its own.
  return {
    ok: false,
    problems: parsed.problems.map((note) => ({
      ...note,
      message: note.message.replace(IMPORT_CONSEQUENCE, ''),
    })),
  };
}

/** How the parsers' notes end (`…; nothing was imported from it`, `…: nothing to import`). */
const IMPORT_CONSEQUENCE = /[:;] nothing (?:was imported from it|to import)$/;

/** {@link parseClientFile} with the places and duplicates import needs. @internal */
export function parseSource(client: ImportClient, text: string): ParsedSource {
  const { format, serversKey } = hostById(client);
  return format === 'toml'
    ? parseSourceToml(text, serversKey)
    : parseSourceJson(text, format === 'jsonc');
}
