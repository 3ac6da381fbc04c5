import { McpManagerError, McpManagerErrorCode } from '@garuda/mcp-manager';
import { type McpPrompt } from '@garuda/mcp-tools';
import { findServer, readConfig } from '../cli-config.js';
import type { CommandContext } from '../context.js';
import { didYouMean } from '../did-you-mean.js';
import { ExitCode, usageError } from '../exit-codes.js';
import { summaryLine, table } from '../format.js';
import { withManager } from '../open-manager.js';
import { offerListing } from './offer-list.js';
import { mustBeConnected, parseJsonObject, requestFailure } from './request-errors.js';

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

/**
 * `garuda-mcp prompt <server>/<name> ['{json arguments}']`: starts that server only, gets one
 * prompt with its arguments (strings) and prints its messages as the model would get them, in
 * `<mcp_prompt server=… name=…>`, marked as the server's words. Exit 2 for a server no file has, a
 * prompt the server does not offer (none of that name, or one held back until its change is
 * allowed: the message says which) or bad arguments; 4 when the server is not connected or
 * failed.
 */
export async function promptCommand(
  ctx: CommandContext,
  target: string,
  argsText: string | undefined,
): Promise<number> {
  const slash = target.indexOf('/');
  if (slash <= 0 || slash === target.length - 1) {
    throw usageError(
      `Name the prompt as <server>/<prompt>, e.g. docs/summarize (see garuda-mcp prompts).`,
    );
  }
  const server = target.slice(0, slash);
  const name = target.slice(slash + 1);
  const args = parseJsonObject(argsText, 'prompt arguments', '{"topic":"tests"}');
  const config = await readConfig(ctx);
  findServer(ctx, config, server);
  return withManager(ctx, { only: [server] }, async (mcp, prompter) => {
    mustBeConnected(mcp, prompter, server);
    const own = mcp.prompts().filter((p) => p.server === server);
    const listed = own.some((p) => p.name === name);
    try {
      const result = await mcp.getPrompt(server, name, args, { signal: ctx.signal });
      if (ctx.globals.json) {
        ctx.output.out(
          JSON.stringify(
            {
              prompt: `${server}/${name}`,
              ...(result.description === undefined ? {} : { description: result.description }),
              messages: result.messages,
              text: result.text,
            },
            null,
            2,
          ),
        );
      } else {
        ctx.output.out(result.text);
      }
      return ExitCode.OK;
    } catch (error) {
      if (
        !listed &&
        McpManagerError.isInstance(error) &&
        error.code === McpManagerErrorCode.CALL_FAILED
      ) {
        // Not offered: unknown, or held back until its change is allowed (the message says).
        const hint = didYouMean(
          name,
          own.map((p) => p.name),
          (p) => `${server}/${p}`,
        );
        // The manager's reason: "the server lists no such prompt", or why it is held back.
        const detail = error.message
          .slice(error.message.indexOf(' failed: ') + ' failed: '.length)
          .replace(/^it cannot be used: /, '');
        throw usageError(
          `The prompt ${JSON.stringify(name)} of MCP server "${server}" cannot be used: ${detail}.${hint} Its prompts: ${
            own.map((p) => `${server}/${p.name}`).join(', ') || 'none'
          }.`,
        );
      }
      return requestFailure(ctx, prompter, error, `The prompt ${server}/${name}`);
    }
  });
}
