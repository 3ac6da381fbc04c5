/**
 * The stable `code` of every {@link ConfigProblem}. Compare against these, never against
 * messages.
 *
 * @example
 * ```ts
 * const missing = problems.filter((p) => p.code === ConfigProblemCode.MISSING_VARIABLE);
 * ```
 */
export const ConfigProblemCode = Object.freeze({
  /** The file exists but cannot be read (permissions, a folder or device at its path…). */
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  /** The file is larger than {@link MAX_CONFIG_BYTES}. */
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  /** The file is not UTF-8 text. */
  FILE_NOT_TEXT: 'FILE_NOT_TEXT',
  /** A JSON syntax error (with `line` and `column`), or an empty file. */
  INVALID_JSON: 'INVALID_JSON',
  /** Arrays and objects nest deeper than any configuration needs. */
  TOO_DEEP: 'TOO_DEEP',
  /** The same key twice in one object (JSON would silently keep the last one). */
  DUPLICATE_KEY: 'DUPLICATE_KEY',
  /** The top level, `servers`, or a server is not a JSON object. */
  NOT_AN_OBJECT: 'NOT_AN_OBJECT',
  /** A key the schema does not know (unknown keys are errors, not ignored). */
  UNKNOWN_KEY: 'UNKNOWN_KEY',
  /** A server name does not match `^[a-z0-9][a-z0-9_-]{0,31}$`. */
  INVALID_NAME: 'INVALID_NAME',
  /** A field has the wrong type or an out-of-range value. */
  INVALID_VALUE: 'INVALID_VALUE',
  /** A server has neither `command` nor `url`. */
  MISSING_KIND: 'MISSING_KIND',
  /** A server has both `command` and `url`. */
  BOTH_KINDS: 'BOTH_KINDS',
  /** A remote server's URL does not parse, or has spaces or control characters. */
  URL_INVALID: 'URL_INVALID',
  /** A URL scheme other than https (http only for a user's server on localhost). */
  URL_SCHEME: 'URL_SCHEME',
  /** A URL with `user:password@`. */
  URL_CREDENTIALS: 'URL_CREDENTIALS',
  /** A URL with a `#fragment` (also an empty one). */
  URL_FRAGMENT: 'URL_FRAGMENT',
  /** A project's server on localhost or on a private or special IP address. */
  URL_NOT_PUBLIC: 'URL_NOT_PUBLIC',
  /** An env or header value that starts with `!` or contains `$(` or a backtick. */
  VALUE_REJECTED: 'VALUE_REJECTED',
  /** A `${` without a closing `}`, or with something other than a variable name inside. */
  BAD_REFERENCE: 'BAD_REFERENCE',
  /**
   * A `${NAME}` whose variable is not set. The server still loads (its value left empty), but
   * the manager does not start it until the variable is set.
   */
  MISSING_VARIABLE: 'MISSING_VARIABLE',
  /** An expanded value (or all of a server's values together) is too long. */
  VALUE_TOO_LONG: 'VALUE_TOO_LONG',
  /** An expanded value holds a NUL (or, in a header, a line break). */
  VALUE_UNSAFE: 'VALUE_UNSAFE',
  /** A project server has the name of a server in the user's file; it was ignored. */
  NAME_CLASH: 'NAME_CLASH',
  /** More problems in one file than are worth listing; the rest are counted. */
  TOO_MANY_PROBLEMS: 'TOO_MANY_PROBLEMS',
} as const);

/** One of the values of {@link ConfigProblemCode}. */
export type ConfigProblemCode = (typeof ConfigProblemCode)[keyof typeof ConfigProblemCode];

/**
 * One thing wrong with a configuration file, reported instead of thrown.
 *
 * Text from the file (names, keys, values) appears in `message` only JSON-quoted, after
 * `cleanLine` from `@garuda/mcp-sanitize`, and capped, because a project's file is written by
 * whoever wrote the repository. `server` and `field` are cleaned the same way (not quoted).
 */
export interface ConfigProblem {
  /** Stable machine-readable reason. */
  readonly code: ConfigProblemCode;
  /** The file the problem is in, as the caller passed it. */
  readonly file: string;
  /** The server it concerns, if any (cleaned to one line, capped). */
  readonly server?: string;
  /** The field inside the server, as a path such as `env.GITHUB_TOKEN`, `args[2]` or `url`. */
  readonly field?: string;
  /** 1-based line of the place in the file, when known. */
  readonly line?: number;
  /** 1-based column (in UTF-16 code units) of the place in the file, when known. */
  readonly column?: number;
  /** What is wrong and what to do, as one line. */
  readonly message: string;
}

/**
 * One line for a terminal or a log: `file:line:column: message` (or `file: message` when
 * the place is not known).
 *
 * @param problem - A problem from `loadConfig` or from an error's `problems`.
 * @returns The formatted line.
 * @throws Never for a {@link ConfigProblem}.
 * @example
 * ```ts
 * const { problems } = await loadConfig({ userFile, env: process.env });
 * for (const p of problems) ui.warn(formatProblem(p)); // your UI: the package never prints
 * // /home/me/.garuda/mcp.json:4:17: server "github": "timeoutMs" must be …
 * ```
 */
export function formatProblem(problem: ConfigProblem): string {
  const place =
    problem.line === undefined
      ? problem.file
      : `${problem.file}:${problem.line}:${problem.column ?? 1}`;
  return `${place}: ${problem.message}`;
}
