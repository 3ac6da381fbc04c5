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
    return Promise.resolve(listingExitCode(mcp, server, prompter.declined));
  });
}

/**
 * How a listing of what servers offer (`tools`, `resources`, `prompts`) ends once it printed:
 * 3 without a server when a config file has problems, otherwise 0.
 *
 * @param mcp - The manager the listing read.
 * @param server - The one server listed, if any.
 * @param declined - The servers the person declined to start (named in the error).
 * @returns The exit code.
 * @throws The `notConnected` usage error when the named server is neither connected nor ready
 *   (`ready`: a pinned server of `--start lazy`, listed from its cached, pinned tools).
 */
export function listingExitCode(
  mcp: McpManager,
  server: string | undefined,
  declined: Parameters<typeof notConnected>[2],
): number {
  if (server !== undefined) {
    const row = mcp.status().find((r) => r.name === server);
    if (row?.state !== 'connected' && row?.state !== 'ready') {
      throw notConnected(server, row, declined);
    }
  }
  return server === undefined && configProblems(mcp.problems()).length > 0
    ? ExitCode.CONFIG
    : ExitCode.OK;
}
