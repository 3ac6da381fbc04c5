import { describe, expect, it } from 'vitest';
import { log, type OptionalLogger } from './log.js';

describe('log', () => {
  it('calls the method of that level, with the logger as this', () => {
    const lines: string[] = [];
    const logger = {
      prefix: '>',
      warn(this: { prefix: string }, message: string) {
        lines.push(`${this.prefix} ${message}`);
      },
    };
    log(logger, 'warn', 'careful');
    log(logger, 'info', 'no such method');
    expect(lines).toEqual(['> careful']);
  });

  it('does nothing without a logger or with a method that is not a function', () => {
    expect(() => log(undefined, 'debug', 'x')).not.toThrow();
    expect(() => log({ error: 'no' } as unknown as OptionalLogger, 'error', 'x')).not.toThrow();
  });

  it('drops what the logger throws, from a method or a getter', () => {
    const throwing = {
      error: () => {
        throw new Error('logger broke');
      },
      get warn(): () => void {
        throw new Error('getter broke');
      },
    };
    expect(() => log(throwing, 'error', 'x')).not.toThrow();
    expect(() => log(throwing, 'warn', 'x')).not.toThrow();
  });

  it('drops the rejection of an async logger (no unhandled rejection)', async () => {
    const rejected: unknown[] = [];
    const onRejection = (reason: unknown) => rejected.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      log({ info: () => Promise.reject(new Error('async logger broke')) }, 'info', 'x');
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejected).toEqual([]);
  });
});
