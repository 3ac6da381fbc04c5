// Installs the garuda-mcp command from this checkout, before (or without) a release: builds the
// CLI and the workspace packages it needs, packs them as they would be published, and installs
// all the tarballs with one `npm install -g`, so that the CLI's @garuda/* dependencies come from
// those tarballs rather than the registry. Extra arguments go to npm (for example
// `--prefix <folder>` to install somewhere other than npm's global folder).
//
//   npx -y pnpm@10.34.9 install --frozen-lockfile && npx -y pnpm@10.34.9 install:cli
import { rmSync } from 'node:fs';
import { build, pack, run, withWorkspaceDeps } from './pack-workspace.mjs';

const packages = withWorkspaceDeps('garuda-mcp');
build('garuda-mcp');
const { out, tarballs } = pack(packages);
try {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  run(npm, [
    'install',
    '--global',
    '--no-fund',
    '--no-audit',
    ...process.argv.slice(2),
    ...tarballs,
  ]);
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log('installed garuda-mcp: try `garuda-mcp --version` and `garuda-mcp demo`');
