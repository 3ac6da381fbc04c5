import { defineTests } from '../../vitest.shared.ts';

export default defineTests({
  include: ['src/**/*.test.ts'],
  // One server at a time: each test runs the CLI, a sandbox and a server; the machine is shared.
  fileParallelism: false,
  // Safety nets only (every wait is on an event): a busy machine makes a run slower, not red.
  testTimeout: 300_000,
  hookTimeout: 300_000,
});
