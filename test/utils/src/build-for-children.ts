import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { build } from 'tsup';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { NodeChildren, type NodeChild } from './node-child.js';

/**
 * Builds a package's `src/index.ts` for child processes of a test (two processes sharing one
 * file, say) into a private folder inside that package, so the build's imports resolve from the
 * package's own node_modules; never into `dist`, which other checks may be reading at the same
 * time.
 *
 * Its own entry (`@garuda/test-utils/build-for-children`), not the main one: it loads tsup (and
 * vitest, for {@link useBuildForChildren}), which the other helpers do not need (and the CLI's
 * demo bundles the main entry).
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

/**
 * {@link buildForChildren} once for the calling test file: built before its first test, removed
 * after its last. Call at the top level of a test file; read `entry` inside a test.
 *
 * @param packageDir - The package's folder (holding `src/index.ts` and `tsconfig.json`).
 * @returns The built entry, readable once the build is done.
 */
export function useBuildForChildren(packageDir: string): { readonly entry: string } {
  let built: Awaited<ReturnType<typeof buildForChildren>> | undefined;
  beforeAll(async () => {
    built = await buildForChildren(packageDir);
  }, 120_000);
  afterAll(async () => {
    await built?.cleanup();
  });
  return {
    get entry() {
      if (!built) throw new Error('useBuildForChildren: read entry inside a test');
      return built.entry;
    },
  };
}

/**
 * Node processes that run a package's child script against its build (see
 * {@link useBuildForChildren}): `start(args)` runs `node <script> <built entry> <args…>`. Every
 * child a test started and that still runs when the test ends is killed. Call at the top level of
 * a test file.
 *
 * @param packageDir - The package's folder.
 * @param script - The child script, which takes the built entry as its first argument.
 * @returns A way to start children.
 */
export function useChildScript(
  packageDir: string,
  script: string,
): { start(args: readonly string[]): NodeChild } {
  const built = useBuildForChildren(packageDir);
  const children = new NodeChildren();
  afterEach(() => children.killAll());
  return { start: (args) => children.start([script, built.entry, ...args]) };
}
