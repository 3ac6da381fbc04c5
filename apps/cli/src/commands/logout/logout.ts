import { configuredNames, findServer, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import { cliPrompter, createManager } from '../../open-manager.js';

/**
 * `garuda-mcp logout <server>`: removes the stored sign-in and revokes its tokens where the
 * authorization server offers revocation. Nothing is started. Exit 0 (a failed revocation is
 * reported; the local sign-in is gone either way).
 */
export async function logoutCommand(ctx: CommandContext, name: string): Promise<number> {
  const config = await readConfig(ctx);
  const configured = configuredNames(config).includes(name);
  const mcp = createManager(ctx, cliPrompter(ctx));
  try {
    // Also for a server no file has any more: its stored sign-in may still be there.
    const result = await mcp.logout(name, { signal: ctx.signal }).catch((error: unknown) => {
      // A name that cannot have a sign-in (it is refused as a server name) has none to remove.
      if (config.servers.some((s) => s.name === name)) throw error;
      return { removed: 0, ok: true, revocations: [] };
    });
    // Nothing stored and no file names it: a typo (exit 2), or it may be in a file that could
    // not be read (exit 3).
    if (!configured && result.removed === 0) findServer(ctx, config, name);
    if (ctx.globals.json) {
      ctx.output.out(JSON.stringify({ server: name, ...result }, null, 2));
    } else if (result.removed === 0) {
      ctx.output.out(`No stored sign-in for MCP server ${ctx.output.colour.bold(name)}.`);
    } else {
      ctx.output.out(`Signed out of MCP server ${ctx.output.colour.bold(name)}.`);
      if (!result.ok) {
        ctx.output.err(
          ctx.output.errColour.yellow(
            'warning: the authorization server did not confirm the revocation; the tokens may stay valid until they expire.',
          ),
        );
      }
    }
    return ExitCode.OK;
  } finally {
    await mcp.close();
  }
}
