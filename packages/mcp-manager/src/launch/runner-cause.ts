import { capLine } from '@garuda/internal';
// What a package runner's stderr says went wrong, in its own words: npm's `npm error …` lines,
// an `ENOENT` line, Node's `Cannot find module …`; not the pointer to a log file, which is in
// the server's cache and which the user would not look for.
import { cleanLine } from '@garuda/mcp-sanitize';
import { quoteText } from '../common/text.js';

/** The most code points of a runner's cause, all lines joined. */
export const MAX_RUNNER_CAUSE_CHARS = 300;

/** The most lines a cause joins. */
const MAX_LINES = 4;

/** npm's error prefix: `npm error` (npm 10+) or `npm ERR!` (before). */
const NPM_ERROR = /^npm (?:error|ERR!)(?:\s+|$)/;

/**
 * npm lines that say nothing the user can act on: where its log is, its `errno` and `syscall`
 * details, the fixed sentences under an `enoent` code.
 */
const NPM_NOISE =
  /^(?:A complete log of this run can be found in\b|Log files were not written\b|You can rerun the command with\b|errno\b|syscall\b|enoent\s*$|enoent This is related to npm not being able to find a file\b|[\w-]+\s*$)/i;

/** Lines outside npm's own that name the cause. */
const CAUSE_LINE =
  /\b(?:Cannot find module|ENOENT|ENOTEMPTY|EACCES|EPERM|EEXIST|EINTEGRITY|ETARGET|E404|ENOTCACHED|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/;

/** A path inside a runner's cache, shown from its `_npx` folder on. */
const NPX_PATH = /[^\s'"`]*[/\\]_npx[/\\]/g;

/**
 * The lines of a runner's stderr that say why it failed, cleaned and joined with ` | `: npm's
 * `npm error …` lines (without the prefix, the log pointer, `errno`/`syscall` details, or a
 * line that is only a code word), and any other line that names a cause (`Cannot find module …`,
 * `ENOENT …`); a path into the runner's cache is shortened to start at `_npx/`. @internal
 *
 * @param stderr - The runner's last stderr lines, oldest first (raw).
 * @param max - The most code points (default {@link MAX_RUNNER_CAUSE_CHARS}).
 * @returns The cause, or `undefined` when no line says one.
 * @example
 * ```ts
 * runnerCause([
 *   'npm error code ENOENT',
 *   "npm error enoent ENOENT: no such file or directory, open '/c/_npx/9f/package.json'",
 *   'npm error A complete log of this run can be found in: /c/_logs/debug-0.log',
 * ]);
 * // "code ENOENT | enoent ENOENT: no such file or directory, open '_npx/9f/package.json'"
 * ```
 */
export function runnerCause(
  stderr: readonly string[],
  max: number = MAX_RUNNER_CAUSE_CHARS,
): string | undefined {
  const lines: string[] = [];
  for (const raw of stderr) {
    const line = cleanLine(raw).trim();
    if (line === '') continue;
    let said: string | undefined;
    if (NPM_ERROR.test(line)) {
      const rest = line.replace(NPM_ERROR, '').trim();
      // `code E…` is kept: it is short and says which failure it was.
      if (rest !== '' && (/^code\s+\S/.test(rest) || !NPM_NOISE.test(rest))) said = rest;
    } else if (CAUSE_LINE.test(line) && !/^at\s/.test(line)) {
      said = line;
    }
    if (said === undefined) continue;
    said = said.replace(NPX_PATH, '_npx/');
    if (!lines.includes(said)) lines.push(said);
  }
  if (lines.length === 0) return undefined;
  // The newest lines say the most about how it ended; the first one usually names the code.
  const kept =
    lines.length <= MAX_LINES ? lines : [lines[0] as string, ...lines.slice(-(MAX_LINES - 1))];
  return capLine(kept.join(' | '), max);
}

/**
 * Whether a runner's failure looks like a half-written cache that a new download repairs: npm's
 * exit code 254, a file missing in it (`ENOENT`, `Cannot find module`), or a folder left in the
 * way (`ENOTEMPTY`, `EEXIST`). @internal
 *
 * @param code - Its exit code (`null` when a signal ended it).
 * @param stderr - Its last stderr lines (raw).
 */
export function isBrokenCache(code: number | null, stderr: readonly string[]): boolean {
  if (code === 254) return true;
  return stderr.some((line) =>
    /\bENOENT\b|\bCannot find module\b|\bMODULE_NOT_FOUND\b|\bENOTEMPTY\b|\bEEXIST\b|\bEJSONPARSE\b/.test(
      line,
    ),
  );
}

/** What a server prints when it cannot reach the service it stands in front of. */
const UPSTREAM_FAILURE = /\bfetch failed\b|\bECONNREFUSED\b|\bENOTFOUND\b|\bEAI_AGAIN\b/;

/**
 * The line of a started server's stderr that says it could not reach its upstream service (a
 * remote proxy such as a payment or search API's MCP server: `fetch failed`, `ECONNREFUSED`,
 * `ENOTFOUND`, `EAI_AGAIN`), cleaned and capped; `undefined` when none does. @internal
 *
 * @param stderr - The server's last stderr lines (raw).
 */
export function upstreamFailure(stderr: readonly string[]): string | undefined {
  for (let i = stderr.length - 1; i >= 0; i--) {
    const line = cleanLine(stderr[i] as string).trim();
    if (UPSTREAM_FAILURE.test(line) && !/^at\s/.test(line)) return capLine(line, 160);
  }
  return undefined;
}

/** How to give a server more time to start, as a user can do it. */
export const RAISE_START_LIMIT =
  'raise its start time limit ("startTimeoutMs" in its config entry, or garuda-mcp --start-timeout <seconds>)';

/**
 * The note on a package runner's server that did not start within its limit: for npm's runner
 * the download was a step of its own and finished, so the server itself was slow; another
 * runner may still have been downloading. @internal
 *
 * @param launch - The runner and what it downloads.
 * @param what - The packages, quoted for a message.
 */
export function timeoutNote(
  launch: { readonly cache: string; readonly runner: string },
  what: string,
): string {
  if (launch.cache === 'npm') {
    return `its packages were downloaded, but the server did not answer in time: try again, or ${RAISE_START_LIMIT}`;
  }
  return (
    `${quoteText(launch.runner)} may still have been downloading ${what} into the server's own ` +
    `cache, where what it fetched stays: try again, or ${RAISE_START_LIMIT}`
  );
}

/**
 * Whether a server started through npm's runner failed on a package its runner installed only
 * in part: Node's `Cannot find module` (or `MODULE_NOT_FOUND`) with a path inside `_npx`; or npm
 * itself tripping on that install (`ENOENT`, `ENOTEMPTY`, `EJSONPARSE` on a path inside `_npx`),
 * which a warm start meets at the server's own start, since it skips the download step. @internal
 *
 * @param stderr - The server's last stderr lines (raw).
 */
export function isBrokenInstall(stderr: readonly string[]): boolean {
  const inNpx = (line: string) => /[/\\]_npx[/\\]/.test(line);
  return (
    (stderr.some((line) => /\bCannot find module\b|\bMODULE_NOT_FOUND\b/.test(line)) &&
      stderr.some(inNpx)) ||
    stderr.some(
      (line) =>
        /^npm (?:error|ERR!) .*\b(?:ENOENT|ENOTEMPTY|EJSONPARSE)\b/.test(line) && inNpx(line),
    )
  );
}
