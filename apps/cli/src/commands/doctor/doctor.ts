import { access } from 'node:fs/promises';
import { pinCounts, type PinCounts, type StatusRow } from '@garuda/mcp-manager';
import { detectSandbox } from '@garuda/mcp-transport';
import { TrustStore, getMcpTrustEntry, mcpTrustKey } from '@garuda/mcp-trust';
import { cliPaths, configProblems, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import type { TokenStorageInfo } from '@garuda/mcp-oauth';
import { pinnedText, rowDetail } from '../../format.js';
import { withManager } from '../../open-manager.js';

/** One server's check. */
export interface ServerCheck {
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

import { type DoctorReport, printReport } from './doctor-report.js';

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** One server's check, from its status row and its trust entry. */
function serverCheck(
  row: StatusRow,
  entry: Awaited<ReturnType<typeof getMcpTrustEntry>> | undefined,
  detail: string | undefined,
): ServerCheck {
  const pinned = pinCounts(Object.keys(entry?.toolHashes ?? {}));
  return {
    name: row.name,
    source: row.source,
    state: row.state,
    starts: row.state === 'connected',
    tools: row.tools,
    signIn:
      row.network.kind === 'remote' ? (row.network.signedIn ? 'signed in' : 'no sign-in') : '-',
    pin:
      entry === undefined
        ? 'not pinned'
        : entry.tools === undefined
          ? 'trusted, no tools pinned yet'
          : `pinned (${pinnedText(pinned)})`,
    pinned,
    ...(detail === undefined ? {} : { detail }),
    lostNames: row.lostNames,
  };
}

/** Every server started for real and checked, and where sign-in tokens go. */
async function checkServers(
  ctx: CommandContext,
  trustFile: string,
): Promise<{ servers: ServerCheck[]; tokenStorage: TokenStorageInfo | undefined }> {
  const trust = new TrustStore(trustFile);
  let tokenStorage: TokenStorageInfo | undefined;
  const servers = await withManager(
    ctx,
    { progress: 'Starting every MCP server' },
    async (mcp, prompter) => {
      tokenStorage = await mcp.tokenStorage();
      const checks: ServerCheck[] = [];
      for (const row of mcp.status()) {
        const key = mcpTrustKey(
          row.source === 'user' ? { kind: 'user' } : { kind: 'project', root: ctx.globals.root },
          row.name,
        );
        const entry = await getMcpTrustEntry(trust, key).catch(() => undefined);
        checks.push(serverCheck(row, entry, rowDetail(row, prompter.declined)));
      }
      return checks;
    },
  );
  return { servers, tokenStorage };
}

/**
 * `garuda-mcp doctor`: whether servers work, without starting an agent. The OS sandbox (or why
 * there is none), each config file and its problems, then every server started for real: does
 * it start, how many tools, signed in, pinned. Exit 0 when all is well, 3 when a config file
 * has problems, 4 when a server failed or was denied.
 */
export async function doctorCommand(ctx: CommandContext): Promise<number> {
  const paths = cliPaths(ctx);
  const sandbox = await detectSandbox({ searchPath: ctx.io.env.PATH, signal: ctx.signal });
  const { problems } = await readConfig(ctx);
  const files = [
    { which: 'user', file: paths.userFile, exists: await exists(paths.userFile) },
    { which: 'project', file: paths.projectFile, exists: await exists(paths.projectFile) },
  ];
  const { servers, tokenStorage } = await checkServers(ctx, paths.trustFile);
  const failed = servers.filter((s) => s.state === 'failed' || s.state === 'denied');
  const code =
    configProblems(problems).length > 0
      ? ExitCode.CONFIG
      : failed.length > 0
        ? ExitCode.SERVER
        : ExitCode.OK;
  const report: DoctorReport = { sandbox, files, problems, tokenStorage, servers, code };
  if (ctx.globals.json) {
    ctx.output.out(
      JSON.stringify(
        { sandbox, files, problems, tokenStorage, servers, ok: code === ExitCode.OK },
        null,
        2,
      ),
    );
  } else {
    printReport(ctx, report);
  }
  return code;
}
