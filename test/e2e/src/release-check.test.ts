// `pnpm release:check` does what cutting a release does, in a throwaway copy, and must pass on
// main: every package versioned by its changesets (a first release is 0.1.0; with none pending,
// every version as the repository has it), built as `pnpm release` builds, packed, installed
// from the tarballs with plain npm outside the repository, and imported. Its checks are also fed
// broken packages and setups here, so each is seen to refuse what it must.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkChangelog,
  checkFiles,
  checkManifest,
  checkPublishSetup,
  checkReleaseVersions,
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

  it('refuse a changelog whose newest section is not the version being released', () => {
    expect(checkChangelog('a', '0.1.0', '# a\n\n## 0.1.0\n\nFirst.\n\n- One.\n')).toEqual([]);
    expect(
      checkChangelog('a', '0.1.0', '# a\n\n## 0.2.0\n\n- Later.\n\n## 0.1.0\n\n- One.\n'),
    ).toEqual([
      expect.stringMatching(/opens with "## 0\.2\.0", not the version being released, 0\.1\.0/),
    ]);
  });
});

describe('the checks of the release as a whole', () => {
  const pkg = (name: string, before: string, after: string | undefined, isPrivate = false) => ({
    name,
    private: isPrivate,
    before,
    after,
  });

  it('let changesets move public packages, and nothing move without one', () => {
    expect(
      checkReleaseVersions([pkg('a', '0.0.0', '0.1.0'), pkg('t', '0.0.0', '0.0.0', true)], 2),
    ).toEqual([]);
    expect(checkReleaseVersions([pkg('a', '0.1.0', '0.1.0')], 0)).toEqual([]);
    expect(checkReleaseVersions([pkg('a', '0.1.0', '0.1.1')], 0)).toEqual([
      expect.stringMatching(
        /^a: changeset version moved it from 0\.1\.0 to 0\.1\.1 with no changeset/,
      ),
    ]);
  });

  it('refuse a private package that was versioned, and a package that is gone', () => {
    expect(checkReleaseVersions([pkg('t', '0.0.0', '0.1.0', true)], 1)).toEqual([
      expect.stringMatching(/^t: it is private, yet changeset version moved it/),
    ]);
    expect(checkReleaseVersions([pkg('a', '0.1.0', undefined)], 0)).toEqual([
      expect.stringMatching(/package\.json is gone/),
    ]);
  });

  const RELEASE_SCRIPT = 'env -u x turbo run build --filter=./packages/* && changeset publish';
  const CONFIG = { access: 'public', privatePackages: { version: false, tag: false } };

  it('find publishing to be one `pnpm release` run in this repository', () => {
    const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const config = JSON.parse(
      readFileSync(join(repoRoot, '.changeset', 'config.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(checkPublishSetup(root, config)).toEqual([]);
    expect(checkPublishSetup({ scripts: { release: RELEASE_SCRIPT } }, CONFIG)).toEqual([]);
  });

  it('refuse a release script that does not build and publish, and a config that versions private packages', () => {
    expect(checkPublishSetup({ scripts: { release: 'changeset publish' } }, CONFIG)).toEqual([
      expect.stringMatching(/must build the packages/),
    ]);
    expect(checkPublishSetup({ scripts: {} }, CONFIG)).toHaveLength(1);
    expect(
      checkPublishSetup(
        { scripts: { release: RELEASE_SCRIPT } },
        { access: 'restricted', privatePackages: { version: true, tag: false } },
      ),
    ).toEqual([expect.stringMatching(/"access"/), expect.stringMatching(/"privatePackages"/)]);
  });
});

/** pnpm as started by the test command; `pnpm` from PATH otherwise. */
function pnpm(
  args: string[],
): Promise<{ code: number; how: string; stdout: string; stderr: string }> {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['pnpm', []];
  return new Promise((resolve) => {
    execFile(
      command,
      [...prefix, ...args],
      { cwd: repoRoot, timeout: 20 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) || 1 : 0,
          // How it ended, for the failure message: an exit code, or the signal that stopped it.
          how: error
            ? `${error.signal ?? `code ${String(error.code)}`}${error.killed ? ' (timed out)' : ''}`
            : 'code 0',
          stdout,
          stderr,
        }),
    );
  });
}

describe('pnpm release:check', () => {
  it(
    'versions, builds, packs, installs and imports every published package',
    async () => {
      const { code, how, stdout, stderr } = await pnpm(['run', '--silent', 'release:check']);
      expect(stderr + stdout, 'release:check output').not.toMatch(/release check failed/);
      const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-30).join('\n');
      expect(code, `release:check ended with ${how}; its output's end:\n${tail}`).toBe(0);
      const published = shippedWorkspaces().filter((workspace) => !workspace.private);
      expect(stdout).toContain(`release check passed: ${published.length} packages`);
      const pending = readdirSync(join(repoRoot, '.changeset')).filter(
        (file) => file.endsWith('.md') && file !== 'README.md',
      );
      if (pending.length === 0) {
        expect(stdout).toContain(
          'no changesets pending: the release workflow publishes these versions with one `pnpm release`',
        );
      }
      for (const workspace of published) {
        const { version } = JSON.parse(
          readFileSync(join(workspace.dir, 'package.json'), 'utf8'),
        ) as { version: string };
        const escaped = `${workspace.name} ${version}`.replaceAll('.', '\\.');
        // With no changeset pending each package is released at the version it has; with some,
        // the line of a package they name shows where they take it.
        expect(stdout).toMatch(
          new RegExp(`^  ${escaped}${pending.length === 0 ? ':' : '(:| → )'}`, 'm'),
        );
      }
    },
    20 * 60_000,
  );
});
