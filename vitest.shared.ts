// The test setup every workspace shares; each vitest.config.ts adds only what is its own.
import { defineConfig, type TestUserConfig, type ViteUserConfig } from 'vitest/config';

/**
 * A workspace's vitest config: the tests under `src/` and `test/`, a 120 s time limit per test
 * and per hook (a safety net for a busy machine, not a speed check: every wait is on an event,
 * so a loaded machine makes a run slower, not red), and a JSON report in `test-results/`.
 *
 * Workers: vitest's default (one fewer than the cores, at least one) is kept on purpose. The
 * monorepo's test command already runs several workspaces side by side (turbo), so a file that
 * burns CPU (the ReDoS and size guards) shares the cores with other suites anyway; more workers
 * per workspace would only make more of them wait at once.
 *
 * @param test - This workspace's own test settings; each key replaces the shared one.
 * @param vite - Settings outside `test` (a `resolve.alias`, say).
 * @returns The config for vitest.
 * @example
 * export default defineTests({ testTimeout: 300_000 });
 */
export function defineTests(
  test: TestUserConfig = {},
  vite: Omit<ViteUserConfig, 'test'> = {},
): ViteUserConfig {
  return defineConfig({
    ...vite,
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 120_000,
      hookTimeout: 120_000,
      reporters: ['default', 'json'],
      outputFile: { json: 'test-results/vitest.json' },
      ...test,
    },
  });
}
