import { formatProblem, type ConfigProblem } from '@garuda/mcp-config';
import type { TokenStorageInfo } from '@garuda/mcp-oauth';
import type { SandboxInfo } from '@garuda/mcp-transport';
import path from 'node:path';
import { configProblems, isServerWarning } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import {
  lostNamesLine,
  plural,
  stateText,
  stateWord,
  table,
  tokenStorageText,
} from '../../format.js';
import type { ServerCheck } from './doctor.js';

/** What doctor found. */
export interface DoctorReport {
  readonly sandbox: SandboxInfo;
  readonly files: readonly { which: string; file: string; exists: boolean }[];
  readonly problems: readonly ConfigProblem[];
  readonly tokenStorage: TokenStorageInfo | undefined;
  readonly servers: readonly ServerCheck[];
  readonly code: number;
}

/** The sandbox, the config files and their problems, and where tokens go. */
function printSetup(ctx: CommandContext, report: DoctorReport): void {
  const { output, globals } = ctx;
  const c = output.colour;
  const { sandbox, files, problems, tokenStorage } = report;
  output.out(c.bold('Sandbox'));
  output.out(
    sandbox.kind === 'none'
      ? `  ${c.yellow('none')}: ${sandbox.reason ?? 'no OS sandbox found'}`
      : `  ${c.green(sandbox.kind)}${sandbox.version ? ` ${sandbox.version}` : ''}${sandbox.command ? ` (${sandbox.command})` : ''}`,
  );
  output.out('');
  output.out(c.bold('Configuration'));
  for (const file of files) {
    output.out(`  ${file.which.padEnd(8)} ${file.file}${file.exists ? '' : c.dim(' (none)')}`);
  }
  for (const problem of problems) {
    const label = isServerWarning(problem) ? c.yellow('warning:') : c.red('problem:');
    output.out(`  ${label} ${formatProblem(problem)}`);
  }
  if (problems.length === 0) output.out(`  ${c.green('no problems')}`);
  output.out('');
  output.out(c.bold('Sign-in tokens'));
  if (tokenStorage) {
    const where = tokenStorageText(tokenStorage, path.join(globals.home, 'mcp-auth.json'), c);
    output.out(`  ${tokenStorage.requested}: ${where}`);
  }
  output.out('');
}

/** The servers' table, then each one's detail. */
function printServers(ctx: CommandContext, report: DoctorReport): void {
  const { output } = ctx;
  const c = output.colour;
  const { problems, servers } = report;
  output.out(c.bold('Servers'));
  if (servers.length === 0) {
    // Never "none configured" for a file that could not be read.
    output.out(
      problems.length > 0 ? '  none loaded (fix the problems above)' : '  none configured',
    );
  } else {
    output.out(
      table(
        ['  NAME', 'SOURCE', 'STATE', 'TOOLS', 'SIGN-IN', 'PIN'],
        servers.map((s) => [
          `  ${s.name}`,
          s.source,
          stateText(s.state, s.lostNames.length),
          String(s.tools),
          s.signIn,
          s.pin,
        ]),
        (column, cell, index) => {
          const s = servers[index];
          return column === 2 ? stateWord(s?.state ?? 'failed', c, s?.lostNames.length) : cell;
        },
      ),
    );
    for (const s of servers) {
      if (s.detail !== undefined && s.state !== 'connected')
        output.out(`  ${c.bold(s.name)}: ${s.detail}`);
      const lost = lostNamesLine(s);
      if (lost !== undefined) output.out(`  ${c.bold(s.name)}: ${c.yellow(lost)}`);
    }
  }
}

/** doctor's report as text. */
export function printReport(ctx: CommandContext, report: DoctorReport): void {
  printSetup(ctx, report);
  printServers(ctx, report);
  const { output } = ctx;
  const c = output.colour;
  const { code, problems, servers } = report;
  const failed = servers.filter((s) => s.state === 'failed' || s.state === 'denied');
  const degraded = servers.filter((s) => s.lostNames.length > 0);
  output.out('');
  output.out(
    code === ExitCode.OK
      ? degraded.length > 0
        ? c.yellow(
            `${plural(degraded.length, 'server')} degraded: some of ${degraded.length === 1 ? 'its' : 'their'} names belong to another server (see above).`,
          )
        : c.green('All good.')
      : c.yellow(
          `${plural(configProblems(problems).length, 'config problem')}, ${plural(failed.length, 'server')} not working.`,
        ),
  );
}
