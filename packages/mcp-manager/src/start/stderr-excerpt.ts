import { capLine } from '@garuda/internal';
import { cleanLine } from '@garuda/mcp-sanitize';

/**
 * The most code points of stderr quoted in a failure: small enough that the whole reason
 * (`it could not start: it exited with code 1; stderr: …`) fits every place that shows it — a
 * status row, a notice, a note for the model, `ServerStoppedError` — so none of them cuts the
 * excerpt, which is what says why.
 */
export const MAX_STDERR_EXCERPT_CHARS = 130;

/** The most lines an excerpt joins. */
const MAX_LINES = 3;

// A line that states an error: `Error: …`, `TypeError: …`, `Error [ERR_X]: …`, `error: …`,
// `fatal: …`, `panic: …`, `Traceback`, `npm error …`, `ERROR …`, `thread 'main' panicked at …`.
const ERROR_START =
  /^(?:[\w.$]*(?:Error|Exception)\b(?:\s*\[[^\]]*\])?\s*:|(?:[\w-]+\s+)?(?:error|fatal|panic|critical)\b[:\s[]|Traceback\b|ERROR\b|FATAL\b)/i;
const ERROR_ANYWHERE = /\b(?:error|fatal|panicked|exception|failed|cannot|could not|not found)\b/i;

/**
 * Lines that say nothing about why a program failed: stack frames (JavaScript, Python, Go,
 * Java), the `Node.js vX` banner Node prints after a crash, npm's pointer to its log file, a
 * caret under the failing column,
 * and lines of only brackets or punctuation (the ends of an error's property dump). (The source
 * line quoted above a caret, and its `file:line`, are dropped too.)
 */
function isNoise(line: string): boolean {
  return (
    /^at\s/.test(line) ||
    /^File "[^"]*", line \d+/.test(line) ||
    /^goroutine \d+ \[/.test(line) ||
    /^\S+\.go:\d+/.test(line) ||
    /^Node\.js v\d/.test(line) ||
    // npm's pointer to its log, which is inside the server's cache: not a cause.
    /^npm (?:error|ERR!) (?:A complete log of this run can be found in|Log files were not written)\b/.test(
      line,
    ) ||
    /^[\s^~]+$/.test(line) ||
    /^[\s\][{}()<>,;:|'"`.-]*$/.test(line)
  );
}

/**
 * Which lines to quote from a failed server's last stderr lines, joined with ` | `, at most
 * {@link MAX_STDERR_EXCERPT_CHARS} code points: the line that looks like the error (the newest
 * `Error: …`, `error: …`, `fatal: …`, `Traceback`…) first, then the newest other lines that say
 * something, cutting the oldest first — never stack frames, banners or the braces of an error's
 * property dump (the lines between a `{` ending a line and a lone `}`). Each line is cleaned to
 * one line first (the text came from the server). @internal
 *
 * @param tail - The last stderr lines, oldest first (`ProcessTransport.stderrTail()`).
 * @param max - The most code points (default {@link MAX_STDERR_EXCERPT_CHARS}).
 * @returns The excerpt, or `undefined` when no line has anything in it.
 * @example
 * ```ts
 * stderrExcerpt(['Error: GITHUB_TOKEN is missing', '    at main (/s.js:3:9)', 'Node.js v20.20.2']);
 * // 'Error: GITHUB_TOKEN is missing'
 * ```
 */
export function stderrExcerpt(
  tail: readonly string[],
  max: number = MAX_STDERR_EXCERPT_CHARS,
): string | undefined {
  const lines: string[] = [];
  // Node prints an error's own properties as `{ … }` after its stack: not the reason. A `{`
  // that is never closed was not such a dump, and its lines count again.
  let dump: string[] | undefined;
  const cleaned = tail.map((raw) => cleanLine(raw));
  // Node (and others) quote the failing source line above a caret, after its `file:line`.
  const quotedSource = new Set<number>();
  cleaned.forEach((line, i) => {
    if (!/^\^+$/.test(line)) return;
    quotedSource.add(i - 1);
    if (/:\d+$/.test(cleaned[i - 2] ?? '')) quotedSource.add(i - 2);
  });
  for (const [i, line] of cleaned.entries()) {
    if (line === '' || quotedSource.has(i)) continue;
    if (line === '}' && dump !== undefined) {
      dump = undefined;
      continue;
    }
    // The dump opens on a line of its own or at the end of the last stack frame (`at x {`).
    const opens = line.endsWith('{');
    const text = opens ? line.slice(0, -1).trimEnd() : line;
    if (text !== '' && !isNoise(text)) (dump ?? lines).push(text);
    if (opens) {
      if (dump !== undefined) lines.push(...dump);
      dump = [];
    }
  }
  if (dump !== undefined) lines.push(...dump);
  if (lines.length === 0) {
    // Only noise: the newest line still tells more than nothing.
    const newest = tail.map((raw) => cleanLine(raw)).filter((line) => line !== '');
    return newest.length === 0 ? undefined : capLine(newest[newest.length - 1] ?? '', max);
  }
  const errorAt = findLast(lines, (line) => ERROR_START.test(line));
  const mainAt =
    errorAt ?? findLast(lines, (line) => ERROR_ANYWHERE.test(line)) ?? lines.length - 1;
  const main = lines[mainAt] ?? '';
  // Room for the newest other lines, in the order they were written.
  const picked = new Map<number, string>([[mainAt, main]]);
  let used = Array.from(main).length;
  for (let i = lines.length - 1; i >= 0 && picked.size < MAX_LINES; i--) {
    if (i === mainAt) continue;
    const line = lines[i] ?? '';
    const size = Array.from(line).length + 3;
    if (used + size > max) continue;
    picked.set(i, line);
    used += size;
  }
  const shown = [...picked.entries()].sort((a, b) => a[0] - b[0]).map(([, line]) => line);
  // The main line is never dropped: cut it last, and only when it alone is too long.
  return capLine(shown.length === 1 ? main : shown.join(' | '), max);
}

function findLast(lines: readonly string[], test: (line: string) => boolean): number | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i] ?? '')) return i;
  return undefined;
}
