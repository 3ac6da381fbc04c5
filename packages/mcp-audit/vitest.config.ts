import { fileURLToPath } from 'node:url';
import { defineTests } from '../../vitest.shared.ts';

export default defineTests(
  {},
  {
    resolve: {
      // The README's Quick start imports the package by name; in tests that is the source.
      alias: { '@garuda/mcp-audit': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    },
  },
);
