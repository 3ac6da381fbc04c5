import { access } from 'node:fs/promises';
import { formatProblem } from '@garuda/mcp-config';
import { pinCounts, type PinCounts, type StatusRow } from '@garuda/mcp-manager';
import { detectSandbox } from '@garuda/mcp-transport';
import { TrustStore, getMcpTrustEntry, mcpTrustKey } from '@garuda/mcp-trust';
import { cliPaths, configProblems, isServerWarning, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import path from 'node:path';
import type { TokenStorageInfo } from '@garuda/mcp-oauth';
import {
  lostNamesLine,
  pinnedText,
  plural,
  rowDetail,
  stateText,
  stateWord,
  table,
  tokenStorageText,
} from '../../format.js';
import { withManager } from '../../open-manager.js';

/** One server's check. */
interface ServerCheck {
  readonly name: string;
  readonly source: StatusRow['source'];
  readonly state: StatusRow['state'];
  readonly starts: boolean;
  readonly tools: number;
  /** `signed in`, `no sign-in`, or `-` for a local server. */
  readonly signIn: string;
  /**
   * `pinned (N tools)` (`1 tool`; `, M prompts` when it has prompts), `trusted, no tools pinned
   * yet`, or `not pinned`.
   */
  readonly pin: string;
  /** How many tools and prompts are pinned (resources are not pinned). */
  readonly pinned: PinCounts;
  readonly detail?: string;
  /** The tool and prompt names another server holds (the server is degraded when any). */
  readonly lostNames: StatusRow['lostNames'];
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * `garuda-mcp doctor`: whether servers work, without starting an agent. The OS sandbox (or why
 * there is none), each config file and its problems, then every server started for real: does
 * it start, how many tools, signed in, pinned. Exit 0 when all is well, 3 when a config file
 * has problems, 4 when a server failed or was denied.
 */
export async function doctorCommand(ctx: CommandContext): Promise<number> {
  const { globals, io, output } = ctx;
  const c = output.colour;
  const paths = cliPaths(ctx);
  const sandbox = await detectSandbox({ searchPath: io.env.PATH, signal: ctx.signal });
  const { problems } = await readConfig(ctx);
  const files = [
    { which: 'user', file: paths.userFile, exists: await exists(paths.userFile) },
    { which: 'project', file: paths.projectFile, exists: await exists(paths.projectFile) },
  ];
  const trust = new TrustStore(paths.trustFile);
  let tokenStorage: TokenStorageInfo | undefined;
  const servers = await withManager(
    ctx,
    { progress: 'Starting every MCP server' },
    async (mcp, prompter) => {
      tokenStorage = await mcp.tokenStorage();
      const checks: ServerCheck[] = [];
      for (const row of mcp.status()) {
        const key = mcpTrustKey(
          row.source === 'user' ? { kind: 'user' } : { kind: 'project', root: globals.root },
          row.name,
        );
        const entry = await getMcpTrustEntry(trust, key).catch(() => undefined);
        const pinned = pinCounts(Object.keys(entry?.toolHashes ?? {}));
        const detail = rowDetail(row, prompter.declined);
        checks.push({
          name: row.name,
          source: row.source,
          state: row.state,
          starts: row.state === 'connected',
          tools: row.tools,
          signIn:
            row.network.kind === 'remote'
              ? row.network.signedIn
                ? 'signed in'
                : 'no sign-in'
              : '-',
          pin:
            entry === undefined
              ? 'not pinned'
              : entry.tools === undefined
                ? 'trusted, no tools pinned yet'
                : `pinned (${pinnedText(pinned)})`,
          pinned,
          ...(detail === undefined ? {} : { detail }),
          lostNames: row.lostNames,
        });
      }
      return checks;
    },
  );

  const failed = servers.filter((s) => s.state === 'failed' || s.state === 'denied');
  const degraded = servers.filter((s) => s.lostNames.length > 0);
  const code =
    configProblems(problems).length > 0
      ? ExitCode.CONFIG
      : failed.length > 0
        ? ExitCode.SERVER
        : ExitCode.OK;
  if (globals.json) {
    output.out(
      JSON.stringify(
        { sandbox, files, problems, tokenStorage, servers, ok: code === ExitCode.OK },
        null,
        2,
      ),
    );
    return code;
  }
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
  return code;
}
