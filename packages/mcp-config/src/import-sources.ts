import { isRecord } from '@garuda/internal';
import { cleanLine } from '@garuda/mcp-sanitize';
import { stringify } from 'safe-stable-stringify';
import { CLIENT_NAMES } from './client-fields.js';
import { convertServer, type ConvertResult } from './convert-server.js';
import { inputVariable, type ValueContext } from './convert-values.js';
import { invalidArgument } from './errors.js';
import { formatFieldPath } from './field-path.js';
import { freeName, garudaName } from './import-name.js';
import { hostById } from './hosts/index.js';
import { importLocations } from './import-paths.js';
import {
  ImportNoteCode,
  type ImportClient,
  type ImportFile,
  type ImportNote,
  type ImportServer,
  type ImportSourceFile,
  type ImportSourcesResult,
  type ReadImportSourcesOptions,
} from './import-types.js';
import { parseSource } from './parse-client-file.js';
import { quoteText, shortText } from './quote-text.js';
import { readSourceFile } from './read-source-file.js';
import { SERVER_NAME } from './server-schema.js';
import type { ServerSource } from './server-types.js';

/** Servers read from one list; a hostile file cannot make the import do unbounded work. */
const MAX_SERVERS_PER_LIST = 500;

/** One server list in a file: where it is, and whether its servers are tied to one project. */
interface ServerList {
  readonly path: readonly string[];
  readonly projectLocal: boolean;
}

/**
 * The key of `projects` in `~/.claude.json` that is this project (a trailing slash ignored;
 * on Windows any slashes and any case). @internal
 */
export function claudeProjectKey(
  projects: unknown,
  root: string,
  platform: string,
): string | undefined {
  if (!isRecord(projects)) return undefined;
  const canonical = (p: string): string => {
    // Trailing separators counted off by hand: `/[\\/]+$/` would read a long run of them
    // again from each one.
    let end = p.length;
    while (end > 0 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
    const trimmed = p.length > 1 ? p.slice(0, end) : p;
    return platform === 'win32' ? trimmed.replace(/\\/g, '/').toLowerCase() : trimmed;
  };
  const wanted = canonical(root);
  if (Object.hasOwn(projects, root)) return root;
  return Object.keys(projects).find((key) => canonical(key) === wanted);
}

function serverLists(
  source: ImportSourceFile,
  data: Record<string, unknown>,
  root: string,
  platform: string,
): ServerList[] {
  const host = hostById(source.client);
  const lists: ServerList[] = [{ path: [host.serversKey], projectLocal: false }];
  if (host.projectServers && source.scope === 'user') {
    const key = claudeProjectKey(data.projects, root, platform);
    if (key !== undefined)
      lists.push({ path: ['projects', key, host.serversKey], projectLocal: true });
  }
  return lists;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let here = data;
  for (const key of path) {
    if (!isRecord(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((key, i) => path[i] === key);
}

/** VS Code `inputs`: each id with the variable it becomes. */
function vscodeInputs(data: Record<string, unknown>): Map<string, string> {
  const inputs = new Map<string, string>();
  const list = Object.hasOwn(data, 'inputs') ? data.inputs : undefined;
  if (!Array.isArray(list)) return inputs;
  for (const input of list.slice(0, 1000)) {
    if (isRecord(input) && typeof input.id === 'string')
      inputs.set(input.id, inputVariable(input.id));
  }
  return inputs;
}

/** A server found in a list, before its name is given. */
interface Found {
  readonly source: ImportSourceFile;
  readonly path: readonly string[];
  readonly name: string;
  readonly value: unknown;
  readonly place: { line: number; column: number } | undefined;
  readonly projectLocal: boolean;
  readonly duplicate: readonly string[] | undefined;
  readonly ctx: ValueContext;
}

/** Takes one file apart: its problems and the servers in it. */
function filesServers(
  source: ImportSourceFile,
  text: string,
  at: { root: string; userHome: string; platform: string; separator: string; rootBasename: string },
): { problems: ImportNote[]; found: Found[]; usable: boolean } {
  const parsed = parseSource(source.client, text);
  if (!parsed.ok) return { problems: [...parsed.problems], found: [], usable: false };
  if (!isRecord(parsed.value)) {
    return {
      problems: [
        {
          code: ImportNoteCode.NOT_AN_OBJECT,
          message: `must hold an object with the servers, not ${Array.isArray(parsed.value) ? 'an array' : typeof parsed.value}: nothing was imported from it`,
        },
      ],
      found: [],
      usable: false,
    };
  }
  const data = parsed.value;
  const problems: ImportNote[] = [];
  const found: Found[] = [];
  const host = hostById(source.client);
  const ctx: ValueContext = {
    client: source.client,
    scope: source.scope,
    clientName: host.displayName,
    variables: host.variables,
    platform: at.platform,
    inputs: host.variables === 'editor-inputs' ? vscodeInputs(data) : new Map(),
    root: at.root,
    rootBasename: at.rootBasename,
    userHome: at.userHome,
    separator: at.separator,
  };
  for (const list of serverLists(source, data, at.root, at.platform)) {
    const listName = formatFieldPath(list.path);
    const written = list.path.map((key) => shortText(key));
    const twice = parsed.duplicates.find((d) => startsWith(list.path, d));
    if (twice !== undefined) {
      problems.push({
        code: ImportNoteCode.DUPLICATE_KEY,
        field: formatFieldPath(twice),
        ...parsed.placeOf(twice),
        message: `${quoteText(formatFieldPath(twice))} is written twice: keep one; no server of ${quoteText(listName)} was imported`,
      });
      continue;
    }
    const servers = valueAt(data, list.path);
    if (servers === undefined) continue;
    if (!isRecord(servers)) {
      problems.push({
        code: ImportNoteCode.NOT_AN_OBJECT,
        field: listName,
        ...parsed.placeOf(list.path),
        message: `${quoteText(listName)} must be an object of name: server pairs; no server of it was imported`,
      });
      continue;
    }
    const names = Object.keys(servers);
    if (names.length > MAX_SERVERS_PER_LIST) {
      problems.push({
        code: ImportNoteCode.TOO_MANY_SERVERS,
        field: listName,
        ...parsed.placeOf(list.path),
        message: `${quoteText(listName)} has ${names.length} servers; only the first ${MAX_SERVERS_PER_LIST} were read`,
      });
    }
    for (const name of names.slice(0, MAX_SERVERS_PER_LIST)) {
      const path = [...list.path, name];
      const duplicate = parsed.duplicates.find((d) => startsWith(d, path));
      found.push({
        source,
        path: [...written, shortText(name)],
        name,
        value: servers[name],
        place: parsed.placeOf(path),
        projectLocal: list.projectLocal,
        duplicate,
        ctx,
      });
    }
  }
  return { problems, found, usable: true };
}

interface Earlier {
  readonly scope: ServerSource;
  readonly base: string;
  readonly canonical: string;
  readonly client: ImportClient;
  readonly file: string;
  readonly name: string;
}

function renamedNote(
  sourceName: string,
  base: string,
  name: string,
  byCaller: boolean,
): ImportNote {
  const from = shortText(sourceName);
  const reasons: string[] = [];
  if (base !== sourceName) {
    reasons.push(
      SERVER_NAME.test(sourceName)
        ? 'a name with "__" (or "-_") would make its tools\' names, mcp__<server>__<tool>, ' +
            "read like another server's"
        : 'Garuda names use a-z, 0-9, _ and -, at most 32 characters',
    );
  }
  if (name !== base) {
    reasons.push(
      `${quoteText(base)} is already taken ${byCaller ? 'in your Garuda configuration' : 'by a server imported before it'}`,
    );
  }
  return {
    code: ImportNoteCode.RENAMED,
    from,
    to: name,
    message: `is named ${quoteText(name)} in Garuda (${reasons.join('; ')})`,
  };
}

/**
 * Finds other MCP clients' configuration files (Claude Code, Claude Desktop, Cursor, VS Code,
 * Gemini CLI, Codex CLI), reads them, and turns each server into a Garuda entry, with what
 * was changed on the way and why a server cannot be imported. Nothing is written.
 *
 * - A missing file is `status: 'missing'`, not a problem. An unreadable, too large (16 MiB),
 *   non-UTF-8 or unparsable file is `unusable` with its problems (line and column for syntax
 *   errors); the other files are still read.
 * - Servers of a repository's files are `scope: 'project'`, the others `user`.
 * - A secret written out in an env or header value is never copied: the entry takes
 *   `${NAME}` instead and a `SECRET_REPLACED` warning names the variable to set. A secret in
 *   `command`, `args` or `url`, which cannot take a variable, makes the server not importable.
 * - The legacy SSE transport, variables where Garuda expands none, and command substitution
 *   make a server not importable; every entry returned passes this package's validation.
 * - Names become valid Garuda names, unique among the importable servers and `existingNames`;
 *   every rename is a `RENAMED` warning.
 *
 * @param options - `userHome`, `root`, `platform` (and on Windows `appData`); optionally
 *   `clients`, `scopes` and `existingNames`.
 * @returns `{ files, servers }` in reading order: user files first, then the project's.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` only for wrong options (a programming error).
 * @example
 * ```ts
 * const { files, servers } = await readImportSources({
 *   userHome: os.homedir(), root: process.cwd(), platform: process.platform,
 *   appData: process.env.APPDATA, existingNames: servers.map((s) => s.name),
 * });
 * for (const s of servers) {
 *   if (s.importable) ui.show(`${s.name} ← ${s.client} ${s.file}`, s.warnings);
 *   else ui.show(`${s.sourceName}: not imported`, s.problems);
 * }
 * ```
 */
export async function readImportSources(
  options: ReadImportSourcesOptions,
): Promise<ImportSourcesResult> {
  const loc = importLocations(options);
  const taken = new Set<string>();
  if (options.existingNames !== undefined) {
    const names = options.existingNames as unknown;
    if (typeof names !== 'object' || names === null || !(Symbol.iterator in names)) {
      throw invalidArgument('readImportSources: existingNames must be a list of names');
    }
    for (const name of names as Iterable<unknown>) if (typeof name === 'string') taken.add(name);
  }
  const byCaller = new Set(taken);
  const at = {
    root: loc.root,
    userHome: loc.userHome,
    platform: loc.platform,
    separator: loc.paths.sep,
    rootBasename: loc.paths.basename(loc.root),
  };

  const reads = await Promise.all(loc.files.map((source) => readSourceFile(source.file)));
  const files: ImportFile[] = [];
  const servers: ImportServer[] = [];
  const earlier: Earlier[] = [];

  loc.files.forEach((source, i) => {
    const read = reads[i] ?? { kind: 'missing' };
    if (read.kind === 'missing') {
      files.push({ ...source, status: 'missing', problems: [] });
      return;
    }
    if (read.kind === 'problem') {
      files.push({ ...source, status: 'unusable', problems: [read.problem] });
      return;
    }
    const { problems, found, usable } = filesServers(source, read.text, at);
    files.push({ ...source, status: usable ? 'found' : 'unusable', problems });

    for (const item of found) {
      const base = {
        client: source.client,
        scope: source.scope,
        file: source.file,
        path: item.path,
        sourceName: shortText(item.name),
        ...(item.place ?? {}),
      };
      if (item.duplicate !== undefined) {
        const field = formatFieldPath(item.duplicate);
        servers.push({
          ...base,
          importable: false,
          warnings: [],
          problems: [
            {
              code: ImportNoteCode.DUPLICATE_KEY,
              field,
              ...(item.place ?? {}),
              message: `${quoteText(field)} is written twice in the file: keep one and import again`,
            },
          ],
        });
        continue;
      }
      // From the name as the user sees it (cleaned), so the two never look unrelated.
      const baseName = garudaName(cleanLine(item.name.slice(0, 256)));
      const projectLocal: ImportNote[] = item.projectLocal
        ? [
            {
              code: ImportNoteCode.PROJECT_LOCAL,
              message:
                `Claude Code has it for this project only (a "local" server); in Garuda's user ` +
                "file it is for every project: add it to the project's .garuda/mcp.json " +
                'instead if it belongs to this project',
            },
          ]
        : [];
      let result: ConvertResult = convertServer(source.client, baseName, item.value, item.ctx);
      const refused = (failed: Extract<ConvertResult, { ok: false }>): void => {
        servers.push({
          ...base,
          importable: false,
          warnings: [...projectLocal, ...failed.warnings],
          problems: failed.problems,
        });
      };
      if (!result.ok) {
        refused(result);
        continue;
      }
      const canonical = stringify(result.entry) ?? '';
      const same = earlier.find(
        (e) => e.scope === source.scope && e.base === baseName && e.canonical === canonical,
      );
      if (same !== undefined) {
        servers.push({
          ...base,
          importable: false,
          warnings: [],
          problems: [
            {
              code: ImportNoteCode.SAME_AS_EARLIER,
              message:
                `is the same server as ${quoteText(same.name)} from ${CLIENT_NAMES[same.client]}'s ` +
                `${quoteText(same.file)}, which is imported already`,
            },
          ],
        });
        continue;
      }
      const name = freeName(baseName, taken);
      // Variables derived from the name (a header's secret) follow the name it gets.
      if (name !== baseName) result = convertServer(source.client, name, item.value, item.ctx);
      if (!result.ok) {
        refused(result);
        continue;
      }
      taken.add(name);
      earlier.push({
        scope: source.scope,
        base: baseName,
        canonical,
        client: source.client,
        file: source.file,
        name,
      });
      const warnings = [...projectLocal, ...result.warnings];
      if (name !== item.name)
        warnings.unshift(renamedNote(item.name, baseName, name, byCaller.has(baseName)));
      servers.push({ ...base, importable: true, name, entry: result.entry, warnings });
    }
  });
  return { files, servers };
}
