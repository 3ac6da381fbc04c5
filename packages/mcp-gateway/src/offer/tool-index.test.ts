import type { McpTool } from '@garuda/mcp-tools';
import { describe, expect, it } from 'vitest';
import { ToolIndex, hostToolName } from './tool-index.js';

const tool = (name: string, description = ''): McpTool =>
  ({ name, server: 's', tool: name, description, inputSchema: {} }) as unknown as McpTool;

describe('ToolIndex', () => {
  it('finds by host name, the first of a name, and builds its map once per list', () => {
    let lists = 0;
    const tools = [tool('mcp__a__echo', 'first'), tool('mcp__a__echo', 'second'), tool('own')];
    const index = new ToolIndex(() => {
      lists += 1;
      return tools;
    });
    expect(index.find('a__echo')?.description).toBe('first');
    expect(index.find('own')?.name).toBe('own');
    expect(lists).toBe(1);
    expect(hostToolName('mcp__a__echo')).toBe('a__echo');
  });

  it('sees a changed list after forget(), and looks a name it lacks up afresh', () => {
    let tools = [tool('mcp__a__echo')];
    const index = new ToolIndex(() => tools);
    expect(index.find('a__echo')).toBeDefined();
    tools = [tool('mcp__a__added')];
    // Not told yet: a name the map lacks is still found in the list as it is now.
    expect(index.find('a__added')?.name).toBe('mcp__a__added');
    index.forget();
    expect(index.find('a__echo')).toBeUndefined();
    expect(index.find('a__added')?.name).toBe('mcp__a__added');
  });
});
