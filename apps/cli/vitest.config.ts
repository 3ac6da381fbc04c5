import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
