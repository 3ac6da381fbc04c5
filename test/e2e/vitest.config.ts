import { defineTests } from '../../vitest.shared.ts';

export default defineTests({
  include: ['src/**/*.test.ts'],
  // Safety nets only (every wait is on an event): each test runs the built CLI, its sandbox and
  // servers, often several times; a busy machine makes a run slower, not red.
  testTimeout: 300_000,
  hookTimeout: 300_000,
});
