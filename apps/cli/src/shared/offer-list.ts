import type { McpManager } from '@garuda/mcp-manager';
import {
  configProblems,
  findServer,
  noServersLine,
  notConnected,
  readConfig,
} from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { withManager } from '../open-manager.js';

/**
 * The frame of `resources [server]` and `prompts [server]`: starts every server (or the one),
 * lets `show` print what they offer (`show` returns false when there is nothing), says why when
 * nothing is connected, then exits like `tools`: 2 for a server no file has, 3 for its invalid
 * entry or (without a server) a config file with problems, 4 when the named server is not
 * connected.
 */
export async function offerListing(
  ctx: CommandContext,
  server: string | undefined,
  nothing: string,
  show: (mcp: McpManager) => boolean,
): Promise<number> {
  const config = await readConfig(ctx);
  if (server !== undefined) findServer(ctx, config, server);
  return withManager(ctx, server === undefined ? {} : { only: [server] }, (mcp, prompter) => {
    if (!show(mcp)) {
      ctx.output.out(
        mcp.status().length === 0
          ? `${nothing} ${noServersLine(mcp.problems())}`
          : mcp.status().some((row) => row.state === 'connected')
            ? `${nothing}`
            : `${nothing} No server is connected (see garuda-mcp status).`,
      );
    }
    if (server !== undefined) {
      const row = mcp.status().find((r) => r.name === server);
      if (row?.state !== 'connected' && row?.state !== 'ready') {
        throw notConnected(server, row, prompter.declined);
      }
    }
    return Promise.resolve(
      server === undefined && configProblems(mcp.problems()).length > 0
        ? ExitCode.CONFIG
        : ExitCode.OK,
    );
  });
}
