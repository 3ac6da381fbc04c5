import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Safety nets only: each test runs the CLI (and its servers) several times over; a busy
    // machine makes that slow, and no test should fail for it.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
