import { describe, expect, it } from 'vitest';
import { packagePin } from './package-spec.js';

describe('packagePin', () => {
  it.each([
    // npm
    ['pkg@1.2.3', 'npm', 'pinned'],
    ['@scope/pkg@1.2.3', 'npm', 'pinned'],
    ['@modelcontextprotocol/server-github@2025.4.8', 'npm', 'pinned'],
    ['pkg@1.2.3-beta.1', 'npm', 'pinned'],
    ['pkg@1.2.3+build.5', 'npm', 'pinned'],
    ['npm:pkg@1.2.3', 'npm', 'pinned'],
    ['pkg', 'npm', 'unpinned'],
    ['@scope/pkg', 'npm', 'unpinned'],
    ['pkg@latest', 'npm', 'unpinned'],
    ['@scope/pkg@latest', 'npm', 'unpinned'],
    ['pkg@^1.2.3', 'npm', 'unpinned'],
    ['pkg@~1.2.3', 'npm', 'unpinned'],
    ['pkg@1', 'npm', 'unpinned'],
    ['pkg@1.x', 'npm', 'unpinned'],
    ['pkg@>=1.0.0', 'npm', 'unpinned'],
    ['pkg@', 'npm', 'unpinned'],
    ['user/repo', 'npm', 'unpinned'],
    ['github:user/repo', 'npm', 'unpinned'],
    ['github:user/repo#main', 'npm', 'unpinned'],
    ['github:user/repo#0123456789abcdef0123456789abcdef01234567', 'npm', 'pinned'],
    ['https://example.com/pkg-1.2.3.tgz', 'npm', 'unpinned'],
    ['git+https://github.com/u/r.git#0123456789abcdef0123456789abcdef01234567', 'npm', 'pinned'],
    ['./local-server', 'npm', 'local'],
    ['/opt/server', 'npm', 'local'],
    ['file:../server', 'npm', 'local'],
    ['~/server', 'npm', 'local'],
    ['C:\\servers\\x', 'npm', 'local'],
    // python
    ['mcp-server-git==1.2.3', 'python', 'pinned'],
    ['mcp-server-git===1.2.3', 'python', 'pinned'],
    ['mcp-server-git[extra]==1.2.3', 'python', 'pinned'],
    ['mcp-server-git@1.2.3', 'python', 'pinned'],
    ['mcp-server-git', 'python', 'unpinned'],
    ['mcp-server-git@latest', 'python', 'unpinned'],
    ['mcp-server-git>=1.0', 'python', 'unpinned'],
    ['mcp-server-git==1.*', 'python', 'unpinned'],
    ['mcp-server-git>=1,<2', 'python', 'unpinned'],
    ['mcp-server-git==', 'python', 'unpinned'],
    ['git+https://github.com/u/r@v1.0', 'python', 'unpinned'],
    ['git+https://github.com/u/r@0123456789abcdef0123456789abcdef01234567', 'python', 'pinned'],
    ['pkg @ https://example.com/pkg.whl', 'python', 'unpinned'],
    ['./dist/pkg-1.0-py3-none-any.whl', 'python', 'local'],
    ['/src/project', 'python', 'local'],
  ] as const)('%s (%s) → %s', (spec, ecosystem, expected) => {
    expect(packagePin(spec, ecosystem)).toBe(expected);
  });
});
