import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_RULE_CHARS,
  matchingRule,
  ruleFor,
  ruleNotices,
  validateToolRule,
} from './tool-rules.js';

const matchesAllowRule = (rules: readonly string[], server: string, tool: string) =>
  matchingRule(rules, server, tool) !== undefined;

describe('validateToolRule', () => {
  it.each([
    'mcp.*',
    'mcp.github.*',
    'mcp.github.search_issues',
    'mcp.git.files.read',
    'mcp.x.read file',
    'mcp.x.größe',
    'mcp.0a_b.tool-name',
    'mcp.*.push',
    'mcp.git*.push',
    'mcp.git.*x',
    'mcp.git.push*',
    'mcp.git.**',
    'mcp.*.*',
  ])('accepts %j', (rule) => {
    expect(validateToolRule(rule)).toBeUndefined();
  });

  it.each([
    [
      '',
      'the rule is empty: write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)',
    ],
    [
      '*',
      '"*" does not start with "mcp.": write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)',
    ],
    [
      'MCP.*',
      '"MCP.*" does not start with "mcp.": write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)',
    ],
    [
      'mcp*',
      '"mcp*" does not start with "mcp.": write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)',
    ],
    [
      'mcp.',
      '"mcp.": "" is not a server name (a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit; * for any run)',
    ],
    [
      'mcp.github',
      '"mcp.github" names no tool: use "mcp.github.*" for every tool of github, or "mcp.github.<tool>"',
    ],
    [
      'mcp.github.',
      '"mcp.github." names no tool after the server: write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)',
    ],
    [
      'mcp.GitHub.*',
      '"mcp.GitHub.*": "GitHub" is not a server name (a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit; * for any run)',
    ],
    [
      'mcp._x.*',
      '"mcp._x.*": "_x" is not a server name (a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit; * for any run)',
    ],
    [
      'mcp..x',
      '"mcp..x": "" is not a server name (a-z, 0-9, _ and -, at most 32 characters, starting with a letter or digit; * for any run)',
    ],
    [' mcp.*', '" mcp.*" contains line breaks, tabs, invisible characters or extra spaces'],
    ['mcp.*\n', '"mcp.*\\n" contains line breaks, tabs, invisible characters or extra spaces'],
    [
      'mcp.git.a\tb',
      '"mcp.git.a\\tb" contains line breaks, tabs, invisible characters or extra spaces',
    ],
    [
      'mcp.git.pu\u200bsh',
      '"mcp.git.pu\\u200bsh" contains line breaks, tabs, invisible characters or extra spaces',
    ],
    [
      'mcp.git.a  b',
      '"mcp.git.a  b" contains line breaks, tabs, invisible characters or extra spaces',
    ],
  ])('refuses %j', (rule, problem) => {
    expect(validateToolRule(rule)).toBe(problem);
  });

  it('refuses a rule that is too long or not a string', () => {
    expect(validateToolRule(`mcp.x.${'t'.repeat(MAX_RULE_CHARS)}`)).toMatch(
      /is longer than 1 100 characters$/,
    );
    expect(validateToolRule(42 as unknown as string)).toBe(
      'a rule must be a string (write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*))',
    );
  });
});

describe('matchingRule', () => {
  it.each([
    // rules, server, tool, expected
    [['mcp.*'], 'any', 'thing', true],
    [['mcp.git.*'], 'git', 'status', true],
    [['mcp.git.*'], 'github', 'status', false], // no prefix tricks on the server
    [['mcp.github.*'], 'git', 'status', false],
    [['mcp.git.status'], 'git', 'status', true],
    [['mcp.git.status'], 'git', 'status_all', false], // no prefix tricks on the tool
    [['mcp.git.stat'], 'git', 'status', false],
    [['mcp.git.push'], 'git', 'push.force', false], // a dotted tool stays in its segment
    [['mcp.git.push.force'], 'git', 'push.force', true],
    [['mcp.git.push.force'], 'git', 'push', false],
    [['mcp.git.hub.x'], 'github', 'x', false],
    [['mcp.git.hub.x'], 'git', 'hub.x', true],
    [['mcp.git.Status'], 'git', 'status', false], // case-sensitive
    [['mcp.git.*'], 'Git', 'status', false],
    [['mcp.git.x'], 'git.x', '', false],
    [['mcp.git.read file'], 'git', 'read file', true],
    [['mcp.git.read_file'], 'git', 'read file', false],
    [['mcp.git.*', 'mcp.docs.search'], 'docs', 'search', true],
    [['mcp.git.*', 'mcp.docs.search'], 'docs', 'fetch', false],
    [[], 'git', 'status', false],
    // invalid rules are ignored, never widened
    [['mcp.git'], 'git', 'status', false],
    [['mcp.git*.*'], 'github', 'status', true], // a glob the user wrote
    [['mcp.*.status'], 'git', 'status', true],
    [['mcp.*.status'], 'git', 'status_all', false],
    [['mcp.git.st*'], 'git', 'status', true],
    [['mcp.git.st*'], 'git', 'push', false],
    [['mcp.git.*_file'], 'git', 'read_file', true],
    [['mcp.git.*_file'], 'git', 'read_files', false],
    [['mcp.git.*'], 'git', 'push.force', true],
    [['mcp.g*t.x'], 'gt', 'x', true],
    [['mcp.G*.x'], 'git', 'x', false],
    [['*'], 'git', 'status', false],
    [['mcp.**'], 'git', 'status', false],
    [[' mcp.*'], 'git', 'status', false],
    [['MCP.*'], 'git', 'status', false],
    [['mcp.git.status\n'], 'git', 'status', false],
    [[42, null, 'mcp.git.*'] as unknown as string[], 'git', 'x', true],
  ] as const)('%j / %s / %s → %s', (rules, server, tool, expected) => {
    expect(matchesAllowRule(rules, server, tool)).toBe(expected);
  });

  it('decides deny > ask > allow, whatever the order of the lists', () => {
    const rules = { allow: ['mcp.*'], ask: ['mcp.git.*'], deny: ['mcp.git.push*'] };
    expect(ruleFor(rules, 'git', 'push_force')).toEqual({
      decision: 'deny',
      rule: 'mcp.git.push*',
    });
    expect(ruleFor(rules, 'git', 'status')).toEqual({ decision: 'ask', rule: 'mcp.git.*' });
    expect(ruleFor(rules, 'docs', 'search')).toEqual({ decision: 'allow', rule: 'mcp.*' });
    expect(ruleFor({ allow: [], ask: [], deny: [] }, 'docs', 'search')).toBeUndefined();
    expect(ruleNotices({ allow: ['mcp.git'], ask: [], deny: ['MCP.*'] })).toEqual([
      'An MCP deny rule is ignored: "MCP.*" does not start with "mcp.": write mcp.<server>.<tool>, with * for any run of characters (mcp.github.list_*, mcp.*)',
      'An MCP allow rule is ignored: "mcp.git" names no tool: use "mcp.git.*" for every tool of git, or "mcp.git.<tool>"',
    ]);
  });

  it('matches nothing when rules is not a list', () => {
    expect(matchesAllowRule('mcp.*' as unknown as string[], 'a', 'b')).toBe(false);
  });

  it('property: a rule for one server never covers a tool of another', () => {
    const name = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,31}$/);
    fc.assert(
      fc.property(name, name, fc.string(), fc.string(), (a, b, t1, t2) => {
        fc.pre(a !== b);
        expect(matchesAllowRule([`mcp.${a}.*`, `mcp.${a}.${t1}`], b, t2)).toBe(false);
      }),
    );
  });

  it('property: a rule for one tool covers exactly that tool', () => {
    const name = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,31}$/);
    const tool = fc
      .stringMatching(/^[a-zA-Z0-9_.\- ]{1,40}$/)
      .filter((t) => !t.includes('  ') && t.trim() === t);
    fc.assert(
      fc.property(name, tool, tool, (s, t, other) => {
        expect(validateToolRule(`mcp.${s}.${t}`)).toBeUndefined();
        expect(matchesAllowRule([`mcp.${s}.${t}`], s, t)).toBe(true);
        expect(matchesAllowRule([`mcp.${s}.${t}`], s, other)).toBe(t === other);
      }),
    );
  });
});
