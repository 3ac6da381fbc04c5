import path from 'node:path';
import { findNodeAtLocation } from 'jsonc-parser';
import { checkServerUrl } from './check-server-url.js';
import { claudeFileIssues, type ImportedProjectFile } from './claude-project-file.js';
import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { invalidArgument } from './errors.js';
import { expandWithBudget, type ExpansionBudget } from './expand-env.js';
import { formatFieldPath, type FieldPath } from './field-path.js';
import { MAX_PROBLEMS_PER_FILE, MAX_SERVER_EXPANSION, MAX_TOTAL_EXPANSION } from './limits.js';
import { parseConfigText, type ParsedConfig, type ParsedServer } from './parse-config-text.js';
import { quoteText, shortText } from './quote-text.js';
import { readConfigFile, type ReadResult } from './read-config-file.js';
import type { ResolvedValue, ServerConfig, ServerSource } from './server-types.js';
import { validateServer, type ServerIssue } from './validate-server.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The user's file, usually `<home>/mcp.json` (see `defaultPaths`). Left out: none. */
  readonly userFile?: string;
  /** The project's file, usually `<root>/.garuda/mcp.json`. Left out: none. */
  readonly projectFile?: string;
  /** Where `${NAME}` values come from, usually `process.env` (passed by the caller). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Other clients' project files read in place as further project sources, e.g.
   * `[{ file: '<root>/.mcp.json', client: 'claude' }]`. Their servers come after the project's
   * own; one with the name of a user's or the project's own server is ignored (`NAME_CLASH`).
   * Left out: none.
   */
  readonly importedProjectFiles?: readonly ImportedProjectFile[];
}

/** The result of {@link loadConfig}. */
export interface LoadConfigResult {
  /** Valid servers: the user's first, then the project's, each in file order. */
  readonly servers: readonly ServerConfig[];
  /** Everything that was wrong, in the same order. An empty list means all is well. */
  readonly problems: readonly ConfigProblem[];
}

interface FileResult {
  readonly servers: ServerConfig[];
  readonly problems: ConfigProblem[];
  readonly names: readonly string[];
}

function checkOptions(options: LoadConfigOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw invalidArgument('loadConfig: pass { userFile?, projectFile?, env }');
  }
  const imported = options.importedProjectFiles as unknown;
  if (
    imported !== undefined &&
    (!Array.isArray(imported) ||
      imported.some(
        (f: unknown) =>
          typeof f !== 'object' ||
          f === null ||
          typeof (f as ImportedProjectFile).file !== 'string' ||
          (f as ImportedProjectFile).file === '' ||
          (f as ImportedProjectFile).client !== 'claude',
      ))
  ) {
    throw invalidArgument(
      "loadConfig: importedProjectFiles must be a list of { file, client: 'claude' }",
    );
  }
  for (const key of ['userFile', 'projectFile'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw invalidArgument(`loadConfig: ${key} must be a file path or left out`);
    }
  }
  if (typeof options.env !== 'object' || options.env === null || Array.isArray(options.env)) {
    throw invalidArgument(
      'loadConfig: env must be an object such as process.env (this package never reads it itself)',
    );
  }
}

function located(
  file: string,
  parsed: ParsedConfig,
  server: ParsedServer,
  issue: Pick<ServerIssue, 'code' | 'path' | 'field' | 'message'>,
): ConfigProblem {
  let offset = server.property.offset;
  if (issue.path !== undefined && issue.path.length > 0) {
    const node = findNodeAtLocation(server.node, [...issue.path]);
    // A key's problem points at the key, an array item's at the item.
    if (node !== undefined) {
      offset = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    }
  }
  return {
    code: issue.code,
    file,
    server: shortText(server.name),
    ...(issue.field === undefined ? {} : { field: issue.field }),
    ...parsed.position(offset),
    message: issue.message,
  };
}

function capProblems(problems: ConfigProblem[], file: string): ConfigProblem[] {
  if (problems.length <= MAX_PROBLEMS_PER_FILE) return problems;
  const kept = problems.slice(0, MAX_PROBLEMS_PER_FILE - 1);
  kept.push({
    code: ConfigProblemCode.TOO_MANY_PROBLEMS,
    file,
    message: `has ${problems.length - kept.length} more problems: fix the ones above first`,
  });
  return kept;
}

function resolved(
  keys: Readonly<Record<string, string>>,
  values: Readonly<Record<string, string>>,
  sources: Readonly<Record<string, ResolvedValue['source']>>,
): Record<string, ResolvedValue> {
  const out: Record<string, ResolvedValue> = {};
  for (const key of Object.keys(keys)) {
    const value = values[key];
    const source = sources[key];
    if (value === undefined || source === undefined) continue;
    Object.defineProperty(out, key, {
      value: { value, source },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function loadServer(
  file: string,
  parsed: ParsedConfig,
  server: ParsedServer,
  source: ServerSource,
  env: Readonly<Record<string, string | undefined>>,
  budget: ExpansionBudget,
  problems: ConfigProblem[],
  shape: ImportedProjectFile['client'] | undefined,
): ServerConfig | undefined {
  const prefix = `server ${quoteText(server.name)}: `;
  for (const duplicate of server.duplicates) {
    const field = formatFieldPath(duplicate.path);
    const first = parsed.position(duplicate.first);
    const again = parsed.position(duplicate.again);
    problems.push({
      code: ConfigProblemCode.DUPLICATE_KEY,
      file,
      server: shortText(server.name),
      field,
      ...again,
      message:
        `${prefix}${quoteText(field)} is written twice (lines ${first.line} and ${again.line}): ` +
        'keep one; the server was not loaded',
    });
  }
  const { def, issues } = validateServer(server.name, server.value, source);
  // Another client's file: what that client does differently, in place of the ordinary
  // message on the same field.
  const extra = shape === 'claude' ? claudeFileIssues(server.name, server.value) : [];
  const extraFields = new Set(extra.map((issue) => issue.field));
  const all = [...extra, ...issues.filter((issue) => !extraFields.has(issue.field))];
  for (const issue of all) problems.push(located(file, parsed, server, issue));
  if (def === undefined || extra.length > 0 || server.duplicates.length > 0) return undefined;

  // Each server gets at most its own share, and never more than what is left for all of them.
  const serverBudget: ExpansionBudget = {
    remaining: Math.min(MAX_SERVER_EXPANSION, budget.remaining),
  };
  const kind = def.kind === 'local' ? 'env' : 'header';
  const values = def.kind === 'local' ? def.env : def.headers;
  const expanded = expandWithBudget(values, env, kind, serverBudget);
  budget.remaining -= Math.min(MAX_SERVER_EXPANSION, budget.remaining) - serverBudget.remaining;
  let usable = true;
  for (const problem of expanded.problems) {
    if (problem.code !== ConfigProblemCode.MISSING_VARIABLE) usable = false;
    const fieldPath: FieldPath = [kind === 'env' ? 'env' : 'headers', problem.key];
    problems.push(
      located(file, parsed, server, {
        code: problem.code,
        path: fieldPath,
        field: formatFieldPath(fieldPath),
        message:
          prefix +
          problem.message +
          (problem.code === ConfigProblemCode.MISSING_VARIABLE
            ? ''
            : '; the server was not loaded'),
      }),
    );
  }
  if (!usable) return undefined;
  const base = { name: server.name, source, file };
  if (def.kind === 'local') {
    return {
      kind: 'local',
      ...base,
      def,
      env: resolved(def.env, expanded.values, expanded.sources),
    };
  }
  const url = checkServerUrl(def.url, source);
  if (!url.ok) return undefined; // validateServer has already reported it
  return {
    kind: 'remote',
    ...base,
    def,
    url: url.url,
    headers: resolved(def.headers, expanded.values, expanded.sources),
  };
}

/** A server whose name another configuration already holds; `why` follows its quoted name. */
function nameClash(
  file: string,
  parsed: ParsedConfig,
  server: ParsedServer,
  why: string,
): ConfigProblem {
  return {
    code: ConfigProblemCode.NAME_CLASH,
    file,
    server: shortText(server.name),
    ...parsed.position(server.property.offset),
    message: `server ${quoteText(server.name)} ${why}`,
  };
}

function loadFile(
  file: string,
  read: ReadResult,
  source: ServerSource,
  env: Readonly<Record<string, string | undefined>>,
  budget: ExpansionBudget,
  userNames: ReadonlySet<string>,
  imported?: {
    readonly shape: ImportedProjectFile['client'];
    readonly projectNames: ReadonlySet<string>;
  },
): FileResult {
  if (read.kind === 'missing') return { servers: [], problems: [], names: [] };
  if (read.kind === 'problem') return { servers: [], problems: [read.problem], names: [] };
  const parsed = parseConfigText(file, read.text);
  const problems = [...parsed.problems];
  const servers: ServerConfig[] = [];
  for (const server of parsed.servers) {
    if (userNames.has(server.name)) {
      problems.push(
        nameClash(
          file,
          parsed,
          server,
          'is also in your own configuration: a repository cannot replace a server you ' +
            'configured, so the project one is ignored; give it another name in the project ' +
            'file to use both',
        ),
      );
      continue;
    }
    if (imported?.projectNames.has(server.name) === true) {
      problems.push(
        nameClash(
          file,
          parsed,
          server,
          "is also in the project's own configuration (.garuda/mcp.json, or a file read " +
            'before this one), which comes first, so this one is ignored; give one of them ' +
            'another name to use both',
        ),
      );
      continue;
    }
    const loaded = loadServer(file, parsed, server, source, env, budget, problems, imported?.shape);
    if (loaded !== undefined) servers.push(loaded);
  }
  // Problems come out in the order of the file.
  const ordered = problems
    .map((problem, i) => ({ problem, i }))
    .sort(
      (a, b) =>
        (a.problem.line ?? 0) - (b.problem.line ?? 0) ||
        (a.problem.column ?? 0) - (b.problem.column ?? 0) ||
        a.i - b.i,
    )
    .map(({ problem }) => problem);
  return { servers, problems: capProblems(ordered, file), names: parsed.names };
}

/**
 * Reads the user's and the project's server configuration and validates every server.
 *
 * Nothing a file contains makes it throw: every issue becomes a {@link ConfigProblem} that
 * names the file, the server and the field, with line and column where there is a place, and
 * says what to do. In detail:
 *
 * - A missing file means no servers and no problem; an unreadable file, a folder, a file over
 *   1 MiB or one that is not UTF-8 is one problem and no servers from it.
 * - Invalid JSON (comments and trailing commas included) is a problem per syntax error with
 *   its line and column, and no servers from that file.
 * - One bad server is reported and left out; the others still load. Duplicate keys are
 *   problems (JSON would silently keep the last one): a server written twice loads neither
 *   copy, a field written twice leaves its server out.
 * - A project server with the name of a server in the user's file is ignored with a problem:
 *   a repository cannot replace a server you configured.
 * - `${NAME}` in env and header values is expanded from `env`; a missing name becomes empty
 *   and is reported (the server still loads). Command substitution (`!…`, `$(…`, backticks) is
 *   refused and leaves its server out.
 * - If both paths lead to the same file (a project whose root is the home folder's parent),
 *   it is read once, as the user's file.
 * - `importedProjectFiles` (e.g. Claude Code's `<root>/.mcp.json`) are read in place as
 *   further project sources, after the project's own file: a name of the user's or the
 *   project's own servers is a `NAME_CLASH`, and what that client does differently (a `${…}`
 *   in `command`, `args`, `cwd` or `url`; `${NAME:-default}`) leaves the server out.
 *
 * Disabled servers are returned too (`def.enabled === false`), so they can be listed.
 *
 * @param options - `userFile`, `projectFile`, `importedProjectFiles` (each optional) and `env`
 *   (required).
 * @returns `{ servers, problems }`: user servers first, then project servers, in file order.
 * @throws {@link ConfigError} `INVALID_ARGUMENT` only for a programming error (options not an object,
 *   a path that is not a string, `env` missing).
 * @example
 * ```ts
 * const paths = defaultPaths({ home: '/home/me/.garuda', root: process.cwd() });
 * const { servers, problems } = await loadConfig({ ...paths, env: process.env });
 * for (const p of problems) ui.warn(formatProblem(p)); // your UI: the package never prints
 * for (const s of servers) ui.show(s.name, s.source, commandLine(s.def));
 * ```
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadConfigResult> {
  checkOptions(options);
  const { userFile, projectFile, env } = options;
  const sameFile =
    userFile !== undefined &&
    projectFile !== undefined &&
    path.resolve(userFile) === path.resolve(projectFile);
  // An imported file at the path of one read already (or listed twice) is read once.
  const seenPaths = new Set(
    [userFile, projectFile].flatMap((f) => (f === undefined ? [] : [path.resolve(f)])),
  );
  const importedFiles = (options.importedProjectFiles ?? []).filter((f) => {
    const resolved = path.resolve(f.file);
    if (seenPaths.has(resolved)) return false;
    seenPaths.add(resolved);
    return true;
  });
  const [userRead, projectRead, ...importedReads] = await Promise.all([
    userFile === undefined ? undefined : readConfigFile(userFile),
    projectFile === undefined || sameFile ? undefined : readConfigFile(projectFile),
    ...importedFiles.map((f) => readConfigFile(f.file)),
  ]);
  const budget: ExpansionBudget = { remaining: MAX_TOTAL_EXPANSION };

  const user =
    userFile === undefined || userRead === undefined
      ? undefined
      : loadFile(userFile, userRead, 'user', env, budget, new Set());
  const userNames = new Set(user?.names ?? []);

  const linked =
    userRead?.kind === 'text' &&
    projectRead?.kind === 'text' &&
    userRead.identity !== undefined &&
    userRead.identity === projectRead.identity;
  const project =
    projectFile === undefined || projectRead === undefined || linked
      ? undefined
      : loadFile(projectFile, projectRead, 'project', env, budget, userNames);

  // Other clients' project files, after the project's own: the names of both Garuda files
  // (also of servers that did not load) and of earlier such files are taken.
  const projectNames = new Set(project?.names ?? []);
  const identities = new Set(
    [userRead, projectRead].flatMap((r) =>
      r?.kind === 'text' && r.identity !== undefined ? [r.identity] : [],
    ),
  );
  const imported: FileResult[] = [];
  importedFiles.forEach((f, i) => {
    const read = importedReads[i];
    if (read === undefined) return;
    if (read.kind === 'text' && read.identity !== undefined) {
      if (identities.has(read.identity)) return;
      identities.add(read.identity);
    }
    const result = loadFile(f.file, read, 'project', env, budget, userNames, {
      shape: f.client,
      projectNames,
    });
    for (const name of result.names) projectNames.add(name);
    imported.push(result);
  });

  return {
    servers: [
      ...(user?.servers ?? []),
      ...(project?.servers ?? []),
      ...imported.flatMap((r) => r.servers),
    ],
    problems: [
      ...(user?.problems ?? []),
      ...(project?.problems ?? []),
      ...imported.flatMap((r) => r.problems),
    ],
  };
}
