import { findServer, noServersLine, readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { summaryLine, table } from '../../format.js';
import { withManager } from '../../open-manager.js';
import { listingExitCode } from '../../shared/offer-list.js';
import type { HiddenTool, StatusRow } from '@garuda/mcp-manager';
import { cleanLine } from '@garuda/mcp-sanitize';

/** The first line of a description, shortened for a table. */
function summary(description: string): string {
  return summaryLine(description.replace(/^\[From MCP server "[^"]*"\.[^\]]*\]\s*/, ''));
}

/** `2 tools of "fs" are hidden: 1 by "denyTools" ("delete_*"), 1 not in "allowTools".` */
function hiddenLines(hidden: readonly HiddenTool[]): string[] {
  const byServer = new Map<string, HiddenTool[]>();
  for (const tool of hidden)
    byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  return [...byServer].map(([server, tools]) => {
    const denied = tools.filter((t) => t.reason === 'denied');
    const patterns = [...new Set(denied.map((t) => t.pattern ?? ''))].map((p) =>
      JSON.stringify(cleanLine(p)),
    );
    const parts = [
      ...(denied.length > 0 ? [`${denied.length} by "denyTools" (${patterns.join(', ')})`] : []),
      ...count(tools, 'not-allowed', 'not in "allowTools"'),
      ...count(tools, 'disabled', 'disabled for this session'),
    ];
    const noun = tools.length === 1 ? 'tool of' : 'tools of';
    return `${tools.length} ${noun} "${server}" ${tools.length === 1 ? 'is' : 'are'} hidden: ${parts.join(', ')}.`;
  });
}

/** `12 tools of "gh" wait behind mcp_tool_search (exposure "search"): … call them by name.` */
function heldLines(rows: readonly StatusRow[]): string[] {
  return rows.flatMap((row) => {
    if (row.heldTools === 0) return [];
    const many = row.heldTools !== 1;
    return [
      `${row.heldTools} ${many ? 'tools' : 'tool'} of "${row.name}" ${many ? 'wait' : 'waits'} behind mcp_tool_search (exposure "${row.exposure ?? 'search'}"): the model finds ${many ? 'them' : 'it'} by searching; garuda-mcp call ${row.name}/<tool> calls one by name.`,
    ];
  });
}

function count(
  tools: readonly HiddenTool[],
  reason: HiddenTool['reason'],
  words: string,
): string[] {
  const n = tools.filter((t) => t.reason === reason).length;
  return n === 0 ? [] : [`${n} ${words}`];
}

/**
 * `garuda-mcp tools [server]`: the tools a model would get (from one server, or all), as the
 * model sees them: name, server, and the first line of the cleaned description. `--json`: the
 * whole tools, input schemas included. Exit 2 for a server no file has, 3 when its entry is
 * invalid or, without a server, when a config file has problems (listing all tools), 4 when
 * the named server is not connected.
 */
export async function toolsCommand(
  ctx: CommandContext,
  server: string | undefined,
): Promise<number> {
  const config = await readConfig(ctx);
  if (server !== undefined) findServer(ctx, config, server);
  const how = {
    startMode: ctx.globals.startMode,
    ...(server === undefined ? {} : { only: [server] }),
  };
  return withManager(ctx, how, (mcp, prompter) => {
    const tools = mcp.tools();
    const hidden = mcp.hiddenTools();
    if (ctx.globals.json) {
      ctx.output.out(JSON.stringify({ tools, hidden }, null, 2));
    } else if (tools.length === 0) {
      ctx.output.out(
        mcp.status().length === 0
          ? `No tools. ${noServersLine(mcp.problems())}`
          : hidden.length > 0
            ? 'No tools: the configuration hides them all.'
            : 'No tools: no server is connected (see garuda-mcp status).',
      );
    } else {
      const c = ctx.output.colour;
      ctx.output.out(
        table(
          ['TOOL', 'SERVER', 'DESCRIPTION'],
          tools.map((tool) => [tool.name, tool.server, summary(tool.description)]),
          (column, cell) => (column === 0 ? c.bold(cell) : cell),
        ),
      );
    }
    if (!ctx.globals.json) {
      for (const line of hiddenLines(hidden)) ctx.output.out(line);
      for (const line of heldLines(mcp.status())) ctx.output.out(line);
    }
    return Promise.resolve(listingExitCode(mcp, server, prompter.declined));
  });
}
