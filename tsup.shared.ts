// The build every published workspace shares; each tsup.config.ts adds only what is its own.
// tsup loads a config through bundle-require, so a relative import of this file works there.
import path from 'node:path';
import type { Options } from 'tsup';

/** The private helpers' source, as seen from a package folder under packages/. */
const INTERNAL_TYPES = path.join('..', 'internal', 'src', 'index.ts');

/**
 * A package's tsup config: `src/index.ts` built as ESM for Node 20, with declarations and
 * source maps, into a clean `dist`.
 *
 * @param options - What this package builds beyond that (more entries, bundling rules); each
 *   key replaces the shared one.
 * @returns The config for tsup.
 * @example
 * export default defineBuild({ entry: { index: 'src/index.ts', bin: 'src/bin.ts' } });
 */
export function defineBuild(options: Options = {}): Options {
  const { noExternal = [], ...rest } = options;
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    // @garuda/internal is private and never published: its code and its types are bundled into
    // each package (see packages/internal/README.md). tsup runs in the package's folder.
    noExternal: ['@garuda/internal', ...(Array.isArray(noExternal) ? noExternal : [noExternal])],
    dts: { compilerOptions: { paths: { '@garuda/internal': [INTERNAL_TYPES] } } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...rest,
  };
}
