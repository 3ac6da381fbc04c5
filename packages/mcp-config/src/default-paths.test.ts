import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPaths } from './default-paths.js';

describe('defaultPaths', () => {
  it('puts the user files in home and the project file in <root>/.garuda', () => {
    expect(defaultPaths({ home: '/home/me/.garuda', root: '/work/repo' })).toEqual({
      home: '/home/me/.garuda',
      root: '/work/repo',
      userFile: '/home/me/.garuda/mcp.json',
      projectFile: '/work/repo/.garuda/mcp.json',
      trustFile: '/home/me/.garuda/trust.json',
      authFile: '/home/me/.garuda/mcp-auth.json',
    });
  });

  it('makes relative paths absolute', () => {
    const paths = defaultPaths({ home: 'h', root: '.' });
    expect(paths.home).toBe(path.resolve('h'));
    expect(paths.projectFile).toBe(path.resolve('.garuda', 'mcp.json'));
    expect(Object.values(paths).every((p) => path.isAbsolute(p))).toBe(true);
  });

  it('refuses missing or empty folders', () => {
    expect(() => defaultPaths({ home: '', root: '/r' })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => defaultPaths({ home: '/h' } as never)).toThrow(/root/);
    expect(() => defaultPaths({ home: '/h\0', root: '/r' })).toThrow(/home/);
    expect(() => defaultPaths(undefined as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
  });
});
