// The README's way to install garuda-mcp before a release, as a newcomer runs it:
// scripts/install-cli.mjs (the root's `install:cli`) packs the CLI and the workspace packages it
// needs and installs them with one `npm install -g`, here into a throwaway prefix under the OS
// temp folder. The installed command must then work offline: its version, and the whole demo.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './workspace.js';

const run = promisify(execFile);

describe('scripts/install-cli.mjs (pnpm install:cli)', () => {
  let work = '';
  let prefix = '';
  let bin = '';
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'garuda-install-cli-'));
    prefix = join(work, 'prefix');
    await run(
      process.execPath,
      [
        join(repoRoot, 'scripts', 'install-cli.mjs'),
        '--prefix',
        prefix,
        '--prefer-offline',
        '--loglevel=error',
      ],
      { cwd: work, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 },
    );
    bin = join(prefix, 'bin', 'garuda-mcp');
  }, 600_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("is what the README tells a newcomer to run, with the repository's own pnpm", async () => {
    const root = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      packageManager: string;
      scripts: Record<string, string>;
    };
    expect(root.scripts['install:cli']).toBe('node scripts/install-cli.mjs');
    const pnpm = `npx -y ${root.packageManager}`;
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain(`${pnpm} install --frozen-lockfile && ${pnpm} install:cli\n`);
  });

  it("installs the CLI's workspace dependencies from the packed tarballs, with real versions", async () => {
    const manifest = JSON.parse(
      await readFile(join(prefix, 'lib', 'node_modules', 'garuda-mcp', 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    const workspaceDeps = Object.entries(manifest.dependencies).filter(([name]) =>
      name.startsWith('@garuda/'),
    );
    expect(workspaceDeps.length).toBeGreaterThan(0);
    for (const [name, range] of workspaceDeps) {
      expect(range).not.toContain('workspace:');
      const installed = JSON.parse(
        await readFile(join(prefix, 'lib', 'node_modules', name, 'package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version).toBe(range);
    }
  });

  it('gives a garuda-mcp command that prints the version of this checkout', async () => {
    const { version } = JSON.parse(
      await readFile(join(repoRoot, 'apps', 'cli', 'package.json'), 'utf8'),
    ) as { version: string };
    const printed = await run(bin, ['--version'], { cwd: work });
    expect(printed.stdout.trim()).toBe(version);
  });

  it('runs the whole demo offline and exits 0', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8' };
    const { stdout } = await run(bin, ['demo'], { cwd: work, env, timeout: 240_000 });
    expect(stdout).toMatch(/files\s+project\s+connected/);
    expect(stdout).toContain('Hello over signed-in HTTP');
    expect(stdout).toMatch(/Done in [\d.]+ s/);
  }, 300_000);
});

describe('scripts/install-package.mjs (pnpm install:package <name> <project>)', () => {
  let project = '';
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'garuda-install-package-'));
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    await run(
      process.execPath,
      [
        join(repoRoot, 'scripts', 'install-package.mjs'),
        '@garuda/mcp-tools',
        project,
        '--prefer-offline',
        '--loglevel=error',
      ],
      { cwd: project, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 },
    );
  }, 600_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('installs the package and its @garuda dependency from tarballs kept in the project', async () => {
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      '@garuda/mcp-sanitize',
      '@garuda/mcp-tools',
    ]);
    for (const range of Object.values(manifest.dependencies)) {
      expect(range).toMatch(/^file:garuda-packages\/garuda-mcp-[a-z-]+-\d+\.\d+\.\d+.*\.tgz$/);
    }
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { adaptTools } from '@garuda/mcp-tools'; console.log(typeof adaptTools);",
      ],
      { cwd: project },
    );
    expect(stdout.trim()).toBe('function');
  });
});
