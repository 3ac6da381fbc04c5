import { defineTests } from '../../vitest.shared.ts';

export default defineTests({
  include: ['src/**/*.test.ts'],
  testTimeout: 60_000,
  hookTimeout: 300_000,
});
