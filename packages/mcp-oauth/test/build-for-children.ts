import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds `src/index.ts` for child processes into a private folder inside the package (so its
 * imports resolve from the package's node_modules), never into `dist`, which other checks may be
 * reading at the same time.
 * @returns the built entry and a cleanup function
 */
export async function buildForChildren(): Promise<{ entry: string; cleanup: () => Promise<void> }> {
  const outDir = path.join(
    packageDir,
    'test-results',
    `child-build-${process.pid}-${Math.random().toString(36).slice(2)}`,
  );
  await build({
    entry: { index: path.join(packageDir, 'src', 'index.ts') },
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: false,
    sourcemap: false,
    clean: false,
    config: false,
    silent: true,
    skipNodeModulesBundle: true,
    tsconfig: path.join(packageDir, 'tsconfig.json'),
  });
  return {
    entry: path.join(outDir, 'index.js'),
    cleanup: () => fs.rm(outDir, { recursive: true, force: true }),
  };
}

/** The child script run by the process tests. */
export const CHILD_SCRIPT = path.join(packageDir, 'test', 'fixtures', 'store-child.mjs');
