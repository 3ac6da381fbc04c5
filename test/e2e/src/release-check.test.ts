// `pnpm release:check` does what cutting a release does, in a throwaway copy, and must pass on
// main: every package versioned by its changesets (a first release is 0.1.0), built, packed,
// installed from the tarballs with plain npm outside the repository, and imported. Its checks
// of one package are also fed broken packages here, so each is seen to refuse what it must.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkChangelog,
  checkFiles,
  checkManifest,
  checkVersion,
} from '../../../scripts/release/checks.mjs';
import { repoRoot, shippedWorkspaces } from './workspace.js';

const REPOSITORY = 'git+https://github.com/garuda-mcp/garuda-mcp.git';

/** The packed package.json of a well-formed library, for the checks to find nothing in. */
function goodManifest(): Record<string, unknown> {
  return {
    name: '@garuda/mcp-tools',
    version: '0.1.0',
    license: 'MIT',
    repository: { type: 'git', url: REPOSITORY, directory: 'packages/mcp-tools' },
    publishConfig: { access: 'public' },
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    types: './dist/index.d.ts',
    files: ['dist', 'CHANGELOG.md'],
    dependencies: { '@garuda/mcp-sanitize': '^0.1.0', zod: '^4.0.0' },
    devDependencies: { '@garuda/internal': '0.0.0' },
  };
}

const CONTEXT = {
  version: '0.1.0',
  folder: 'packages/mcp-tools',
  released: new Map([
    ['@garuda/mcp-tools', '0.1.0'],
    ['@garuda/mcp-sanitize', '0.1.0'],
  ]),
  private: new Set(['@garuda/internal', '@garuda/test-utils']),
  repositoryUrl: REPOSITORY,
};

const GOOD_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'dist/index.js',
  'dist/index.d.ts',
];

describe('the checks of one package', () => {
  it('find nothing wrong in a well-formed package', () => {
    expect(checkManifest(goodManifest(), CONTEXT)).toEqual([]);
    expect(checkFiles(goodManifest(), GOOD_FILES)).toEqual([]);
    expect(checkVersion('@garuda/mcp-tools', '0.0.0', '0.1.0')).toEqual([]);
    expect(checkVersion('@garuda/mcp-tools', '0.1.0', '0.1.1')).toEqual([]);
    expect(
      checkChangelog('x', '0.1.0', '# x\n\n## 0.1.0\n\n### Minor Changes\n\n- First.\n'),
    ).toEqual([]);
  });

  it('refuse a workspace: range left in the packed package.json', () => {
    const manifest = { ...goodManifest(), dependencies: { '@garuda/mcp-sanitize': 'workspace:^' } };
    expect(checkManifest(manifest, CONTEXT).join('\n')).toMatch(/still says "workspace:"/);
  });

  it('refuse a range of ours that this release does not satisfy, and private dependencies', () => {
    const stale = { ...goodManifest(), dependencies: { '@garuda/mcp-sanitize': '^0.0.0' } };
    expect(checkManifest(stale, CONTEXT)).toEqual([
      expect.stringMatching(/asks for @garuda\/mcp-sanitize@\^0\.0\.0, but this release publishes/),
    ]);
    const internal = { ...goodManifest(), dependencies: { '@garuda/internal': '0.0.0' } };
    expect(checkManifest(internal, CONTEXT)).toEqual([
      expect.stringMatching(/names @garuda\/internal, which is private/),
    ]);
  });

  it('refuse a package npm provenance or users would reject', () => {
    const { repository: _r, ...noRepository } = goodManifest();
    expect(checkManifest(noRepository, CONTEXT).join('\n')).toMatch(/"repository" must be/);
    const wrongFolder = {
      ...goodManifest(),
      repository: { url: REPOSITORY, directory: 'packages/other' },
    };
    expect(checkManifest(wrongFolder, CONTEXT).join('\n')).toMatch(/"repository" must be/);
    expect(checkManifest({ ...goodManifest(), publishConfig: {} }, CONTEXT).join('\n')).toMatch(
      /access/,
    );
    expect(checkManifest({ ...goodManifest(), license: 'UNLICENSED' }, CONTEXT).join('\n')).toMatch(
      /license/,
    );
    expect(checkManifest({ ...goodManifest(), version: '0.0.0' }, CONTEXT).join('\n')).toMatch(
      /says version 0\.0\.0, not 0\.1\.0/,
    );
  });

  it('refuse a tarball without its README, LICENSE, entry files, or with files outside "files"', () => {
    const problems = checkFiles(
      goodManifest(),
      GOOD_FILES.filter(
        (file) => !['LICENSE', 'README.md', 'dist/index.d.ts'].includes(file),
      ).concat('src/index.ts', '.env'),
    );
    expect(problems).toEqual([
      '@garuda/mcp-tools: the tarball has no README.md.',
      '@garuda/mcp-tools: the tarball has no LICENSE.',
      '@garuda/mcp-tools: ./dist/index.d.ts is named in package.json but not shipped.',
      '@garuda/mcp-tools: the tarball ships files outside "files": src/index.ts, .env.',
    ]);
  });

  it('refuse a first release other than 0.1.0, and a package left unversioned', () => {
    expect(checkVersion('a', '0.0.0', '1.0.0')).toEqual([
      expect.stringMatching(/first release would be 1\.0\.0, not 0\.1\.0/),
    ]);
    expect(checkVersion('a', '0.0.0', '0.0.1')).toHaveLength(1);
    expect(checkVersion('a', '0.0.0', '0.0.0')).toHaveLength(1);
  });

  it('refuse a missing changelog, a missing section, and an empty one', () => {
    expect(checkChangelog('a', '0.1.0', undefined)).toEqual([
      expect.stringMatching(/no CHANGELOG\.md/),
    ]);
    expect(checkChangelog('a', '0.1.0', '# a\n\n## 0.0.9\n\n- Old.\n')).toEqual([
      'a: CHANGELOG.md has no "## 0.1.0" section.',
    ]);
    expect(checkChangelog('a', '0.1.0', '# a\n\n## 0.1.0\n\n## 0.0.9\n\n- Old.\n')).toEqual([
      'a: the "## 0.1.0" section of CHANGELOG.md lists no change.',
    ]);
  });
});

/** pnpm as started by the test command; `pnpm` from PATH otherwise. */
function pnpm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['pnpm', []];
  return new Promise((resolve) => {
    execFile(
      command,
      [...prefix, ...args],
      { cwd: repoRoot, timeout: 20 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

describe('pnpm release:check', () => {
  it(
    'versions, builds, packs, installs and imports every published package',
    async () => {
      const { code, stdout, stderr } = await pnpm(['run', '--silent', 'release:check']);
      expect(stderr + stdout, 'release:check output').not.toMatch(/release check failed/);
      expect(code).toBe(0);
      const published = shippedWorkspaces().filter((workspace) => !workspace.private);
      expect(stdout).toContain(`release check passed: ${published.length} packages`);
      for (const workspace of published) {
        const { version } = JSON.parse(
          readFileSync(join(workspace.dir, 'package.json'), 'utf8'),
        ) as { version: string };
        // Before the first release every package is 0.0.0 in the repository and 0.1.0 in the check.
        const next = version === '0.0.0' ? '0.1.0' : '';
        expect(stdout).toMatch(
          new RegExp(
            `^  ${workspace.name.replace('/', '\\/')} ${version.replaceAll('.', '\\.')} → ${next.replaceAll('.', '\\.')}`,
            'm',
          ),
        );
      }
    },
    20 * 60_000,
  );
});
