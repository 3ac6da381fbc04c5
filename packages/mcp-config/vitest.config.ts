import { defineTests } from '../../vitest.shared.ts';

export default defineTests({
  // Builds the package once for the tests that run it in child processes (and the README).
  globalSetup: ['test/global-setup.ts'],
});
