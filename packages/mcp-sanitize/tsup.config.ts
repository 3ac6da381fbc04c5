import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // @garuda/internal is private and never published: its code and its types go into this
  // package's dist. The declaration bundler inlines only what it reaches outside node_modules,
  // so its types are taken from the source folder itself.
  dts: { compilerOptions: { paths: { '@garuda/internal': ['../internal/src/index.ts'] } } },
  noExternal: ['@garuda/internal'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
