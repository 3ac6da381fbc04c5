import { describe, expect, it } from 'vitest';
import { tomlLayout } from './toml-tables.js';

describe('tomlLayout', () => {
  it('finds the table headers, not look-alikes inside strings, arrays or comments', () => {
    const text = [
      'a = """',
      '[in.a.string]',
      '"""',
      "b = '''",
      '[in.a.literal]',
      "'''",
      'c = [',
      '  [1, 2],',
      '  "]",',
      ']',
      '# [a.comment]',
      '[ mcp_servers . "my \\u0041" ] # a comment',
      'd = "x" # [not.a.header]',
      '[[fruit]]',
      '',
    ].join('\r\n');
    const layout = tomlLayout(text);
    expect(layout?.tables).toEqual([
      { path: ['mcp_servers', 'my A'], array: false, line: 11 },
      { path: ['fruit'], array: true, line: 13 },
    ]);
    expect(layout?.kinds.slice(9)).toEqual([
      'other',
      'comment',
      'header',
      'other',
      'header',
      'blank',
    ]);
  });

  it('refuses what it cannot follow for sure', () => {
    expect(tomlLayout('a = "open\n[mcp_servers.x]\n')).toBeUndefined();
    expect(tomlLayout('a = [\n[mcp_servers.x]\n')).toBeUndefined();
    expect(tomlLayout('[mcp_servers.x] b = 1\n')).toBeUndefined();
    expect(tomlLayout('[mcp_servers."\\q"]\n')).toBeUndefined();
  });
});
