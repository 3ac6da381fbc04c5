import { hostileLeftovers } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptTools } from './adapt-tools.js';
import { MAX_PREVIEW_ARGUMENT_CHARS, callPreview } from './call-preview.js';
import type { McpTool } from './types.js';

const [echo] = adaptTools('github', [
  {
    name: 'search.issues',
    description: 'Search.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, title: 'Search' },
  },
]).tools as [McpTool];

describe('callPreview', () => {
  it('shows server, tool, model name, hints and pretty arguments', () => {
    expect(callPreview(echo, { query: 'is:open', limit: 5, labels: ['bug'] })).toEqual({
      server: 'github',
      tool: 'search.issues',
      name: 'mcp__github__search_issues',
      hints: ['read-only (not verified)', 'title "Search" (not verified)'],
      arguments: '{\n  "query": "is:open",\n  "limit": 5,\n  "labels": [\n    "bug"\n  ]\n}',
    });
  });

  it('shows no arguments as {}', () => {
    expect(callPreview(echo, undefined).arguments).toBe('{}');
    expect(callPreview(echo, {}).arguments).toBe('{}');
  });

  it('cleans every string and key of the arguments', () => {
    const preview = callPreview(echo, {
      'pa\u202eth': '\x1b[2J\x1b[Hrm -rf ~\u200b',
      nested: ['\u0007bell', { 'k\u0000': 'v' }],
    });
    expect(preview.arguments).toBe(
      '{\n  "path": "rm -rf ~",\n  "nested": [\n    "bell",\n    {\n      "k": "v"\n    }\n  ]\n}',
    );
  });

  it('caps the arguments at 4 000 characters', () => {
    const preview = callPreview(echo, { text: 'x'.repeat(10_000) });
    expect(preview.arguments.length).toBeLessThanOrEqual(MAX_PREVIEW_ARGUMENT_CHARS);
    expect(preview.arguments).toMatch(/\[… \d+ more characters cut\]$/);
  });

  it('never throws on values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const args of [cyclic, 10n, () => 1, Symbol('s'), new Date(0), Number.NaN, null]) {
      expect(() => callPreview(echo, args)).not.toThrow();
    }
    expect(callPreview(echo, cyclic).arguments).toContain('[circular reference]');
  });

  it('cleans the names it shows even if handed a tool built elsewhere', () => {
    const odd: McpTool = {
      ...echo,
      server: 'gh\u202e',
      tool: 'a\nNetwork: no',
      hints: ['read-only\x1b[31m (not verified)'],
    };
    const preview = callPreview(odd, {});
    expect(preview.server).toBe('gh');
    expect(preview.tool).toBe('a Network: no');
    expect(preview.hints).toEqual(['read-only (not verified)']);
  });

  it('property: any JSON arguments give one cleaned, capped preview', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const preview = callPreview(echo, { value, text });
        expect(preview.arguments.length).toBeLessThanOrEqual(MAX_PREVIEW_ARGUMENT_CHARS);
        const leftovers = hostileLeftovers(preview.arguments).filter((f) => !f.includes('tag'));
        expect(leftovers).toEqual([]);
      }),
    );
  });
});
