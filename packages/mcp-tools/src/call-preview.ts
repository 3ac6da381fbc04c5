import { capText, cleanJson, cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';
import { capLine } from './quote-text.js';
import type { CallPreview, McpTool } from './types.js';

/** The longest arguments text in a call preview. */
export const MAX_PREVIEW_ARGUMENT_CHARS = 4_000;

/** The longest server or tool name in a call preview, in code points. */
export const MAX_PREVIEW_NAME_CHARS = 200;

/**
 * What a person is shown before a tool call runs: server, tool, the model's name for it, the
 * server's hints (each marked not verified), and the arguments as cleaned, pretty JSON (every
 * string and key through `cleanText`, so nothing in them can move the cursor, hide text or
 * reorder it), capped at {@link MAX_PREVIEW_ARGUMENT_CHARS} characters. No arguments (`undefined`)
 * show as `{}`. Never throws, whatever the arguments hold.
 *
 * @param tool - The adapted tool (from `adaptTools`).
 * @param args - The arguments the model wants to pass.
 * @returns The preview for `Prompter.approveCall`.
 * @example
 * ```ts
 * const preview = callPreview(tool, { query: 'is:open' });
 * // preview.arguments === '{\n  "query": "is:open"\n}'
 * if (!(await prompter.approveCall(preview, signal))) return;
 * ```
 */
export function callPreview(tool: McpTool, args: unknown): CallPreview {
  const json = JSON.stringify(cleanJson(args === undefined ? {} : args), null, 2);
  const line = (text: string) => neutralizeTags(cleanLine(text));
  return {
    server: capLine(line(tool.server), MAX_PREVIEW_NAME_CHARS),
    tool: capLine(line(tool.tool), MAX_PREVIEW_NAME_CHARS),
    name: tool.name,
    hints: tool.hints.map(line),
    arguments: neutralizeTags(capText(json, MAX_PREVIEW_ARGUMENT_CHARS)),
  };
}
