// Packs a workspace package and the workspace packages it depends on into one folder, the way
// they will be published (`pnpm pack` turns each `workspace:` range into the real version), so
// that npm can install them together before anything is on the registry. Used by
// install-cli.mjs and install-package.mjs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every workspace package (apps/*, packages/*): name → folder. */
function workspacePackages() {
  const found = new Map();
  for (const group of ['apps', 'packages']) {
    for (const entry of readdirSync(path.join(ROOT, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = path.join(ROOT, group, entry.name);
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      found.set(manifest.name, { dir, manifest });
    }
  }
  return found;
}

/** The package and every workspace package it needs at run time, the package first. */
export function withWorkspaceDeps(name) {
  const all = workspacePackages();
  if (!all.has(name)) {
    const names = [...all.values()]
      .filter((pkg) => pkg.manifest.private !== true)
      .map((pkg) => pkg.manifest.name)
      .sort();
    fail(`${name} is not a package of this repository. Its packages: ${names.join(', ')}.`);
  }
  const order = [];
  const visit = (next) => {
    if (order.includes(next)) return;
    order.push(next);
    const { manifest } = all.get(next);
    const deps = { ...manifest.dependencies, ...manifest.peerDependencies };
    for (const [dep, range] of Object.entries(deps)) {
      if (String(range).startsWith('workspace:') && all.has(dep)) visit(dep);
    }
  };
  visit(name);
  return order.map((pkg) => ({ name: pkg, dir: all.get(pkg).dir }));
}

/** How to run pnpm: the one running this script, or the repository's own version through npx. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath ?? '';
  if (/pnpm/i.test(path.basename(execPath))) return [process.execPath, [execPath]];
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  return [npx, ['-y', manifest.packageManager ?? 'pnpm']];
}

/** Runs a command with the terminal attached; exits with its code when it fails. */
export function run(command, args, options = {}) {
  const env = { ...process.env };
  // The root's scripts run turbo without pnpm's dependency check; so does this.
  delete env.pnpm_config_verify_deps_before_run;
  const result = spawnSync(command, args, { stdio: 'inherit', env, ...options });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    fail(`${[command, ...args].join(' ')} failed (exit ${result.status ?? result.signal}).`);
  }
}

export function pnpm(args, options) {
  const [command, prefix] = pnpmCommand();
  run(command, [...prefix, ...args], options);
}

/** Builds the package and what it needs (turbo skips what is already built). */
export function build(name) {
  pnpm(['exec', 'turbo', 'run', 'build', `--filter=${name}...`, '--output-logs=errors-only'], {
    cwd: ROOT,
  });
}

/**
 * Packs the packages into a new temporary folder.
 *
 * @returns The tarballs' paths, in the order of `packages`.
 */
export function pack(packages) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'garuda-packed-'));
  for (const { dir } of packages) {
    pnpm(['pack', '--pack-destination', out], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const tarballs = readdirSync(out)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => path.join(out, file));
  if (tarballs.length !== packages.length) {
    fail(`expected ${packages.length} tarballs in ${out}, found ${tarballs.length}.`);
  }
  return { out, tarballs };
}

export function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}
