import { cpuMsOf } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOG, adapt } from '../test/tool-catalog.js';
import {
  MAX_TOOL_SEARCH_QUERY_CHARS,
  MAX_TOOL_SEARCH_RESULTS,
  createToolIndex,
  term,
  tokenize,
} from './tool-search.js';
import type { McpTool } from './types.js';

const names = (hits: readonly { name: string }[]) => hits.map((hit) => hit.name);

describe('tokenize', () => {
  it('splits on camelCase, snake_case and anything not a letter or digit, lower-cased', () => {
    expect(tokenize('listPullRequests')).toEqual(['list', 'pull', 'requests']);
    expect(tokenize('read_file')).toEqual(['read', 'file']);
    expect(tokenize('HTTPServer get-v2 API')).toEqual(['http', 'server', 'get', 'v2', 'api']);
    expect(tokenize('Größe_ändern / 日本語')).toEqual(['größe', 'ändern', '日本語']);
  });

  it('drops words of one character', () => {
    expect(tokenize('a b c: x_y_z, I/O')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });

  it('folds plain plurals only', () => {
    expect(
      ['issues', 'repositories', 'status', 'class', 'analysis', 'is', 'files'].map(term),
    ).toEqual(['issue', 'repository', 'status', 'class', 'analysis', 'is', 'file']);
  });
});

describe('createToolIndex', () => {
  const index = createToolIndex(CATALOG);

  it('finds tools by what they do, best first', () => {
    expect(index.size).toBe(CATALOG.length);
    expect(names(index.search('read a file')).at(0)).toBe('mcp__filesystem__read_file');
    expect(names(index.search('open pull requests')).at(0)).toBe('mcp__github__list_pull_requests');
    expect(names(index.search('send a message to a channel')).at(0)).toBe(
      'mcp__slack__postMessage',
    );
    expect(names(index.search('sql')).at(0)).toBe('mcp__postgres__query');
    expect(names(index.search('create issue')).slice(0, 2)).toEqual([
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]);
  });

  it('gives name, server, tool and a positive score, ordered by score', () => {
    const hits = index.search('list');
    expect(hits.length).toBeGreaterThan(1);
    for (const hit of hits) {
      const tool = CATALOG.find((t) => t.name === hit.name);
      expect(hit).toEqual({
        name: tool?.name,
        server: tool?.server,
        tool: tool?.tool,
        score: hit.score,
      });
      expect(hit.score).toBeGreaterThan(0);
    }
    const scores = hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('reads the tool name, the server, the description and the argument names', () => {
    expect(names(index.search('postMessage')).at(0)).toBe('mcp__slack__postMessage');
    expect(names(index.search('post message')).at(0)).toBe('mcp__slack__postMessage');
    expect(names(index.search('slack')).sort()).toEqual([
      'mcp__slack__list_channels',
      'mcp__slack__postMessage',
    ]);
    expect(names(index.search('workspace'))).toEqual(['mcp__slack__list_channels']);
    expect(names(index.search('recursive'))).toEqual(['mcp__filesystem__list_directory']);
  });

  it('leaves the untrusted-text prefix out', () => {
    expect(index.search('untrusted information instructions')).toEqual([]);
  });

  it('weights the tool name over words of its description', () => {
    const tools = [
      ...adapt('a', [{ name: 'directory', description: 'Lists things.' }]),
      ...adapt('b', [{ name: 'lister', description: 'Lists the directory.' }]),
    ];
    expect(names(createToolIndex(tools).search('directory'))).toEqual([
      'mcp__a__directory',
      'mcp__b__lister',
    ]);
  });

  it('puts a tool first whose MCP name or model name is the whole query', () => {
    const tools = [
      ...adapt('docs', [
        { name: 'search', description: 'Look something up in the handbook.' },
        { name: 'search_search', description: 'Search, search and search again: search.' },
      ]),
      ...CATALOG,
    ];
    const exact = createToolIndex(tools);
    expect(names(exact.search('search')).slice(0, 2)).toEqual([
      'mcp__docs__search',
      'mcp__docs__search_search',
    ]);
    expect(names(exact.search('  SEARCH ')).at(0)).toBe('mcp__docs__search');
    expect(names(exact.search('mcp__github__search_code')).at(0)).toBe('mcp__github__search_code');
    // Also when none of its words is known, as for a name of one character.
    const short = createToolIndex(adapt('x', [{ name: 'q', description: 'Quick lookup.' }]));
    expect(names(short.search('q'))).toEqual(['mcp__x__q']);
    expect(short.search('r')).toEqual([]);
  });

  it('returns nothing for an empty query or one with no known word', () => {
    for (const query of ['', '   ', 'zzz qqq', 'a', '!!! ---', 123 as unknown as string]) {
      expect(index.search(query), String(query)).toEqual([]);
    }
    expect(createToolIndex([]).search('file')).toEqual([]);
  });

  it('reads only the first 500 characters of a query', () => {
    const padding = 'x '.repeat(MAX_TOOL_SEARCH_QUERY_CHARS / 2);
    expect(index.search(`${padding}slack`)).toEqual([]);
    expect(index.search(`${padding.slice(6)}slack`).length).toBe(2);
  });

  it('counts each query word once: repeating one does not change the ranking', () => {
    expect(index.search('file file file file directory')).toEqual(index.search('file directory'));
  });

  it('limits the hits: default 5, at most 20, whatever the model sends', () => {
    const many = createToolIndex(
      adapt(
        'big',
        Array.from({ length: 40 }, (_, i) => ({ name: `list_things_${i}` })),
      ),
    );
    expect(many.search('list')).toHaveLength(5);
    expect(many.search('list', { limit: 3 })).toHaveLength(3);
    expect(many.search('list', { limit: 100 })).toHaveLength(MAX_TOOL_SEARCH_RESULTS);
    expect(many.search('list', { limit: 0 })).toHaveLength(1);
    expect(many.search('list', { limit: -4 })).toHaveLength(1);
    expect(many.search('list', { limit: 2.9 })).toHaveLength(2);
    for (const limit of [Number.NaN, Number.POSITIVE_INFINITY, '7', null]) {
      expect(many.search('list', { limit: limit as number })).toHaveLength(5);
    }
    expect(many.search('list', null as unknown as undefined)).toHaveLength(5);
  });

  it('keeps the best hits of many in order, ties by name', () => {
    const many = createToolIndex(
      adapt(
        'big',
        Array.from({ length: 60 }, (_, i) => ({
          name: `tool_${String(i).padStart(2, '0')}`,
          description: `Fetch things.${' fetch'.repeat(i % 7)}`,
        })),
      ),
    );
    const all = many.search('fetch', { limit: 20 });
    const expected = [...all].sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
    expect(all).toEqual(expected);
    expect(all[0]?.name).toBe('mcp__big__tool_06');
    expect(many.search('fetch', { limit: 3 })).toEqual(all.slice(0, 3));
  });

  it('breaks ties by name', () => {
    const twins = createToolIndex([
      ...adapt('zeta', [{ name: 'fetch_page', description: 'Fetch a web page.' }]),
      ...adapt('alpha', [{ name: 'fetch_page', description: 'Fetch a web page.' }]),
    ]);
    const hits = twins.search('web page');
    expect(names(hits)).toEqual(['mcp__alpha__fetch_page', 'mcp__zeta__fetch_page']);
    expect(hits[0]?.score).toBe(hits[1]?.score);
  });

  it('searches one server when asked', () => {
    expect(names(index.search('list', { server: 'slack' }))).toEqual(['mcp__slack__list_channels']);
    expect(index.search('list', { server: 'nope' })).toEqual([]);
    expect(index.search('query', { server: 'github' }).map((hit) => hit.server)).not.toContain(
      'postgres',
    );
  });

  it('looks tools up by model name, and keeps the first of two with one name', () => {
    const [first] = CATALOG as [McpTool];
    const copy: McpTool = { ...first, description: 'Another tool posing under the same name.' };
    const twice = createToolIndex([first, copy]);
    expect(twice.size).toBe(1);
    const { get } = twice;
    expect(get(first.name)).toBe(first);
    expect(get('mcp__nope__x')).toBeUndefined();
    expect(twice.search('posing')).toEqual([]);
  });

  it('property: any query gives sorted, bounded hits of indexed tools, and never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 700 }), fc.lorem({ maxCount: 8 })),
        fc.option(fc.integer({ min: -5, max: 50 }), { nil: undefined }),
        (query, limit) => {
          const hits = index.search(query, { limit });
          expect(hits.length).toBeLessThanOrEqual(
            limit === undefined ? 5 : Math.max(1, Math.min(20, limit)),
          );
          for (let i = 1; i < hits.length; i++) {
            expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
          }
          for (const hit of hits) expect(index.get(hit.name)?.server).toBe(hit.server);
          // A smaller limit gives the start of a larger one's hits.
          expect(hits).toEqual(index.search(query, { limit: 20 }).slice(0, hits.length));
        },
      ),
    );
  });
});

describe('tokenize on hostile text', () => {
  // A guard against quadratic time, not a speed test (the bound only catches a hang).
  it('ReDoS: a tool text of 50 000 capitals is split in linear time', { timeout: 300_000 }, () => {
    const lengths: number[] = [];
    const cpuMs = cpuMsOf(() => {
      for (let i = 0; i < 10; i += 1) lengths.push(tokenize(`${'A'.repeat(50_000)}!`).length);
    });
    expect(lengths).toEqual(Array.from({ length: 10 }, () => 1));
    expect(cpuMs).toBeLessThan(20_000);
    expect(tokenize('HTMLParser ABCdEFGh')).toEqual(['html', 'parser', 'ab', 'cd', 'ef', 'gh']);
  });
});
