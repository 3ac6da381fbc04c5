#!/usr/bin/env node
// `pnpm release:check`: does, in a throwaway copy of this working tree, what cutting a release
// does, and checks what npm users would get. Nothing here touches the repository itself or the
// registry beyond reading packages (no login, no publish).
//
//   1. copy the tracked and new files (not node_modules, dist, .git), install from the lockfile
//   2. `changeset version`: with changesets pending, each package they name gets its version and
//      changelog (a first release is 0.1.0); with none pending (the state in which the release
//      workflow publishes) nothing may change. Private packages are never versioned, and the
//      root `release` script and the changesets config must make publishing one `pnpm release`
//   3. build as `pnpm release` does, then `pnpm pack` every public package (what is uploaded)
//   4. check each tarball: its version, no `workspace:` left, our own dependencies as real ranges
//      of this release, README, LICENSE, a CHANGELOG that opens with this version, every
//      `exports`/`bin` target shipped and nothing outside `files`
//   5. install all tarballs with plain npm into an empty folder outside the repository, then
//      import every package (and `require()` it) and compare its exports with its public entry,
//      and run the installed `garuda-mcp`
//
// Usage: node scripts/release-check.mjs [--keep]   (--keep leaves the temp folders for a look)
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkChangelog,
  checkFiles,
  checkManifest,
  checkPublishSetup,
  checkReleaseVersions,
  checkVersion,
} from './release/checks.mjs';

const root = join(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const STEP_TIMEOUT_MS = 10 * 60_000;
const rootManifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const PNPM_VERSION = String(rootManifest.packageManager).replace(/^pnpm@/, '');
const REPOSITORY_URL = rootManifest.repository?.url;

// Imports each named package and `require()`s it (Node ≥ 20.19 loads ESM from require), and
// resolves mcp-config's shipped JSON Schema; prints what it found as JSON.
const IMPORT_CHECK = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
const visible = (mod) => Object.keys(mod).filter((key) => key !== 'module.exports' && key !== '__esModule').sort();
for (const name of JSON.parse(process.argv[2])) {
  try {
    const keys = visible(await import(name));
    let required;
    try { required = visible(require(name)); } catch (error) { required = String(error && error.code || error); }
    out[name] = { keys, required };
  } catch (error) {
    out[name] = { error: String(error && error.stack || error).split('\\n').slice(0, 3).join(' ') };
  }
}
try {
  out['@garuda/mcp-config/mcp.schema.json'] = JSON.parse(readFileSync(require.resolve('@garuda/mcp-config/mcp.schema.json'), 'utf8')).$schema;
} catch (error) {
  out['@garuda/mcp-config/mcp.schema.json'] = String(error);
}
console.log(JSON.stringify(out));
`;

/** The environment for the tools we start: without what an outer pnpm, turbo or vitest set. */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !/^(npm_package_|npm_lifecycle_|npm_config_|pnpm_config_|TURBO_(?!TELEMETRY)|VITEST)/i.test(
        key,
      ) && key !== 'NODE_OPTIONS',
  ),
);

/**
 * Runs a command; rejects with its output's tail when it fails or outlives the step's time.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<string>} stdout
 */
function run(command, args, { cwd, env = childEnv }) {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env, timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-25).join('\n');
        reject(
          new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n${tail}`),
        );
      },
    );
  });
}

/** pnpm of the version this repository pins: the one running us if it is pnpm, else via npx. */
function pnpm(args, cwd) {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return run(process.execPath, [execPath, ...args], { cwd });
  return run('npx', ['-y', `pnpm@${PNPM_VERSION}`, ...args], { cwd });
}

/** Every workspace package under packages/ and apps/ with where it lives. */
async function workspacePackages(base) {
  const found = [];
  for (const group of ['packages', 'apps']) {
    for (const entry of (await readdir(join(base, group))).sort()) {
      const file = join(base, group, entry, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(await readFile(file, 'utf8'));
      found.push({ folder: `${group}/${entry}`, manifest });
    }
  }
  return found;
}

const problems = [];
const lines = [];
let pending = 0;
const temp = await mkdtemp(join(tmpdir(), 'garuda-release-check-'));
const copy = join(temp, 'repo');
const tarballs = join(temp, 'tarballs');
const app = join(temp, 'app');
const started = Date.now();
const step = (text) =>
  process.stdout.write(`· ${text} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

try {
  if (!REPOSITORY_URL) problems.push('The root package.json has no "repository.url".');

  step('copying the working tree');
  const listed = await run(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
    },
  );
  const files = listed.split('\0').filter((file) => file && existsSync(join(root, file)));
  await mkdir(copy, { recursive: true });
  await writeFile(join(temp, 'files'), files.join('\0'));
  await run('tar', ['--null', '-T', join(temp, 'files'), '-cf', join(temp, 'tree.tar')], {
    cwd: root,
  });
  await run('tar', ['-xf', join(temp, 'tree.tar')], { cwd: copy });

  step('installing from the lockfile');
  await pnpm(['install', '--frozen-lockfile', '--prefer-offline'], copy);

  const before = await workspacePackages(copy);
  const publicBefore = before.filter((pkg) => !pkg.manifest.private);
  const privateNames = new Set(
    before.filter((pkg) => pkg.manifest.private).map((pkg) => pkg.manifest.name),
  );
  // test/* workspaces are private by rule; name them too, so no tarball may depend on them.
  for (const entry of await readdir(join(copy, 'test'))) {
    const file = join(copy, 'test', entry, 'package.json');
    if (existsSync(file)) privateNames.add(JSON.parse(await readFile(file, 'utf8')).name);
  }

  const changesets = async () =>
    (await readdir(join(copy, '.changeset'))).filter(
      (file) => file.endsWith('.md') && file !== 'README.md',
    );
  pending = (await changesets()).length;
  problems.push(
    ...checkPublishSetup(
      rootManifest,
      JSON.parse(await readFile(join(copy, '.changeset', 'config.json'), 'utf8')),
    ),
  );

  step(`changeset version (${pending === 0 ? 'no' : pending} changesets pending)`);
  await pnpm(['exec', 'changeset', 'version'], copy);
  const left = await changesets();
  if (left.length > 0)
    problems.push(`changeset version left these changesets: ${left.join(', ')}.`);

  const after = await workspacePackages(copy);
  problems.push(
    ...checkReleaseVersions(
      before.map((pkg) => ({
        name: pkg.manifest.name,
        private: pkg.manifest.private === true,
        before: pkg.manifest.version,
        after: after.find((candidate) => candidate.folder === pkg.folder)?.manifest.version,
      })),
      pending,
    ),
  );
  const released = new Map(
    after
      .filter((pkg) => !pkg.manifest.private)
      .map((pkg) => [pkg.manifest.name, pkg.manifest.version]),
  );
  for (const pkg of publicBefore) {
    problems.push(
      ...checkVersion(pkg.manifest.name, pkg.manifest.version, released.get(pkg.manifest.name)),
    );
  }

  // The build half of the root `release` script, as the release workflow runs it (the other
  // half is `changeset publish`).
  const releaseBuild = String(rootManifest.scripts?.release ?? '').replace(
    / && changeset publish$/,
    '',
  );
  step(`building as \`pnpm release\` does: ${releaseBuild}`);
  await pnpm(['exec', 'sh', '-c', releaseBuild], copy);

  step(`packing ${released.size} packages`);
  await mkdir(tarballs);
  const packed = [];
  for (const pkg of after.filter((candidate) => !candidate.manifest.private)) {
    const { name, version } = pkg.manifest;
    const made = new Set(await readdir(tarballs));
    await pnpm(['pack', '--pack-destination', tarballs], join(copy, pkg.folder));
    const tarball = (await readdir(tarballs)).find((file) => !made.has(file));
    if (!tarball) {
      problems.push(`${name}: pnpm pack made no tarball.`);
      continue;
    }
    const file = join(tarballs, tarball);
    const listing = (await run('tar', ['-tzf', file], { cwd: temp }))
      .trim()
      .split('\n')
      .map((entry) => entry.replace(/^package\//, ''));
    const unpacked = join(temp, 'unpacked', tarball);
    await mkdir(unpacked, { recursive: true });
    await run('tar', ['-xzf', file, '-C', unpacked], { cwd: temp });
    const manifest = JSON.parse(await readFile(join(unpacked, 'package', 'package.json'), 'utf8'));
    const changelogFile = join(unpacked, 'package', 'CHANGELOG.md');
    const changelog = existsSync(changelogFile) ? await readFile(changelogFile, 'utf8') : undefined;
    problems.push(
      ...checkManifest(manifest, {
        version,
        folder: pkg.folder,
        released,
        private: privateNames,
        repositoryUrl: REPOSITORY_URL,
      }),
      ...checkFiles(manifest, listing),
      ...checkChangelog(name, version, changelog),
    );
    const before = publicBefore.find((candidate) => candidate.manifest.name === name);
    const was = before?.manifest.version ?? '(new)';
    lines.push(
      `${name} ${was === version ? version : `${was} → ${version}`}: ${listing.length} files`,
    );
    packed.push({ name, version, file, folder: pkg.folder, bin: manifest.bin });
  }

  step('installing every tarball with npm in an empty folder');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'release-check-app', private: true, type: 'module' }),
  );
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...packed.map((pkg) => pkg.file),
    ],
    { cwd: app },
  );
  await run('npm', ['ls', '--all', '--loglevel=error'], { cwd: app }).catch((error) => {
    problems.push(`npm ls finds problems in the installed tree:\n${error.message}`);
  });
  for (const pkg of packed) {
    const installed = join(app, 'node_modules', pkg.name, 'package.json');
    const got = existsSync(installed)
      ? JSON.parse(await readFile(installed, 'utf8')).version
      : undefined;
    if (got !== pkg.version)
      problems.push(`${pkg.name}: npm installed ${got ?? 'nothing'}, not ${pkg.version}.`);
    // A nested copy means npm fetched one of ours from the registry instead of this release's.
    const nested = join(app, 'node_modules', pkg.name, 'node_modules', '@garuda');
    if (existsSync(nested)) {
      problems.push(
        `${pkg.name}: npm installed its own copy of ${(await readdir(nested)).join(', ')}.`,
      );
    }
  }

  step('importing every package');
  const expected = {};
  for (const pkg of packed) {
    const entry = join(copy, pkg.folder, 'src', 'public-entry.json');
    expected[pkg.name] = existsSync(entry) ? JSON.parse(await readFile(entry, 'utf8')) : null;
  }
  await writeFile(join(app, 'check.mjs'), IMPORT_CHECK);
  const imported = JSON.parse(
    await run(
      process.execPath,
      ['--no-warnings', 'check.mjs', JSON.stringify(Object.keys(expected))],
      {
        cwd: app,
      },
    ),
  );
  for (const [name, names] of Object.entries(expected)) {
    const got = imported[name];
    if (typeof got.error === 'string') {
      problems.push(`${name}: import failed: ${got.error}`);
      continue;
    }
    if (got.keys.length === 0) problems.push(`${name}: imports, but exports nothing.`);
    if (names && JSON.stringify(got.keys) !== JSON.stringify([...names].sort())) {
      problems.push(
        `${name}: exports ${JSON.stringify(got.keys)}, but src/public-entry.json lists ${JSON.stringify([...names].sort())}.`,
      );
    }
    if (JSON.stringify(got.required) !== JSON.stringify(got.keys)) {
      problems.push(
        `${name}: require() gives ${JSON.stringify(got.required)}, import gives other exports.`,
      );
    }
  }
  const schema = imported['@garuda/mcp-config/mcp.schema.json'];
  if (schema !== 'https://json-schema.org/draft/2020-12/schema') {
    problems.push(
      `@garuda/mcp-config/mcp.schema.json does not resolve to a JSON Schema (${schema}).`,
    );
  }

  for (const pkg of packed.filter((candidate) => candidate.bin)) {
    for (const command of Object.keys(typeof pkg.bin === 'string' ? { [pkg.name]: 0 } : pkg.bin)) {
      const home = join(temp, 'home');
      const bin = join(app, 'node_modules', '.bin', command);
      const version = (
        await run(bin, ['--version'], { cwd: app, env: { ...childEnv, GARUDA_HOME: home } })
      ).trim();
      if (version !== pkg.version)
        problems.push(`${command} --version says ${version}, not ${pkg.version}.`);
      await run(bin, ['list'], { cwd: app, env: { ...childEnv, GARUDA_HOME: home } }).catch(
        (error) => {
          problems.push(`${command} list failed after install: ${error.message}`);
        },
      );
    }
  }
} catch (error) {
  problems.push(error instanceof Error ? error.message : String(error));
} finally {
  if (keep) process.stdout.write(`kept: ${temp}\n`);
  else await rm(temp, { recursive: true, force: true });
}

for (const line of lines) process.stdout.write(`  ${line}\n`);
if (problems.length > 0) {
  process.stderr.write(`release check failed (${problems.length} problems):\n`);
  for (const problem of problems) process.stderr.write(`- ${problem}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    pending === 0
      ? 'no changesets pending: the release workflow publishes these versions with one `pnpm release`\n'
      : `${pending} changesets pending: the release workflow opens the "Version packages" pull request; merging it publishes\n`,
  );
  process.stdout.write(`release check passed: ${lines.length} packages\n`);
}
