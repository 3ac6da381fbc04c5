import { fileURLToPath } from 'node:url';
import { defineTests } from '../../vitest.shared.ts';

export default defineTests(
  {
    // Builds the package once for the tests that run it in child processes (and the README).
    globalSetup: ['test/global-setup.ts'],
  },
  {
    resolve: {
      // The README's Quick start imports the package by name; in tests that is the source.
      alias: { '@garuda/mcp-config': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    },
  },
);
