import type { CommandContext } from '../../context.js';
import { asciiJson, summaryLine, table } from '../../format.js';
import { offerListing } from '../../shared/offer-list.js';

/** What a resource and a resource template both have for a table row. */
interface Offered {
  readonly server: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly description?: string | undefined;
}

/** A table of `entries` under `heading` (empty when there are none): address, server, name… */
function offerTable<T extends Offered>(
  heading: string,
  entries: readonly T[],
  address: (entry: T) => string,
  style: (column: number, cell: string) => string,
): string[] {
  if (entries.length === 0) return [];
  const rows = entries.map((e) => [
    address(e),
    e.server,
    e.title ?? e.name,
    e.mimeType ?? '',
    summaryLine(e.description),
  ]);
  return [table([heading, 'SERVER', 'NAME', 'TYPE', 'DESCRIPTION'], rows, style)];
}

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
    const bold = (column: number, cell: string) => (column === 0 ? c.bold(cell) : cell);
    const blocks = [
      ...offerTable('URI', resources, (r) => r.shownUri, bold),
      ...offerTable('TEMPLATE', resourceTemplates, (t) => t.shownUriTemplate, bold),
    ];
    ctx.output.out(blocks.join('\n\n'));
    return true;
  });
}
