// Exposure modes through the facade: search holds tools back behind mcp_tool_search and promotes
// what it finds; proxy calls them through mcp_tool_call; a held-back or promoted tool keeps its
// approval, its filters and its cleaning.
import { describe, expect, it } from 'vitest';
import { ToolHiddenError, UnknownToolError } from '../src/index.js';
import type { McpManager } from '../src/index.js';
import { Changes, fixture, unwrap, useWorkspace } from './support/e2e.js';

/** The model's tool names, in the order `tools()` gives them. */
const toolNamesOf = (mcp: McpManager) => mcp.tools().map((tool) => tool.name);

const ws = useWorkspace();

describe('exposure: search', () => {
  it('shows directTools and mcp_tool_search; a search promotes what it found, approval intact', async () => {
    const changes = new Changes();
    const { prompter, mcp } = await ws.startUserServers(
      {
        plain: fixture('normal', ws.mark),
        held: fixture('normal', ws.mark, { exposure: 'search', directTools: ['echo'] }),
      },
      { onChange: changes.onChange },
    );
    const before = toolNamesOf(mcp);
    expect(before.filter((n) => n.startsWith('mcp__held__'))).toEqual(['mcp__held__echo']);
    expect(before.filter((n) => n.startsWith('mcp__plain__'))).toHaveLength(7);
    expect(before.at(-1)).toBe('mcp_tool_search');
    expect(before).not.toContain('mcp_tool_call');
    // What call() takes by name: every offered tool, held back too, and none of the host's.
    const offered = mcp.offeredTools().map((tool) => tool.name);
    expect(offered).toHaveLength(14);
    expect(offered).toContain('mcp__held__add');
    expect(offered).not.toContain('mcp_tool_search');

    const seen = changes.seen.length;
    const found = await mcp.call('mcp_tool_search', { query: 'add two numbers', limit: 1 });
    expect(found.isError).toBe(false);
    expect(found.approval).toEqual({ asked: false, why: 'mcp_tool_search calls no server' });
    expect(found.text).toMatch(/^<mcp_result server="garuda" tool="mcp_tool_search">\n/);
    expect(found.text).toContain('- mcp__held__add: ');
    expect(found.text).toContain('from your next turn');
    expect(prompter.approvals).toEqual([]);
    expect(toolNamesOf(mcp)).toContain('mcp__held__add');
    expect(changes.seen.slice(seen)).toEqual([{ server: 'held', kind: 'tools' }]);
    // Searching again for the same tool changes nothing more.
    await mcp.call('mcp_tool_search', { query: 'add', limit: 1 });
    expect(changes.seen).toHaveLength(seen + 1);

    prompter.approve = false;
    await expect(mcp.call('mcp__held__add', { a: 1, b: 2 })).rejects.toThrow(/declined/);
    expect(prompter.approvals.map((a) => a.name)).toEqual(['mcp__held__add']);
    // A tool still held back can be called by its name (exposure is not a permission).
    prompter.approve = true;
    expect(unwrap((await mcp.call('mcp__held__cwd', {})).text)).not.toBe('');
  });

  it('a query that is missing or empty is an error result that says to search with words', async () => {
    const { mcp } = await ws.startUserServers(
      { held: fixture('normal', ws.mark) },
      { tools: { exposure: 'search' } },
    );
    expect(toolNamesOf(mcp)).toEqual(['mcp_tool_search']);
    for (const args of [{}, { query: '   ' }, { query: 5 }, undefined]) {
      const result = await mcp.call('mcp_tool_search', args);
      expect(result.isError).toBe(true);
      expect(result.text).toContain('Search again with other words');
    }
    expect(toolNamesOf(mcp)).toEqual(['mcp_tool_search']);
  });

  it('mcp_tool_search and mcp_tool_call are unknown when nothing is held back', async () => {
    const { mcp } = await ws.startUserServers({ plain: fixture('normal', ws.mark) });
    await expect(mcp.call('mcp_tool_search', { query: 'add' })).rejects.toThrow(UnknownToolError);
    await expect(mcp.call('mcp_tool_call', { name: 'mcp__plain__add' })).rejects.toThrow(
      UnknownToolError,
    );
  });
});

describe('exposure: proxy', () => {
  it('offers the gateway; found tools stay behind it and run through it with approval', async () => {
    const { prompter, mcp } = await ws.startUserServers(
      { gate: fixture('normal', ws.mark, { exposure: 'proxy', denyTools: ['env'] }) },
      {},
    );
    expect(toolNamesOf(mcp)).toEqual(['mcp_tool_search', 'mcp_tool_call']);
    const found = await mcp.call('mcp_tool_search', { query: 'echo text' });
    expect(found.text).toContain('call one with mcp_tool_call');
    expect(found.text).not.toContain('next turn');
    expect(found.text).toContain('Arguments: "text" (required)');
    expect(toolNamesOf(mcp)).toEqual(['mcp_tool_search', 'mcp_tool_call']);

    const result = await mcp.call('mcp_tool_call', {
      name: 'mcp__gate__echo',
      arguments: { text: 'through the gateway' },
    });
    expect(unwrap(result.text)).toBe('through the gateway');
    expect(prompter.approvals.map((a) => a.name)).toEqual(['mcp__gate__echo']);

    // The filters hold behind the gateway; it calls no host tool and no unknown name.
    await expect(mcp.call('mcp_tool_call', { name: 'mcp__gate__env' })).rejects.toThrow(
      ToolHiddenError,
    );
    await expect(
      mcp.call('mcp_tool_call', { name: 'mcp_tool_call', arguments: {} }),
    ).rejects.toThrow(UnknownToolError);
    await expect(mcp.call('mcp_tool_call', { arguments: {} })).rejects.toThrow(
      /no MCP tool named \(none: give "name"\)/,
    );
    await expect(mcp.call('mcp_tool_call', 'mcp__gate__echo')).rejects.toThrow(
      /arguments of mcp_tool_call must be a JSON object/,
    );
    expect(prompter.approvals).toHaveLength(1);
  });
});
