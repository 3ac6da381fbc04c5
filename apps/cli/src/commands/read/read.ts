import { findServer, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, usageError } from '../../exit-codes.js';
import { asciiJson } from '../../format.js';
import { withManager } from '../../open-manager.js';
import { mustBeConnected, requestFailure } from '../../shared/request-errors.js';

/** The longest URI `read` takes, as the manager does. */
const MAX_URI_CHARS = 8192;

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
