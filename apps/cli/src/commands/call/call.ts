import { UnknownToolError, type CallProgress } from '@garuda/mcp-manager';
import { TOOL_SEARCH_NAME, toolPrefix } from '@garuda/mcp-tools';
import { configuredNames, findServer, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { closeMatches, didYouMean } from '../../did-you-mean.js';
import { ExitCode, usageError, type CliError } from '../../exit-codes.js';
import { lostNamesLine } from '../../format.js';
import { withManager } from '../../open-manager.js';
import { mustBeConnected, parseJsonObject, requestFailure } from '../../shared/request-errors.js';

/** The JSON arguments of a call: an object, or nothing. */
export function parseArguments(text: string | undefined): Record<string, unknown> {
  return parseJsonObject(text, 'tool arguments', '{"text":"hello"}');
}

/**
 * A call's progress as one line: `mcp__fx__slow: 400 of 1000 (40%) step 3`. Every part comes
 * cleaned from the manager.
 */
export function progressText(progress: CallProgress): string {
  const { tool, progress: done, total, message } = progress;
  const amount =
    total !== undefined && total > 0
      ? `${done} of ${total} (${Math.min(100, Math.floor((done / total) * 100))}%)`
      : `${done}`;
  return `${tool}: ${amount}${message === undefined ? '' : ` ${message}`}`;
}

/**
 * Which server a tool name belongs to: `<server>/<tool>`, or the model's name
 * `mcp__<server>__<tool>` matched against the configured server names (the longest that fits,
 * since a server name may itself contain underscores; a `-` in it is `_` in tool names).
 */
export function serverOfTool(name: string, servers: readonly string[]): string | undefined {
  const slash = name.indexOf('/');
  if (slash > 0) return name.slice(0, slash);
  if (!name.startsWith('mcp__')) return undefined;
  return servers
    .filter((server) => name.startsWith(toolPrefix(server)))
    .sort((a, b) => b.length - a.length)[0];
}

/** Exit 2 for a tool name no configured server can have, with a close one when there is. */
function unknownToolServer(tool: string, servers: readonly string[]): CliError {
  let hint = '';
  if (tool.startsWith('mcp__')) {
    // mcp__<typo>__<tool>: the part up to the next "__" is what was meant as the server.
    const end = tool.indexOf('__', 'mcp__'.length);
    if (end > 0) {
      const typed = tool.slice('mcp__'.length, end);
      const rest = tool.slice(end + 2);
      const byPrefix = new Map(servers.map((s) => [toolPrefix(s).slice(5, -2), s]));
      const matches = closeMatches(typed, byPrefix.keys());
      if (matches.length > 0) {
        hint = ` Did you mean ${matches.map((m) => `${toolPrefix(byPrefix.get(m) ?? m)}${rest}`).join(' or ')}?`;
      }
    }
  }
  return usageError(
    `No configured MCP server has a tool "${tool}".${hint} Name it as <server>/<tool> or ` +
      `mcp__<server>__<tool> (see garuda-mcp tools).`,
  );
}

/**
 * `garuda-mcp call <tool> [json-args]`: starts the tool's server only, shows the call preview,
 * asks approval (`--yes` approves), and prints the wrapped, cleaned result on stdout. Exit 1 when
 * the tool reports an error, 4 when the call was declined or the server is not connected, 2 for
 * an unknown tool or bad arguments.
 */
export async function callCommand(
  ctx: CommandContext,
  tool: string,
  argsText: string | undefined,
): Promise<number> {
  const input = parseArguments(argsText);
  if (tool === TOOL_SEARCH_NAME) return searchCommand(ctx, input);
  const config = await readConfig(ctx);
  // Names with problems too: a broken entry is named as such, not as an unknown tool.
  const names = configuredNames(config);
  const server = serverOfTool(tool, names);
  if (server === undefined) throw unknownToolServer(tool, names);
  findServer(ctx, config, server);
  const how = { only: [server], startMode: ctx.globals.startMode };
  return withManager(ctx, how, async (mcp, prompter) => {
    mustBeConnected(mcp, prompter, server);
    const slash = tool.indexOf('/');
    // Every offered tool, also one its server's exposure holds back from a model.
    const offered = mcp.offeredTools();
    const found =
      slash > 0
        ? offered.find((t) => t.server === server && t.tool === tool.slice(slash + 1))
        : offered.find((t) => t.name === tool);
    if (found === undefined) {
      const own = offered.filter((t) => t.server === server);
      const hint =
        slash > 0
          ? didYouMean(
              tool.slice(slash + 1),
              own.map((t) => t.tool),
              (t) => `${server}/${t}`,
            )
          : didYouMean(
              tool,
              own.map((t) => t.name),
              (t) => t,
            );
      // A tool whose name another server holds is not offered: say so, not only "no tool".
      const row = mcp.status().find((r) => r.name === server);
      const lost = row === undefined ? undefined : lostNamesLine(row);
      throw usageError(
        `MCP server "${server}" has no tool "${tool}".${hint} Its tools: ${
          own.map((t) => t.name).join(', ') || 'none'
        }.${lost === undefined ? '' : ` It is ${lost}.`}`,
      );
    }
    try {
      let result;
      try {
        result = await mcp.call(found.name, input, {
          signal: ctx.signal,
          onProgress: (progress) => ctx.output.progressLine(progressText(progress)),
        });
      } finally {
        ctx.output.endProgressLine();
      }
      if (result.approval?.asked === false) {
        ctx.output.err(ctx.output.colour.dim(`→ ran without asking: ${result.approval.why}`));
      }
      if (ctx.globals.json) {
        ctx.output.out(
          JSON.stringify({ tool: found.name, isError: result.isError, text: result.text }, null, 2),
        );
      } else {
        ctx.output.out(result.text);
      }
      return result.isError ? ExitCode.TOOL_ERROR : ExitCode.OK;
    } catch (error) {
      return requestFailure(ctx, prompter, error, `The call of ${found.name}`);
    }
  });
}

/**
 * `garuda-mcp call mcp_tool_search '{"query":"…"}'`: what a model's search finds among the tools
 * held back by exposure (every server started), printed as the model reads it. Exit 2 when no
 * tool waits behind the search.
 */
async function searchCommand(ctx: CommandContext, input: Record<string, unknown>): Promise<number> {
  return withManager(ctx, { startMode: ctx.globals.startMode }, async (mcp, prompter) => {
    try {
      const result = await mcp.call(TOOL_SEARCH_NAME, input, { signal: ctx.signal });
      ctx.output.out(ctx.globals.json ? JSON.stringify(result, null, 2) : result.text);
      return result.isError ? ExitCode.TOOL_ERROR : ExitCode.OK;
    } catch (error) {
      if (UnknownToolError.isInstance(error)) {
        throw usageError(
          `No tool waits behind ${TOOL_SEARCH_NAME}: no connected server is in "search" or "proxy" exposure (set "exposure" in its entry, or pass --exposure search).`,
        );
      }
      return requestFailure(ctx, prompter, error, `The search`);
    }
  });
}
