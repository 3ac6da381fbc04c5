import { describe, expect, it } from 'vitest';
import type { ServerOrigin } from '@garuda/internal';
import { toolName } from '@garuda/mcp-tools';
import { lostNamesText, ownerOf, toolView, type ToolHolder } from './tool-view.js';
import type { McpPrompt, McpTool, ServerState } from '../types.js';

function holder(
  name: string,
  origin: ServerOrigin,
  tools: readonly string[],
  prompts: readonly string[] = [],
  state: ServerState = 'connected',
): ToolHolder {
  return {
    name,
    origin,
    state,
    tools: tools.map((tool): McpTool => ({
      name: toolName(name, tool),
      server: name,
      tool,
      description: '',
      inputSchema: { type: 'object' },
      readOnly: false,
      hints: [],
    })),
    prompts: prompts.map((prompt): McpPrompt => ({ server: name, name: prompt, arguments: [] })),
  };
}

describe('toolView: names that clash', () => {
  it("name squatting through prompts: a project's `a` cannot list `b__review` as your `a__b`'s a__b__review, whatever the case", () => {
    const view = toolView([
      holder('a', 'project', [], ['b__REVIEW', 'other']),
      holder('a__b', 'user', [], ['review']),
    ]);
    expect(view.prompts.map((p) => `${p.server}/${p.name}`)).toEqual(['a/other', 'a__b/review']);
    expect(view.clashes).toEqual([
      {
        kind: 'prompt',
        name: 'a__b__REVIEW',
        server: 'a',
        origin: 'project',
        keptBy: 'a__b',
        keptByOrigin: 'user',
      },
    ]);
  });

  it("keeps your server's prefix while it is down: the project's my-notes offers none of mcp__my_notes__…", () => {
    const view = toolView([
      holder('my-notes', 'project', ['search', 'write']),
      holder('my_notes', 'user', ['search'], [], 'failed'),
    ]);
    expect(view.list).toEqual([]);
    expect(view.clashes.map((c) => [c.name, c.keptBy])).toEqual([
      ['mcp__my_notes__search', 'my_notes'],
      ['mcp__my_notes__write', 'my_notes'],
    ]);
    expect(lostNamesText(view.clashes)).toBe(
      'its tools "mcp__my_notes__search", "mcp__my_notes__write" are not offered: MCP server "my_notes" (yours) holds those names',
    );
  });

  it("a call's error names your server when both are down (origin before name length)", () => {
    const servers = [
      holder('my-notes', 'project', ['search'], [], 'failed'),
      holder('my_notes', 'user', ['search'], [], 'denied'),
    ];
    expect(ownerOf(servers, 'mcp__my_notes__search')?.name).toBe('my_notes');
  });
});
