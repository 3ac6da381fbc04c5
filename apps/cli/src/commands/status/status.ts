import { configProblems, noServersLine } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode } from '../../exit-codes.js';
import path from 'node:path';
import { formatStatus, rowDetail, tokenStorageText } from '../../format.js';
import { withManager } from '../../open-manager.js';

/**
 * `garuda-mcp status`: starts every server (asking what must be asked) and prints the table:
 * name, source, state, tools, sandbox, network (remote URL and sign-in), and why a server failed
 * or was denied. `--json`: `{ servers, problems }`. Exit 0, or 3 when a config file has
 * problems (they are told on stderr first; the valid servers are still shown).
 */
export async function statusCommand(ctx: CommandContext): Promise<number> {
  return withManager(ctx, { startMode: ctx.globals.startMode }, async (mcp, prompter) => {
    const rows = mcp.status();
    const problems = mcp.problems();
    // Where sign-in tokens go matters only when a remote server is configured.
    const tokenStorage = rows.some((row) => row.network.kind === 'remote')
      ? await mcp.tokenStorage()
      : undefined;
    if (ctx.globals.json) {
      const servers = rows.map((row) => {
        const detail = rowDetail(row, prompter.declined);
        return { ...row, ...(detail === undefined ? {} : { detail }) };
      });
      ctx.output.out(
        JSON.stringify({ servers, problems, ...(tokenStorage ? { tokenStorage } : {}) }, null, 2),
      );
    } else if (rows.length === 0) {
      ctx.output.out(noServersLine(problems));
    } else {
      ctx.output.out(formatStatus(rows, ctx.output.colour, prompter.declined));
      if (tokenStorage) {
        const file = path.join(ctx.globals.home, 'mcp-auth.json');
        ctx.output.out(
          `\nSign-in tokens: ${tokenStorageText(tokenStorage, file, ctx.output.colour)}`,
        );
      }
    }
    return configProblems(problems).length > 0 ? ExitCode.CONFIG : ExitCode.OK;
  });
}
