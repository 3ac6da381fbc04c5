import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { build } from 'tsup';

/**
 * Builds a package's `src/index.ts` for child processes of a test (two processes sharing one
 * file, say) into a private folder inside that package, so the build's imports resolve from the
 * package's own node_modules; never into `dist`, which other checks may be reading at the same
 * time.
 *
 * Its own entry (`@garuda/test-utils/build-for-children`), not the main one: it loads tsup, which
 * the other helpers do not need (and the CLI's demo bundles the main entry).
 *
 * @param packageDir - The package's folder (holding `src/index.ts` and `tsconfig.json`).
 * @returns The built entry, and a function that removes the build again.
 */
export async function buildForChildren(
  packageDir: string,
): Promise<{ entry: string; cleanup: () => Promise<void> }> {
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
    // Private, never published, consumed from source: bundled, as the package's own build does.
    noExternal: ['@garuda/internal'],
    tsconfig: path.join(packageDir, 'tsconfig.json'),
  });
  return {
    entry: path.join(outDir, 'index.js'),
    cleanup: () => fs.rm(outDir, { recursive: true, force: true }),
  };
}
