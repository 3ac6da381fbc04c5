// The build every published workspace shares; each tsup.config.ts adds only what is its own.
// tsup loads a config through bundle-require, so a relative import of this file works there.
import type { Options } from 'tsup';

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
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...options,
  };
}
