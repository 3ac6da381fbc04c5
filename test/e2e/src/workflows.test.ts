// The GitHub Actions workflows cannot run here, so they are kept valid by a linter for workflow
// files (action-validator's schema check) and by reading what each must say: actions pinned by
// commit, the Linux and macOS × Node 20/22/24 matrix with the sandbox required and its tests
// proven to have run, and a release that checks first and publishes with provenance.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './workspace.js';

const WORKFLOWS = join(repoRoot, '.github', 'workflows');

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  strategy?: { matrix?: Record<string, unknown[]> };
  env?: Record<string, unknown>;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

function read(name: string): { text: string; workflow: Workflow } {
  const text = readFileSync(join(WORKFLOWS, name), 'utf8');
  return { text, workflow: parse(text) as Workflow };
}

function steps(workflow: Workflow): Step[] {
  return Object.values(workflow.jobs).flatMap((job) => job.steps);
}

describe('the workflow files', () => {
  const files = readdirSync(WORKFLOWS).filter((file) => /\.ya?ml$/.test(file));

  it('are ci.yml and release.yml', () => {
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
  });

  it.each(files)('%s lints clean', (file) => {
    expect(validateWorkflow(readFileSync(join(WORKFLOWS, file), 'utf8')).errors).toEqual([]);
  });

  it('the linter does find a broken workflow', () => {
    const broken = read('ci.yml').text.replace('runs-on:', 'runs_on:');
    expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
  });

  it.each(files)('%s pins every action by its commit, with the tag beside it', (file) => {
    const { text, workflow } = read(file);
    const uses = steps(workflow).flatMap((step) => (step.uses ? [step.uses] : []));
    expect(uses.length).toBeGreaterThan(0);
    for (const action of uses) expect(action).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    for (const line of text.split('\n').filter((l) => /^\s*- uses:/.test(l))) {
      expect(line).toMatch(/@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    }
  });

  it.each(files)('%s gives the token only what it needs', (file) => {
    const { workflow } = read(file);
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });
});

describe('ci.yml', () => {
  const { workflow } = read('ci.yml');
  const job = workflow.jobs.test!;
  const run = job.steps.map((step) => step.run ?? '').join('\n');

  it('runs on pushes to main and on pull requests', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
  });

  it('tests Linux and macOS on Node 20, 22 and 24', () => {
    const matrix = job.strategy!.matrix!;
    expect(matrix.os).toHaveLength(2);
    expect(matrix.os!.some((os) => String(os).startsWith('ubuntu'))).toBe(true);
    expect(matrix.os!.some((os) => String(os).startsWith('macos'))).toBe(true);
    expect(matrix.node).toEqual([20, 22, 24]);
    expect(job['runs-on']).toBe('${{ matrix.os }}');
  });

  it('installs from the lockfile and runs the README test command', () => {
    expect(run).toMatch(/^pnpm install --frozen-lockfile$/m);
    expect(run).toMatch(/^pnpm test$/m);
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('install --frozen-lockfile && npx -y pnpm@10.34.9 test');
  });

  it('requires the OS sandbox, and fails unless its tests ran and passed', () => {
    expect(job.env!.GARUDA_REQUIRE_SANDBOX).toBe(1);
    const checks = job.steps.filter((step) => step.run?.includes('require-tests-ran.mjs'));
    const linux = checks.find((step) => step.if?.includes("'Linux'"));
    const macos = checks.find((step) => step.if?.includes("'macOS'"));
    expect(linux?.run).toMatch(/'bubblewrap sandbox' \d+$/);
    expect(macos?.run).toMatch(/'Seatbelt sandbox' \d+$/);
    for (const step of [linux!, macos!]) expect(step.if).toMatch(/!cancelled\(\)/);
  });

  it('lets bubblewrap make its namespaces on Ubuntu 24.04 and starts a Secret Service there', () => {
    expect(run).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
    expect(run).toMatch(/apt-get install .*bubblewrap.*gnome-keyring.*dbus/);
    expect(run).toContain('GARUDA_REQUIRE_KEYRING=1');
  });
});

describe('release.yml', () => {
  const { workflow } = read('release.yml');
  const job = Object.values(workflow.jobs)[0]!;
  const release = job.steps.find((step) => step.uses?.startsWith('changesets/action@'));

  it('runs the release check before the changesets action', () => {
    const check = job.steps.findIndex((step) => step.run === 'pnpm release:check');
    expect(check).toBeGreaterThan(-1);
    expect(check).toBeLessThan(job.steps.indexOf(release!));
  });

  it('publishes through the root release script, with npm provenance', () => {
    expect(release!.with!.publish).toBe('pnpm release');
    expect(release!.env!.NPM_CONFIG_PROVENANCE).toBe(true);
    expect(job.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      'id-token': 'write',
    });
    const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(root.scripts.release).toMatch(/changeset publish$/);
    expect(root.scripts['release:check']).toBe('node scripts/release-check.mjs');
  });

  it('runs on pushes to main only, one at a time', () => {
    expect(Object.keys(workflow.on)).toEqual(['push']);
    expect(workflow.on.push).toEqual({ branches: ['main'] });
  });
});

describe('scripts/ci/require-tests-ran.mjs', () => {
  const script = join(repoRoot, 'scripts', 'ci', 'require-tests-ran.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'garuda-ran-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the script on a report of `tests` in os-sandbox-files.test.ts; its exit code. */
  function check(tests: Array<[fullName: string, status: string]>, min = 2): number {
    const report = join(dir, `${Math.random()}.json`);
    writeFileSync(
      report,
      JSON.stringify({
        testResults: [
          {
            name: '/x/src/os-sandbox-files.test.ts',
            assertionResults: tests.map(([fullName, status]) => ({ fullName, status })),
          },
          { name: '/x/src/other.test.ts', assertionResults: [{ fullName: 'o', status: 'failed' }] },
        ],
      }),
    );
    const result = spawnSync(process.execPath, [
      script,
      report,
      'os-sandbox-[a-z-]+\\.test\\.ts$',
      'Seatbelt sandbox',
      String(min),
    ]);
    return result.status ?? -1;
  }

  it('passes when enough tests of the suite passed, the other OS’s skipped', () => {
    expect(
      check([
        ['Seatbelt sandbox a', 'passed'],
        ['Seatbelt sandbox b', 'passed'],
        ['Seatbelt sandbox c (bubblewrap only)', 'skipped'],
      ]),
    ).toBe(0);
  });

  it('fails when the suite was skipped, ran too few, or one failed', () => {
    expect(check([['Seatbelt sandbox a', 'skipped']])).toBe(1);
    expect(
      check([
        ['bubblewrap sandbox a', 'passed'],
        ['bubblewrap sandbox b', 'passed'],
      ]),
    ).toBe(1);
    expect(check([['Seatbelt sandbox a', 'passed']])).toBe(1);
    expect(
      check([
        ['Seatbelt sandbox a', 'passed'],
        ['Seatbelt sandbox b', 'passed'],
        ['Seatbelt sandbox c', 'failed'],
      ]),
    ).toBe(1);
  });
});
