import type { CommandContext } from '../../context.js';
import { asciiJson, summaryLine, table } from '../../format.js';
import { offerListing } from '../../shared/offer-list.js';

/**
 * `garuda-mcp resources [server]`: the resources and resource templates of every server (or
 * one): URI, server, name, type and the first line of the description, all cleaned. `--json`:
 * the whole entries, each with the raw `uri` to pass to `read` (written as ASCII JSON, so it
 * cannot reach a terminal as anything but text). Exit codes as `tools`.
 */
export async function resourcesCommand(
  ctx: CommandContext,
  server: string | undefined,
): Promise<number> {
  return offerListing(ctx, server, 'No resources.', (mcp) => {
    const mine = <T extends { server: string }>(list: T[]) =>
      server === undefined ? list : list.filter((entry) => entry.server === server);
    const resources = mine(mcp.resources());
    const resourceTemplates = mine(mcp.resourceTemplates());
    if (ctx.globals.json) {
      ctx.output.out(asciiJson({ resources, resourceTemplates }));
      return true;
    }
    if (resources.length === 0 && resourceTemplates.length === 0) return false;
    const c = ctx.output.colour;
    const blocks: string[] = [];
    if (resources.length > 0) {
      blocks.push(
        table(
          ['URI', 'SERVER', 'NAME', 'TYPE', 'DESCRIPTION'],
          resources.map((r) => [
            r.shownUri,
            r.server,
            r.title ?? r.name,
            r.mimeType ?? '',
            summaryLine(r.description),
          ]),
          (column, cell) => (column === 0 ? c.bold(cell) : cell),
        ),
      );
    }
    if (resourceTemplates.length > 0) {
      blocks.push(
        table(
          ['TEMPLATE', 'SERVER', 'NAME', 'TYPE', 'DESCRIPTION'],
          resourceTemplates.map((t) => [
            t.shownUriTemplate,
            t.server,
            t.title ?? t.name,
            t.mimeType ?? '',
            summaryLine(t.description),
          ]),
          (column, cell) => (column === 0 ? c.bold(cell) : cell),
        ),
      );
    }
    ctx.output.out(blocks.join('\n\n'));
    return true;
  });
}
