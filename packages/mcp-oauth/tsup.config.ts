import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // @garuda/internal is private: its code and its types are bundled (see its README).
  noExternal: ['@garuda/internal'],
  dts: { compilerOptions: { paths: { '@garuda/internal': ['../internal/src/index.ts'] } } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
