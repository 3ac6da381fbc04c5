import path from 'node:path';
import type { ImportedProjectFile } from './claude-project-file.js';
import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { invalidArgument } from './errors.js';
import type { ExpansionBudget } from './expand-env.js';
import { checkHostServers, loadHostServers, type HostServers } from './host-servers.js';
import { formatFieldPath } from './field-path.js';
import { MAX_TOTAL_EXPANSION } from './limits.js';
import { capProblems, loadServer, placeInFile } from './load-server.js';
import { parseConfigText } from './parse-config-text.js';
import { quoteText, shortText } from './quote-text.js';
import { readConfigFile, type ReadResult } from './read-config-file.js';
import type { ServerConfig, ServerSource } from './server-types.js';

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
  /**
   * Servers the host passes in code, read as the user's own and before the user's file: a
   * server of the user's file or a project's with one of their names is ignored (`NAME_CLASH`).
   * Left out: none.
   */
  readonly hostServers?: HostServers;
}

/** The result of {@link loadConfig}. */
export interface LoadConfigResult {
  /** Valid servers: the user's first, then the project's, each in file order. */
  readonly servers: readonly ServerConfig[];
  /** Everything that was wrong, in the same order. An empty list means all is well. */
  readonly problems: readonly ConfigProblem[];
}

/** The servers of one source, its problems, and every name it holds (also of those left out). */
export interface SourceResult {
  readonly servers: ServerConfig[];
  readonly problems: ConfigProblem[];
  readonly names: readonly string[];
}

/** Names an earlier source holds, and what a clash with one of them says. */
interface TakenNames {
  readonly names: ReadonlySet<string>;
  /** The message of a clash: why the later server is ignored and what to do. */
  readonly clash: (name: string) => string;
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
  checkHostServers(options.hostServers);
  if (typeof options.env !== 'object' || options.env === null || Array.isArray(options.env)) {
    throw invalidArgument(
      'loadConfig: env must be an object such as process.env (this package never reads it itself)',
    );
  }
}

function loadFile(
  file: string,
  read: ReadResult,
  source: ServerSource,
  env: Readonly<Record<string, string | undefined>>,
  budget: ExpansionBudget,
  taken: readonly TakenNames[],
  shape?: ImportedProjectFile['client'],
): SourceResult {
  if (read.kind === 'missing') return { servers: [], problems: [], names: [] };
  if (read.kind === 'problem') return { servers: [], problems: [read.problem], names: [] };
  const parsed = parseConfigText(file, read.text);
  const problems = [...parsed.problems];
  const servers: ServerConfig[] = [];
  for (const server of parsed.servers) {
    const clash = taken.find((t) => t.names.has(server.name));
    if (clash !== undefined) {
      problems.push({
        code: ConfigProblemCode.NAME_CLASH,
        file,
        server: shortText(server.name),
        ...parsed.position(server.property.offset),
        message: clash.clash(server.name),
      });
      continue;
    }
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
          `server ${quoteText(server.name)}: ${quoteText(field)} is written twice (lines ` +
          `${first.line} and ${again.line}): keep one; the server was not loaded`,
      });
    }
    const place = placeInFile(file, parsed, server);
    const reportOnly = server.duplicates.length > 0;
    const toLoad = {
      name: server.name,
      value: server.value,
      source,
      file,
      place,
      shape,
      reportOnly,
    };
    const loaded = loadServer(toLoad, env, budget, problems);
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

const HOST_CLASH = (label: string) => (name: string) =>
  `server ${quoteText(name)} is also given by ${label}, which comes first, so the one in this ` +
  'file is ignored; give one of them another name to use both';

/** A project's server with the name of one of the user's own (`where`: which of them). */
const USER_CLASH = (where: string) => (name: string) =>
  `server ${quoteText(name)} is also ${where}: a repository cannot replace a server you ` +
  'configured, so the project one is ignored; give it another name in the project file to use ' +
  'both';

const PROJECT_CLASH = (name: string) =>
  `server ${quoteText(name)} is also in the project's own configuration (.garuda/mcp.json, or a ` +
  'file read before this one), which comes first, so this one is ignored; give one of them ' +
  'another name to use both';

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
 *   refused in any value (`command`, `args`, `cwd`, `url`, env and header values), as is a
 *   `command` that is a shell command line (`;`, `|`, `&`, `<`, `>`); either leaves its server out.
 * - If both paths lead to the same file (a project whose root is the home folder's parent),
 *   it is read once, as the user's file.
 * - `importedProjectFiles` (e.g. Claude Code's `<root>/.mcp.json`) are read in place as
 *   further project sources, after the project's own file: a name of the user's or the
 *   project's own servers is a `NAME_CLASH`, and what that client does differently (a `${…}`
 *   in `command`, `args`, `cwd` or `url`; `${NAME:-default}`) leaves the server out.
 *
 * - `hostServers` (servers the host passes in code) are read first, as the user's own, with the
 *   same checks as a file's; a server of a file with one of their names is a `NAME_CLASH`.
 *
 * Disabled servers are returned too (`def.enabled === false`), so they can be listed.
 *
 * @param options - `userFile`, `projectFile`, `importedProjectFiles`, `hostServers` (each
 *   optional) and `env` (required).
 * @returns `{ servers, problems }`: the host's servers first, then the user's, then the
 *   project's, in file order.
 * @throws {@link ConfigError} `CONFIG_INVALID_ARGUMENT` only for a programming error (options not an object,
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

  const host = options.hostServers && loadHostServers(options.hostServers, env, budget);
  const hostNames = new Set(host?.names ?? []);
  const hostLabel = shortText(options.hostServers?.label ?? '');
  const user =
    userFile === undefined || userRead === undefined
      ? undefined
      : loadFile(userFile, userRead, 'user', env, budget, [
          { names: hostNames, clash: HOST_CLASH(hostLabel) },
        ]);
  // The user's own names, which no project server may take.
  const own: readonly TakenNames[] = [
    {
      names: hostNames,
      clash: USER_CLASH(`one of your own (given by ${hostLabel})`),
    },
    { names: new Set(user?.names ?? []), clash: USER_CLASH('in your own configuration') },
  ];

  const linked =
    userRead?.kind === 'text' &&
    projectRead?.kind === 'text' &&
    userRead.identity !== undefined &&
    userRead.identity === projectRead.identity;
  const project =
    projectFile === undefined || projectRead === undefined || linked
      ? undefined
      : loadFile(projectFile, projectRead, 'project', env, budget, own);

  // Other clients' project files, after the project's own: the names of both Garuda files
  // (also of servers that did not load) and of earlier such files are taken.
  const projectNames = new Set(project?.names ?? []);
  const identities = new Set(
    [userRead, projectRead].flatMap((r) =>
      r?.kind === 'text' && r.identity !== undefined ? [r.identity] : [],
    ),
  );
  const imported: SourceResult[] = [];
  const taken = [...own, { names: projectNames, clash: PROJECT_CLASH }];
  importedFiles.forEach((f, i) => {
    const read = importedReads[i];
    if (read === undefined) return;
    if (read.kind === 'text' && read.identity !== undefined) {
      if (identities.has(read.identity)) return;
      identities.add(read.identity);
    }
    const result = loadFile(f.file, read, 'project', env, budget, taken, f.client);
    for (const name of result.names) projectNames.add(name);
    imported.push(result);
  });

  const all = [host, user, project, ...imported];
  return {
    servers: all.flatMap((r) => r?.servers ?? []),
    problems: all.flatMap((r) => r?.problems ?? []),
  };
}
