// Installs one Garuda package from this checkout into your project, before (or without) a
// release: builds it and the workspace packages it needs, packs them as they would be published
// into <project>/garuda-packages/, and runs `npm install` of those tarballs in <project>, so its
// @garuda/* dependencies come from them rather than the registry. The tarballs stay there: the
// project's package.json names them (after a release, `npm install <name>` replaces them).
//
//   npx -y pnpm@10.34.9 install --frozen-lockfile
//   npx -y pnpm@10.34.9 install:package @garuda/mcp-manager ../my-agent
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { build, fail, pack, run, withWorkspaceDeps } from './pack-workspace.mjs';

const [name, project, ...rest] = process.argv.slice(2);
if (name === undefined || project === undefined) {
  fail('usage: install:package <package name> <project folder> [npm options…]');
}
// pnpm runs a root script in the repository: a relative folder is the caller's.
const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), project);
if (!existsSync(target) || !statSync(target).isDirectory()) {
  fail(`${target} is not a folder: create the project first (mkdir, npm init -y).`);
}
const packages = withWorkspaceDeps(name);
build(name);
const { out, tarballs } = pack(packages);
const kept = path.join(target, 'garuda-packages');
mkdirSync(kept, { recursive: true });
const copies = tarballs.map((tarball) => {
  const copy = path.join(kept, path.basename(tarball));
  copyFileSync(tarball, copy);
  return path.relative(target, copy);
});
rmSync(out, { recursive: true, force: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
run(npm, ['install', '--no-fund', '--no-audit', ...rest, ...copies.map((c) => `./${c}`)], {
  cwd: target,
});
console.log(`installed ${name} in ${target} (its tarballs are in ${kept})`);
