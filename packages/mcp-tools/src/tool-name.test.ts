import { createHash } from 'node:crypto';
import { LONG_TOOL_NAMES } from '@garuda/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, toolName, toolPrefix } from './tool-name.js';

const sha8 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 8);

describe('toolName', () => {
  it.each([
    ['github', 'search_issues', 'mcp__github__search_issues'],
    ['git', 'read-file', 'mcp__git__read-file'],
    ['files', 'files.read', 'mcp__files__files_read'],
    ['files', 'files/read', 'mcp__files__files_read'],
    ['files', 'read file', 'mcp__files__read_file'],
    ['x', 'größe', 'mcp__x__gr__e'],
    ['x', '名前', 'mcp__x____'],
    // One code point, one underscore: an emoji outside the BMP is not two.
    ['x', 'a😀b', 'mcp__x__a_b'],
    ['x', 'lone\uD800', 'mcp__x__lone_'],
    ['x', 'tab\there\nnew', 'mcp__x__tab_here_new'],
    ['x', '', 'mcp__x__'],
    ['s', 'A-Z_0-9', 'mcp__s__A-Z_0-9'],
    // A hyphen in the server name becomes _ (one in the tool name stays).
    ['sequential-thinking', 'think-step', 'mcp__sequential_thinking__think-step'],
  ])('%s / %j → %s', (server, tool, expected) => {
    expect(toolName(server, tool)).toBe(expected);
    expect(toolName(server, tool)).toMatch(TOOL_NAME_PATTERN);
  });

  it('toolPrefix is how every tool name of a server starts', () => {
    expect(toolPrefix('my-notes')).toBe('mcp__my_notes__');
    expect(toolName('my-notes', 'x').startsWith(toolPrefix('my-notes'))).toBe(true);
  });

  it('keeps a name of exactly 64 characters as it is', () => {
    const tool = 'a'.repeat(64 - 'mcp__x__'.length);
    expect(toolName('x', tool)).toBe(`mcp__x__${tool}`);
    expect(toolName('x', tool)).toHaveLength(64);
  });

  it('shortens a 65-character name to 64, ending in _ and 8 hex digits of the full name', () => {
    const tool = 'a'.repeat(65 - 'mcp__x__'.length);
    const name = toolName('x', tool);
    expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(name).toBe(`${'mcp__x__'.padEnd(55, 'a')}_${sha8(`mcp__x__${tool}`)}`);
  });

  it('hashes the name as the server wrote it, so replaced characters still tell names apart', () => {
    const long = 'x'.repeat(70);
    expect(toolName('s', `${long}.a`)).not.toBe(toolName('s', `${long}/a`));
    expect(toolName('s', `${long}.a`).endsWith(`_${sha8(`mcp__s__${long}.a`)}`)).toBe(true);
  });

  it('gives the longnames fixture unique, valid names (twins that share 64 characters differ)', () => {
    const names = Object.entries(LONG_TOOL_NAMES).map(([key, tool]) => [
      key,
      toolName('longnames', tool),
    ]);
    for (const [, name] of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    const byKey = Object.fromEntries(names) as Record<keyof typeof LONG_TOOL_NAMES, string>;
    expect(byKey.twinA).not.toBe(byKey.twinB);
    expect(byKey.len100).not.toBe(byKey.len200);
    // dotted and slashed only differ in a replaced character and are short: they clash
    // (adaptTools keeps the first and says so).
    expect(byKey.dotted).toBe(byKey.slashed);
    const unique = new Set(names.map(([, name]) => name));
    expect(unique.size).toBe(names.length - 1);
  });

  it('is stable across runs (a fixed expected value)', () => {
    expect(toolName('github', 'z'.repeat(100))).toBe(
      `mcp__github__${'z'.repeat(42)}_${sha8(`mcp__github__${'z'.repeat(100)}`)}`,
    );
  });

  it('property: always matches the pattern, is deterministic, and long names stay distinct', () => {
    const server = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,31}$/);
    const tool = fc.string({ unit: 'binary', maxLength: 300 });
    fc.assert(
      fc.property(server, tool, (s, t) => {
        const name = toolName(s, t);
        expect(name).toMatch(TOOL_NAME_PATTERN);
        expect(toolName(s, t)).toBe(name);
      }),
      { numRuns: 2000 },
    );
    const long = fc.string({ unit: 'binary', minLength: 57, maxLength: 200 });
    fc.assert(
      fc.property(server, long, long, (s, a, b) => {
        fc.pre(a !== b);
        expect(toolName(s, a)).not.toBe(toolName(s, b));
      }),
    );
  });
});
