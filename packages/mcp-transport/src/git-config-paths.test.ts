import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitConfigPaths } from './git-config-paths.js';

describe('gitConfigPaths', () => {
  it('finds core.hooksPath (husky) and include paths', () => {
    const text = [
      '[core]',
      '\trepositoryformatversion = 0',
      '\thooksPath = .husky/_',
      '[remote "origin"]',
      '\turl = https://example.com/repo.git',
      '\tpath = not-an-include',
      '[include]',
      '\tpath = ../team.gitconfig',
      '[includeIf "gitdir:~/work/"]',
      '\tpath = ~/.gitconfig-work',
    ].join('\n');
    expect(gitConfigPaths(text)).toEqual({
      hooksPaths: ['.husky/_'],
      includePaths: ['../team.gitconfig', '~/.gitconfig-work'],
    });
  });

  it('ignores case in section and key names, and reads quotes, escapes and comments', () => {
    const text = [
      '[CORE]',
      '  HooksPath = "my hooks"  # a comment',
      '[Core]  hookspath = a\\"b ; another',
      '[core.sub]',
      'hooksPath = dotted-subsection',
      '[INCLUDE]',
      'PATH="x\\\\y"',
    ].join('\r\n');
    expect(gitConfigPaths(text)).toEqual({
      hooksPaths: ['my hooks', 'a"b', 'dotted-subsection'],
      includePaths: ['x\\y'],
    });
  });

  it('ignores other sections, boolean keys and empty values', () => {
    expect(
      gitConfigPaths('[core]\nhooksPath\nhooksPath =\n[alias]\nhooksPath = x\n[broken\npath = y\n'),
    ).toEqual({
      hooksPaths: [],
      includePaths: [],
    });
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const result = gitConfigPaths(text);
        expect(Array.isArray(result.hooksPaths)).toBe(true);
      }),
    );
  });
});
