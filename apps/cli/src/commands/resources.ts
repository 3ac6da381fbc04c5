import { findServer, readConfig } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { ExitCode, usageError } from '../exit-codes.js';
import { asciiJson, summaryLine, table } from '../format.js';
import { withManager } from '../open-manager.js';
import { offerListing } from './offer-list.js';
import { mustBeConnected, requestFailure } from './request-errors.js';

/** The longest URI `read` takes, as the manager does. */
const MAX_URI_CHARS = 8192;

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

/**
 * `garuda-mcp read <server> <uri>`: starts that server only, reads one resource (a listed URI or
 * one a template expands to) and prints it as the model would see it, in
 * `<mcp_resource server=… uri=…>`, binary contents as a note. `--json`: the text and the typed
 * contents (blobs as base64). Exit 2 for a server no file has or a bad URI, 4 when the server is
 * not connected or the read failed.
 */
export async function readCommand(
  ctx: CommandContext,
  server: string,
  uri: string,
): Promise<number> {
  if (uri === '' || uri.length > MAX_URI_CHARS) {
    throw usageError(
      `Give the URI of a resource, at most ${MAX_URI_CHARS} characters (see garuda-mcp resources ${server}).`,
    );
  }
  const config = await readConfig(ctx);
  findServer(ctx, config, server);
  return withManager(ctx, { only: [server] }, async (mcp, prompter) => {
    mustBeConnected(mcp, prompter, server);
    const listed = mcp.resources().find((r) => r.server === server && r.uri === uri);
    try {
      const result = await mcp.readResource(server, uri, { signal: ctx.signal });
      if (ctx.globals.json) {
        ctx.output.out(
          asciiJson({
            server,
            uri,
            text: result.text,
            contents: result.contents,
            omitted: result.omitted,
          }),
        );
      } else {
        ctx.output.out(result.text);
      }
      return ExitCode.OK;
    } catch (error) {
      const shown = listed?.shownUri ?? 'the resource';
      return requestFailure(ctx, prompter, error, `Reading ${shown} of MCP server "${server}"`);
    }
  });
}
