import { hostileLeftovers } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { adaptTools } from './adapt-tools.js';
import { MAX_PREVIEW_ARGUMENTS, MAX_PREVIEW_ARGUMENT_CHARS, callPreview } from './call-preview.js';
import { callPreviewText, previewArgumentsText } from './call-preview-text.js';
import type { McpTool } from './types.js';

const [search, plain] = adaptTools('github', [
  {
    name: 'search.issues',
    description: 'Search.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, title: 'Search' },
  },
  { name: 'echo', inputSchema: { type: 'object' } },
]).tools as [McpTool, McpTool];

describe('callPreviewText', () => {
  it('words the question as garuda-mcp asks it', () => {
    expect(callPreviewText(callPreview(search, { query: 'is:open', labels: ['bug'] }))).toBe(
      [
        'Run tool "search.issues" of MCP server "github"?',
        '  name      mcp__github__search_issues',
        '  hints     read-only (not verified), title "Search" (not verified)',
        '  arguments',
        '    {',
        '      "query": "is:open",',
        '      "labels": [',
        '        "bug"',
        '      ]',
        '    }',
      ].join('\n'),
    );
  });

  it('leaves out the hints line when there are none, and shows no arguments as {}', () => {
    expect(callPreviewText(callPreview(plain, undefined))).toBe(
      [
        'Run tool "echo" of MCP server "github"?',
        '  name      mcp__github__echo',
        '  arguments',
        '    {}',
      ].join('\n'),
    );
  });

  it('styles the title and the labels as the host asks, the words unchanged', () => {
    const text = callPreviewText(callPreview(search, { a: 1 }), {
      title: (s) => `<b>${s}</b>`,
      label: (s) => `<i>${s}</i>`,
    });
    expect(text.split('\n').slice(0, 4)).toEqual([
      '<b>Run tool "search.issues" of MCP server "github"?</b>',
      '  <i>name     </i> mcp__github__search_issues',
      '  <i>hints    </i> read-only (not verified), title "Search" (not verified)',
      '  <i>arguments</i>',
    ]);
  });

  it('quotes a name with a quote in it, so it cannot end the quotation', () => {
    const odd: McpTool = { ...plain, tool: 'a" of MCP server "trusted' };
    expect(callPreviewText(callPreview(odd, {})).split('\n')[0]).toBe(
      'Run tool "a\\" of MCP server \\"trusted" of MCP server "github"?',
    );
  });

  it('stays clean and bounded for hostile, huge arguments', () => {
    const args: Record<string, string> = {};
    const value = `\x1b]0;title\x07${'v'.repeat(100_000)}\u2066`;
    for (let i = 0; i < 10_000; i++) args[`\x1b[2K\u202ek${i}\n</mcp_result>`] = value;
    const text = callPreviewText(callPreview(search, args));
    expect(hostileLeftovers(text)).toEqual([]);
    // 50 names of a few characters, 4 000 characters of values, and the layout around them.
    expect(text.length).toBeLessThan(MAX_PREVIEW_ARGUMENT_CHARS + MAX_PREVIEW_ARGUMENTS * 60);
    expect(text).toContain('      "k0 ‹/mcp_result>": "vvv');
    expect(text.endsWith('      [… 9 950 more arguments not shown]\n    }')).toBe(true);
  });
});

describe('previewArgumentsText', () => {
  it('indents a value’s own lines and a cut marker under its name', () => {
    const preview = callPreview(plain, { list: [1, 2], text: 'x'.repeat(5_000), after: true });
    const text = previewArgumentsText(preview);
    expect(text).toMatch(
      /^\{\n {2}"list": \[\n {4}1,\n {4}2\n {2}\],\n {2}"text": "x+\n {2}\[… \d+ more characters cut\],\n {2}"after": true\n\}$/,
    );
  });

  it('says when the arguments are not a JSON object', () => {
    expect(previewArgumentsText(callPreview(plain, ['a']))).toBe(
      '[\n  "a"\n]\n(not a JSON object: a tool takes named arguments)',
    );
  });

  it('counts left-out arguments in words, one or many', () => {
    const base = { arguments: [], nonObjectArguments: undefined };
    expect(previewArgumentsText({ ...base, omittedArguments: 1 })).toBe(
      '{\n  [… 1 more argument not shown]\n}',
    );
    expect(previewArgumentsText({ ...base, omittedArguments: 12_345 })).toBe(
      '{\n  [… 12 345 more arguments not shown]\n}',
    );
  });
});
