import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { invalidArgument } from './errors.js';
import type { ExpansionBudget } from './expand-env.js';
import { capProblems, loadServer, type PlaceIssue } from './load-server.js';
import { quoteText, shortText } from './quote-text.js';
import type { ServerConfig, ServerEntry } from './server-types.js';
import type { SourceResult } from './load-config.js';

/** The longest {@link HostServers.label}. */
const MAX_LABEL_CHARS = 200;

/**
 * Servers a host passes in code instead of a file (`loadConfig({ hostServers })`): the host's
 * own choice, so they count as the user's (`source: 'user'`), and they come first.
 *
 * @example
 * ```ts
 * const hostServers = {
 *   label: 'the "servers" option of my-agent',
 *   servers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@2025.8.21', '.'] } },
 * };
 * ```
 */
export interface HostServers {
  /**
   * What names their place, where a file's servers name the file: in problems (`file`) and as
   * each server's `ServerConfig.file`. E.g. `McpManager option "servers"`.
   */
  readonly label: string;
  /** Name → server, as a file's `"servers"` holds them; validated like a file's. */
  readonly servers: Readonly<Record<string, ServerEntry>>;
}

/** Throws `CONFIG_INVALID_ARGUMENT` when `host` is not a {@link HostServers} (a programming error). */
export function checkHostServers(host: unknown): void {
  if (host === undefined) return;
  const { label, servers } = (typeof host === 'object' && host !== null ? host : {}) as {
    label?: unknown;
    servers?: unknown;
  };
  if (
    typeof label !== 'string' ||
    label.trim() === '' ||
    label.length > MAX_LABEL_CHARS ||
    typeof servers !== 'object' ||
    servers === null ||
    Array.isArray(servers)
  ) {
    throw invalidArgument(
      `loadConfig: hostServers must be { label, servers }: a label of 1 to ${MAX_LABEL_CHARS} ` +
        'characters and an object of name: server pairs',
    );
  }
}

/** `value` as plain JSON data (what a file could hold), or why it is not. */
function plainData(value: unknown): { ok: true; value: unknown } | { ok: false; why: string } {
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return { ok: false, why: `it is ${typeof value}` };
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // A cycle, a BigInt, a getter that throws, or nesting deeper than the stack.
    return { ok: false, why: error instanceof RangeError ? 'it nests too deep' : String(error) };
  }
}

/**
 * Validates the host's servers as a file's would be (same checks, same `${NAME}` expansion),
 * each as plain JSON data: what cannot be written in a file cannot be passed in code either.
 * @internal
 */
export function loadHostServers(
  host: HostServers,
  env: Readonly<Record<string, string | undefined>>,
  budget: ExpansionBudget,
): SourceResult {
  const file = host.label;
  const problems: ConfigProblem[] = [];
  const servers: ServerConfig[] = [];
  const names = Object.keys(host.servers);
  for (const name of names) {
    const place: PlaceIssue = (issue) => ({
      code: issue.code,
      file,
      server: shortText(name),
      ...(issue.field === undefined ? {} : { field: issue.field }),
      message: issue.message,
    });
    const data = plainData(host.servers[name]);
    if (!data.ok) {
      problems.push(
        place({
          code: ConfigProblemCode.NOT_AN_OBJECT,
          message:
            `server ${quoteText(name)} is not plain data (${shortText(data.why)}): pass what a ` +
            'file could hold, like { command, args } or { url }',
        }),
      );
      continue;
    }
    const loaded = loadServer(
      { name, value: data.value, source: 'user', file, place },
      env,
      budget,
      problems,
    );
    if (loaded !== undefined) servers.push(loaded);
  }
  return { servers, problems: capProblems(problems, file), names };
}
