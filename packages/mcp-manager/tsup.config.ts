import { defineBuild } from '../../tsup.shared.ts';

export default defineBuild({
  // One file, as before the connecting code was imported on first use: esbuild then inlines
  // those dynamic imports, and a second copy of the package (two versions in one host's tree)
  // carries classes of its own instead of sharing a chunk. The CLI bundles this package from
  // source with splitting, where the connecting code gets chunks of its own.
  splitting: false,
});
