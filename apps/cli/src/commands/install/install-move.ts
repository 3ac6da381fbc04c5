// What `garuda-mcp install <host>` says about a host's file: the plan of moving its servers
// behind the gateway, and why a file cannot be edited. The editing itself is mcp-config's
// (`planHostInstall`, `applyHostInstall`).
import type {
  HostFileError,
  HostFileServer,
  HostInstallPlan,
  HostMovePlan,
  HostStayReason,
} from '@garuda/mcp-config';
import { ConfigErrorCode, ImportNoteCode, LIMITS as CONFIG_LIMITS } from '@garuda/mcp-config';
import { cleanLine } from '@garuda/mcp-sanitize';
import { plural } from '../../format.js';
import type { Colours } from '../../output.js';
import { importedServerLines, noteLine } from '../../shared/import-servers.js';

/** Why a server stays, in words. */
function stayText(why: HostStayReason, key: string): string {
  switch (why) {
    case 'not-importable':
      return 'it cannot be imported (see above)';
    case 'not-a-table':
      return `garuda-mcp only takes out [${key}.<name>] tables, and it is written another way`;
    case 'not-read':
      return 'garuda-mcp import cannot read it from the file';
  }
}

/**
 * What moving would do, for the screen: the host's servers as import shows them (where each
 * goes, its warnings, why one cannot be imported), then which stay where they are.
 */
export function movePlanLines(
  plan: HostInstallPlan,
  move: HostMovePlan,
  userFile: string,
  c: Colours,
): string[] {
  const lines: string[] = [];
  const key = plan.host.serversKey;
  for (const problem of move.file?.problems ?? []) {
    lines.push(`  ${c.red('problem:')} ${plan.file}: ${noteLine(problem)}`);
  }
  const read = move.servers.flatMap((server) => (server.imported ? [server.imported] : []));
  const moving = new Set(move.moving.map((server) => server.imported));
  if (read.length > 0) {
    lines.push(
      ...importedServerLines(read, (server) => (moving.has(server) ? 'user' : undefined), c),
    );
  }
  lines.push('');
  if (move.moving.length > 0) {
    lines.push(
      `Moving imports ${plural(move.moving.length, 'server')} into ${userFile} (as garuda-mcp import does: ` +
        `${move.moving.map((server) => server.imported.name).join(', ')}), then writes a backup of ` +
        `${plan.file} beside it and takes them out of its "${key}", where the garuda entry stands in for them.`,
    );
  }
  for (const { server, why } of move.staying) {
    lines.push(`${c.yellow('stays:')} ${server.shown}: ${stayText(why, key)}.`);
  }
  return lines;
}

/** The names of servers, for one line. */
export function shownNames(servers: readonly HostFileServer[]): string {
  return servers.map((server) => server.shown).join(', ');
}

/** The message of an error's cause. */
function causeText(error: HostFileError): string {
  return (error.cause as Error | undefined)?.message ?? error.message;
}

/**
 * What `garuda-mcp install <host>` says when mcp-config could not edit the host's file: what
 * is wrong and what to do, and that nothing was written (or what a failed move undid).
 */
export function hostErrorText(
  error: HostFileError,
  host: { name: string; client: string; format: string; key: string },
  userFile: string,
): string {
  const { file } = error;
  const kind = host.format === 'toml' ? 'TOML' : 'JSON';
  const refuse = (why: string) =>
    `${file} ${why}, so garuda-mcp does not edit it: fix it, or add the entry by hand. Nothing was written.`;
  switch (error.reason) {
    case 'not-a-file':
      return refuse('is not a regular file');
    case 'too-large':
      return refuse(`is larger than ${CONFIG_LIMITS.maxImportFileBytes / (1024 * 1024)} MiB`);
    case 'not-utf8':
      return refuse('is not UTF-8 text');
    case 'unreadable':
      return `Cannot read ${file}: ${causeText(error)}.`;
    case 'unparsable': {
      const problem = error.problem;
      // A syntax error's message has its line and column already; a nesting one's place is added.
      const where =
        problem?.code === ImportNoteCode.TOO_DEEP && problem.line !== undefined
          ? ` (from line ${problem.line}, column ${problem.column ?? 1})`
          : '';
      return (
        `${file} ${cleanLine(problem?.message ?? 'cannot be parsed')}${where}. garuda-mcp does not ` +
        `edit a ${kind} file it cannot parse: fix the file, then run garuda-mcp install ${host.name} ` +
        'again, or add the entry by hand. Nothing was written; the file is as it was.'
      );
    }
    case 'not-an-object':
      return `${file} is not a ${host.format === 'toml' ? 'TOML document' : 'JSON object'} garuda-mcp can edit safely (fix it, or add the entry by hand): nothing was written.`;
    case 'list-not-an-object':
      return `${file}: "${host.key}" is not an object of servers, so garuda-mcp cannot add its entry safely: fix it in ${host.name}'s settings, or add the entry by hand. Nothing was written.`;
    case 'entry-refused':
      return `${file} cannot take the entry (${causeText(error)}): nothing was written.`;
    case 'entry-not-held':
      return `${file} cannot take the entry: the file with it added would not read back as ${kind} holding it (is "${host.key}" written in a way garuda-mcp cannot add to, such as an inline table?). Add it by hand. Nothing was written.`;
    case 'cannot-rewrite':
      return `garuda-mcp cannot take the servers out of ${file} safely: nothing was moved or written. Run garuda-mcp install ${host.name} --no-move, and move them by hand (garuda-mcp import --from ${host.client}).`;
    default:
      return moveErrorText(error, host.name, userFile);
  }
}

/** Why a move failed, and what was undone. */
function moveErrorText(error: HostFileError, host: string, userFile: string): string {
  const { file } = error;
  const written = (error.undone?.length ?? 0) + (error.left?.length ?? 0);
  const why =
    error.reason === 'import-failed'
      ? (error.failed ?? [])
          .map(({ name, reason }) => `${name} could not be imported: ${reason}`)
          .join('\n')
      : error.reason === 'changed'
        ? `${file} changed while garuda-mcp was moving its servers (is ${host} running? quit it first).`
        : error.reason === 'backup-failed'
          ? `The backup of ${file} could not be written: ${causeText(error)}.`
          : `Cannot write ${file}: ${causeText(error)}.` +
            (error.backup === undefined ? '' : ` (the backup ${error.backup} stays).`);
  if (error.code !== ConfigErrorCode.HOST_MOVE_FAILED) return why;
  return (
    `${why}\nNothing was moved: ${file} is as it was` +
    (written === 0
      ? '.'
      : (error.left?.length ?? 0) === 0
        ? `, and the servers imported into ${userFile} were removed again.`
        : `, but ${(error.left ?? []).join(', ')} could not be removed from ${userFile} again (garuda-mcp remove <name>).`)
  );
}
