import { cpuMsOf } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { isWrittenSecret } from './convert-values.js';

describe('isWrittenSecret', () => {
  it('a reference is not a secret written out; a literal under a secret name is', () => {
    expect(isWrittenSecret('API_KEY', '${API_KEY}')).toBe(false);
    expect(isWrittenSecret('API_KEY', 'prefix-${env:API_KEY}')).toBe(false);
    expect(isWrittenSecret('API_KEY', 'hunter2')).toBe(true);
    expect(isWrittenSecret('API_KEY', '${ not closed')).toBe(true);
    expect(isWrittenSecret('API_KEY', '} before ${')).toBe(true);
    expect(isWrittenSecret('PATH', 'hunter2')).toBe(false);
  });

  // A guard against quadratic time, not a speed test (the bound only catches a hang).
  it(
    'ReDoS: a value of 25 000 `${` and no `}` (a repository file) is judged in linear time',
    { timeout: 300_000 },
    () => {
      const hostile = '${'.repeat(25_000);
      let judged = 0;
      const cpuMs = cpuMsOf(() => {
        for (let i = 0; i < 100; i += 1) judged += isWrittenSecret('API_KEY', hostile) ? 1 : 0;
      });
      expect(judged).toBe(100);
      expect(cpuMs).toBeLessThan(20_000);
    },
  );
});
