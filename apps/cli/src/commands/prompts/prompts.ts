import { type McpPrompt } from '@garuda/mcp-tools';
import type { CommandContext } from '../../context.js';
import { summaryLine, table } from '../../format.js';
import { offerListing } from '../../shared/offer-list.js';

/** A prompt's arguments for a table: `code, language?` (optional ones marked). */
function argumentsText(prompt: McpPrompt): string {
  return prompt.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
}

/**
 * `garuda-mcp prompts [server]`: the prompts of every server (or one) that passed the pin check:
 * `<server>/<name>`, its arguments (`?` when optional) and the first line of the description,
 * all cleaned. `--json`: the whole entries. Exit codes as `tools`.
 */
export async function promptsCommand(
  ctx: CommandContext,
  server: string | undefined,
): Promise<number> {
  return offerListing(ctx, server, 'No prompts.', (mcp) => {
    const prompts = mcp.prompts().filter((p) => server === undefined || p.server === server);
    if (ctx.globals.json) {
      ctx.output.out(JSON.stringify({ prompts }, null, 2));
      return true;
    }
    if (prompts.length === 0) return false;
    const c = ctx.output.colour;
    ctx.output.out(
      table(
        ['PROMPT', 'ARGUMENTS', 'DESCRIPTION'],
        prompts.map((p) => [`${p.server}/${p.name}`, argumentsText(p), summaryLine(p.description)]),
        (column, cell) => (column === 0 ? c.bold(cell) : cell),
      ),
    );
    return true;
  });
}
