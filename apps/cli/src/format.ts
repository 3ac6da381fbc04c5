// How the CLI shows what the manager hands it. Every string from a server or a config file has
// been cleaned by the manager already (no escapes, no bidi or invisible characters); these
// functions only lay it out.
import { lostNamesText, networkText, sandboxText, type StatusRow } from '@garuda/mcp-manager';
import type { TokenStorageInfo } from '@garuda/mcp-oauth';
import type { Colours } from './output.js';
import type { DeclinedQuestion } from './prompter.js';

/** `1 tool`, `2 tools`: a count with its noun. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * A server's pins in words: `15 tools, 4 prompts, 1 app` (prompts and MCP Apps only when it has
 * some).
 */
export function pinnedText(pinned: {
  readonly tools: number;
  readonly prompts: number;
  readonly apps?: number;
}): string {
  const apps = pinned.apps ?? 0;
  return [
    plural(pinned.tools, 'tool'),
    ...(pinned.prompts === 0 ? [] : [plural(pinned.prompts, 'prompt')]),
    ...(apps === 0 ? [] : [plural(apps, 'app')]),
  ].join(', ');
}

/** Display width of a cleaned string (wide East Asian characters count two). */
function width(text: string): number {
  let total = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    total +=
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1f300 && code <= 0x1faff) ||
      (code >= 0x20000 && code <= 0x3fffd)
        ? 2
        : 1;
  }
  return total;
}

/** `text` padded with spaces to `size` columns of display width. */
export function pad(text: string, size: number): string {
  return text + ' '.repeat(Math.max(0, size - width(text)));
}

/**
 * A plain text table: a header row, then one row per entry, columns padded to the widest cell.
 * `style(column, cell)` may colour a cell (padding is computed on the plain text).
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  style: (column: number, cell: string, row: number) => string = (_c, cell) => cell,
): string {
  const widths = header.map((title, column) =>
    Math.max(width(title), ...rows.map((row) => width(row[column] ?? ''))),
  );
  const line = (cells: readonly string[], row: number) =>
    cells
      .map((cell, column) => {
        const padded = column === cells.length - 1 ? cell : pad(cell, widths[column] ?? 0);
        return row < 0 ? padded : padded.replace(cell, style(column, cell, row));
      })
      .join('  ')
      .trimEnd();
  return [line(header, -1), ...rows.map((row, index) => line(row, index))].join('\n');
}

/** A server's detail as the CLI shows it: the manager's advice in the CLI's own words. */
export function cliDetail(detail: string): string {
  return detail.replace(
    "add its folder to the sandbox's read paths (the sandbox.readPaths option)",
    'allow its folder with --sandbox-read <folder> (or $GARUDA_SANDBOX_READ)',
  );
}

/**
 * Why a server is not connected, as the CLI shows it. When this run answered its question "no"
 * only because there was no terminal, that is what it says (the manager only knows the answer).
 */
export function rowDetail(
  row: StatusRow,
  declined: readonly DeclinedQuestion[] = [],
): string | undefined {
  if (row.state === 'connected') return row.detail;
  const unasked = declined.find(
    (q) => q.server === row.name && (q.kind === 'consent' || q.kind === 'sign-in'),
  );
  if (unasked?.kind === 'consent' && row.state === 'denied') {
    return `nobody was asked to allow it (no terminal): ${unasked.flag}`;
  }
  if (unasked?.kind === 'sign-in' && row.state === 'failed') {
    return `it needs a sign-in, and nobody was asked (no terminal): ${unasked.flag}`;
  }
  return row.detail === undefined ? undefined : cliDetail(row.detail);
}

/** One word of a POSIX shell command line: as it is when it is plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w:./@+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** `garuda-mcp login <server>`, with `--scope` for each scope it must ask for. */
export function loginCommandLine(server: string, scopes: readonly string[] = []): string {
  const words = ['garuda-mcp', 'login', server];
  for (const scope of scopes) words.push('--scope', shellWord(scope));
  return words.join(' ');
}

/**
 * The state as the status table shows it: `ready (not started)` for a lazily started server,
 * `degraded` for a connected one that lost tool or prompt names to another server.
 */
export function stateText(state: StatusRow['state'], lostNames = 0): string {
  if (state === 'connected' && lostNames > 0) return 'degraded';
  return state === 'ready' ? 'ready (not started)' : state;
}

/** Why a server is degraded (names it lost to another server), or `undefined`. */
export function lostNamesLine(row: Pick<StatusRow, 'lostNames'>): string | undefined {
  return row.lostNames.length === 0 ? undefined : `degraded: ${lostNamesText(row.lostNames)}`;
}

/** The state word, coloured by how good it is. */
export function stateWord(state: StatusRow['state'], c: Colours, lostNames = 0): string {
  if (state === 'connected' && lostNames > 0) return c.yellow(stateText(state, lostNames));
  switch (state) {
    case 'connected':
      return c.green(state);
    case 'ready':
      return c.green(stateText(state));
    case 'failed':
      return c.red(state);
    case 'denied':
    case 'stopped':
    case 'starting':
      return c.yellow(state);
    default:
      return c.dim(state);
  }
}

/**
 * The `/mcp` status table: name, source, state, tools, sandbox, network (with the remote URL and
 * sign-in), then the reason for each failed or denied server below the table.
 */
export function formatStatus(
  rows: readonly StatusRow[],
  c: Colours,
  declined: readonly DeclinedQuestion[] = [],
): string {
  if (rows.length === 0) {
    return 'No MCP servers are configured. Add one with: garuda-mcp add <name> -- <command> [args…]';
  }
  const body = table(
    ['NAME', 'SOURCE', 'STATE', 'TOOLS', 'RISK', 'SANDBOX', 'NETWORK'],
    rows.map((row) => [
      row.name,
      row.source,
      stateText(row.state, row.lostNames.length),
      [
        String(row.tools),
        ...(row.heldTools > 0 ? [`(+${String(row.heldTools)} behind search)`] : []),
        ...(row.hiddenTools > 0 ? [`(+${String(row.hiddenTools)} hidden)`] : []),
      ].join(' '),
      row.risk.tier,
      sandboxText(row.sandbox),
      networkText(row.network),
    ]),
    (column, cell, index) => {
      if (column === 0) return c.bold(cell);
      if (column === 2) {
        const row = rows[index];
        return stateWord(row?.state ?? 'failed', c, row?.lostNames.length);
      }
      if (column === 4 && cell === 'destructive') return c.red(cell);
      return cell;
    },
  );
  const details = rows.flatMap((row) => {
    const detail =
      row.state === 'connected' || row.state === 'ready'
        ? lostNamesLine(row)
        : rowDetail(row, declined);
    return detail === undefined ? [] : [`  ${c.bold(row.name)}: ${detail}`];
  });
  return details.length > 0 ? `${body}\n\n${details.join('\n')}` : body;
}

/** The first line of a cleaned description, shortened for a table. */
export function summaryLine(description: string | undefined): string {
  const line = (description ?? '').split('\n', 1)[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/**
 * JSON for stdout with every character outside printable ASCII written as `\uXXXX`: it parses
 * back to the same value, and a raw value a server sent (a resource's URI, kept so a script can
 * read it back) cannot put an escape, a bidi control or an invisible character on a terminal.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[^\n\u0020-\u007e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Where sign-in tokens are kept, in one line: `OS keychain (the Secret Service answered)`,
 * `auth file <path> (no OS keychain answered: …)`, `this run only (session: nothing is saved)`;
 * a keychain asked for that does not answer in yellow.
 */
export function tokenStorageText(info: TokenStorageInfo, authFile: string, c: Colours): string {
  switch (info.mode) {
    case 'keyring':
      return info.available
        ? `OS keychain (${info.reason})`
        : c.yellow(`OS keychain, which does not answer: ${info.reason}`);
    case 'session':
      return 'this run only (session: nothing is saved)';
    case 'file':
      return info.requested === 'file'
        ? `auth file ${authFile} (mode 0600)`
        : `auth file ${authFile} (mode 0600; ${info.reason})`;
  }
}
