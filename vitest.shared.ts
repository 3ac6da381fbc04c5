// The test setup every workspace shares; each vitest.config.ts adds only what is its own.
import { defineConfig, type TestUserConfig, type ViteUserConfig } from 'vitest/config';

/**
 * A workspace's vitest config: the tests under `src/` and `test/`, a 30 s time limit per test
 * (a safety net for a busy machine, not a speed check), and a JSON report in `test-results/`.
 *
 * @param test - This workspace's own test settings; each key replaces the shared one.
 * @param vite - Settings outside `test` (a `resolve.alias`, say).
 * @returns The config for vitest.
 * @example
 * export default defineTests({ testTimeout: 120_000 });
 */
export function defineTests(
  test: TestUserConfig = {},
  vite: Omit<ViteUserConfig, 'test'> = {},
): ViteUserConfig {
  return defineConfig({
    ...vite,
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      reporters: ['default', 'json'],
      outputFile: { json: 'test-results/vitest.json' },
      ...test,
    },
  });
}
