import { findNodeAtLocation } from 'jsonc-parser';
import { checkServerUrl } from './check-server-url.js';
import { claudeFileIssues, type ImportedProjectFile } from './claude-project-file.js';
import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { expandWithBudget, type ExpansionBudget } from './expand-env.js';
import { formatFieldPath, type FieldPath } from './field-path.js';
import { MAX_PROBLEMS_PER_FILE, MAX_SERVER_EXPANSION } from './limits.js';
import type { ParsedConfig, ParsedServer } from './parse-config-text.js';
import { quoteText, shortText } from './quote-text.js';
import type { ResolvedValue, ServerConfig, ServerSource } from './server-types.js';
import { validateServer, type ServerIssue } from './validate-server.js';

/** What a problem of one server says before its place is added. @internal */
export type PlacedIssue = Pick<ServerIssue, 'code' | 'path' | 'field' | 'message'>;

/** Turns an issue of one server into a problem with its place (file, and line where known). */
export type PlaceIssue = (issue: PlacedIssue) => ConfigProblem;

/** Where `server`'s issues are in a parsed file: the key or array item they are about. @internal */
export function placeInFile(file: string, parsed: ParsedConfig, server: ParsedServer): PlaceIssue {
  return (issue) => {
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
  };
}

/** At most {@link MAX_PROBLEMS_PER_FILE} problems of one source; the rest are counted. @internal */
export function capProblems(problems: ConfigProblem[], file: string): ConfigProblem[] {
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

/** One server to load: its name and value, where it is, and whose it is. @internal */
export interface ServerToLoad {
  readonly name: string;
  readonly value: unknown;
  readonly source: ServerSource;
  /** What `ServerConfig.file` says: the file, or the label of the host's servers. */
  readonly file: string;
  readonly place: PlaceIssue;
  /** Another client's file: what that client does differently is reported on its fields. */
  readonly shape?: ImportedProjectFile['client'] | undefined;
  /** Its issues are reported, but it is not loaded (e.g. a key written twice). */
  readonly reportOnly?: boolean;
}

/**
 * Validates one server and expands its `${NAME}` values within the shared budget. Its problems
 * go to `problems`; `undefined` when it cannot be used. @internal
 */
export function loadServer(
  server: ServerToLoad,
  env: Readonly<Record<string, string | undefined>>,
  budget: ExpansionBudget,
  problems: ConfigProblem[],
): ServerConfig | undefined {
  const { name, source, file, place } = server;
  const prefix = `server ${quoteText(name)}: `;
  const { def, issues } = validateServer(name, server.value, source);
  // Another client's file: what that client does differently, in place of the ordinary
  // message on the same field.
  const extra = server.shape === 'claude' ? claudeFileIssues(name, server.value) : [];
  const extraFields = new Set(extra.map((issue) => issue.field));
  const all = [...extra, ...issues.filter((issue) => !extraFields.has(issue.field))];
  for (const issue of all) problems.push(place(issue));
  if (def === undefined || extra.length > 0 || server.reportOnly === true) return undefined;

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
      place({
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
  const base = { name, source, file };
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
