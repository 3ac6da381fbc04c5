import { fileURLToPath } from 'node:url';
import { defineTests } from '../../vitest.shared.ts';

export default defineTests(
  {},
  {
    resolve: {
      // The README example imports the package by name; in tests that is the source.
      alias: { '@garuda/mcp-gateway': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    },
  },
);
