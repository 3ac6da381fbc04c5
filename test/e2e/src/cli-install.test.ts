// garuda-mcp as someone gets it from npm: every package packed the way `pnpm publish` would,
// installed with plain npm into a folder outside the repository (under the OS temp folder, where
// the sandbox gives servers a private /tmp), and the installed command run: help, version, and
// the whole demo, sandboxed server and OAuth sign-in included.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedWorkspaces } from './workspace.js';

const run = promisify(execFile);

/** pnpm as started by the test command; `pnpm` from PATH otherwise. */
function pnpm(args: string[], cwd: string) {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return run(process.execPath, [execPath, ...args], { cwd });
  return run('pnpm', args, { cwd });
}

describe('the installed garuda-mcp command', () => {
  let work = '';
  let bin = '';
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'garuda-cli-install-'));
    const packs = join(work, 'packs');
    await mkdir(packs);
    const workspaces = shippedWorkspaces().filter((ws) => !ws.private);
    for (const ws of workspaces) await pnpm(['pack', '--pack-destination', packs], ws.dir);
    const tarballs = (await readdir(packs)).map((file) => join(packs, file));
    expect(tarballs).toHaveLength(workspaces.length);
    const app = join(work, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs],
      { cwd: app, timeout: 300_000 },
    );
    bin = join(app, 'node_modules', '.bin', 'garuda-mcp');
  }, 360_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('prints its version and help', async () => {
    const version = await run(bin, ['--version'], { cwd: work });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await run(bin, ['--help'], { cwd: work });
    expect(help.stdout).toContain('Usage: garuda-mcp <command> [options]');
  });

  it('runs the whole demo offline and exits 0', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8' };
    const { stdout } = await run(bin, ['demo'], { cwd: work, env, timeout: 120_000 });
    expect(stdout).toMatch(/^2\. It starts in the sandbox/m);
    expect(stdout).toMatch(/files\s+project\s+connected/);
    expect(stdout).toContain('Hello over signed-in HTTP');
    expect(stdout).toMatch(/Done in [\d.]+ s/);
  });
});
