import type { LocalServerConfig, ServerConfig, ToolExposure } from '@garuda/mcp-config';
import { adaptTools } from '@garuda/mcp-tools';
import { describe, expect, it } from 'vitest';
import { localServer } from '../../test/support/servers.js';
import { AUTO_SEARCH_MIN_TOOLS, exposeTools, exposureOf } from './tool-exposure.js';
import type { McpTool } from '../types.js';

function server(name: string, def: Partial<LocalServerConfig['def']> = {}): ServerConfig {
  return localServer({
    name,
    source: 'user',
    file: '/home/u/.garuda/mcp.json',
    def: { command: 'x', ...def },
  });
}

function toolsOf(name: string, count: number): McpTool[] {
  return adaptTools(
    name,
    Array.from({ length: count }, (_, i) => ({
      name: `tool_${String(i).padStart(2, '0')}`,
      description: `Tool ${String(i)} of ${name}.`,
      inputSchema: { type: 'object' },
    })),
  ).tools;
}

function expose(
  servers: Record<
    string,
    { readonly def?: Partial<LocalServerConfig['def']>; readonly tools: number }
  >,
  host: ToolExposure = 'direct',
  promoted: readonly string[] = [],
) {
  const configs = new Map(Object.entries(servers).map(([n, s]) => [n, server(n, s.def)]));
  const offered = Object.entries(servers).flatMap(([n, s]) => toolsOf(n, s.tools));
  return exposeTools(offered, (n) => configs.get(n), host, new Set(promoted));
}

const names = (tools: readonly McpTool[]) => tools.map((tool) => tool.name);

describe('exposure', () => {
  it('direct: every offered tool, and no search tool', () => {
    const exposed = expose({ a: { tools: 2 } });
    expect(names(exposed.list)).toEqual(['mcp__a__tool_00', 'mcp__a__tool_01']);
    expect(exposed.catalog).toEqual([]);
    expect(exposed.gateway).toBe(false);
  });

  it('search: directTools and promoted tools, then mcp_tool_search; the catalog holds them all', () => {
    const exposed = expose(
      {
        a: { tools: 1 },
        b: { def: { exposure: 'search', directTools: ['tool_0*'] }, tools: 12 },
      },
      'direct',
      ['mcp__b__tool_11'],
    );
    expect(names(exposed.list)).toEqual([
      'mcp__a__tool_00',
      ...Array.from({ length: 10 }, (_, i) => `mcp__b__tool_0${String(i)}`),
      'mcp__b__tool_11',
      'mcp_tool_search',
    ]);
    expect(exposed.catalog).toHaveLength(12);
    expect(exposed.gateway).toBe(false);
    const search = exposed.list.at(-1);
    expect(search).toMatchObject({ server: 'garuda', tool: 'mcp_tool_search', readOnly: false });
    expect(search?.description).toContain('from your next turn');
    expect(search?.description).not.toContain('mcp_tool_call');
  });

  it('search with every tool shown offers no search tool', () => {
    const exposed = expose({ b: { def: { exposure: 'search', directTools: ['*'] }, tools: 3 } });
    expect(names(exposed.list)).not.toContain('mcp_tool_search');
  });

  it('proxy: the gateway, found tools are not promoted, and the search says so', () => {
    const exposed = expose({ p: { tools: 3 } }, 'proxy', ['mcp__p__tool_00']);
    expect(names(exposed.list)).toEqual(['mcp_tool_search', 'mcp_tool_call']);
    expect(exposed.gateway).toBe(true);
    expect([...exposed.proxied]).toHaveLength(3);
    expect(exposed.list[0]?.description).toContain('Call a tool found with mcp_tool_call');
    expect(exposed.list[0]?.description).not.toContain('next turn');
  });

  it('auto: direct up to AUTO_SEARCH_MIN_TOOLS offered tools, search above; never proxy', () => {
    const at = expose({ a: { tools: AUTO_SEARCH_MIN_TOOLS } }, 'auto');
    expect(at.modes.get('a')).toBe('direct');
    const above = expose({ a: { tools: 30 }, b: { tools: AUTO_SEARCH_MIN_TOOLS - 29 } }, 'auto');
    expect([...above.modes.values()]).toEqual(['search', 'search']);
    expect(names(above.list)).toEqual(['mcp_tool_search']);
    // A server's own setting wins over the host's.
    const mixed = expose(
      { a: { def: { exposure: 'direct' }, tools: 30 }, b: { tools: 30 } },
      'auto',
    );
    expect(Object.fromEntries(mixed.modes)).toEqual({ a: 'direct', b: 'search' });
    expect(exposureOf(server('x', { exposure: 'auto' }), 'proxy', 1_000)).toBe('search');
  });
});
