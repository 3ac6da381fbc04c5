import { defineTests } from '../../vitest.shared.ts';

export default defineTests({
  // Safety nets only: each test runs the CLI (and its servers) several times over; a busy
  // machine makes that slow, and no test should fail for it.
  testTimeout: 300_000,
  hookTimeout: 300_000,
});
