import { describe, expect, it } from 'vitest';
import { limitOf } from './durations.js';
import { CliError, ExitCode } from './exit-codes.js';

describe('limitOf', () => {
  it('reads seconds by default, and ms, s or m when written', () => {
    expect(limitOf('--start-timeout', '120')).toBe(120_000);
    expect(limitOf('--start-timeout', '1.5')).toBe(1500);
    expect(limitOf('--start-timeout', '90s')).toBe(90_000);
    expect(limitOf('--download-timeout', '10m')).toBe(600_000);
    expect(limitOf('--download-timeout', ' 120000ms ')).toBe(120_000);
    expect(limitOf('--start-timeout', '1000MS')).toBe(1000);
  });

  it('refuses what is not a limit from 1 s to 10 minutes, saying what it takes (exit 2)', () => {
    for (const bad of [
      '0',
      '0.5',
      '601',
      '120000',
      '11m',
      '999ms',
      '2h',
      '-5',
      '',
      'soon',
      '1e3',
    ]) {
      let caught: unknown;
      try {
        limitOf('--start-timeout', bad);
      } catch (error) {
        caught = error;
      }
      expect(caught, bad).toBeInstanceOf(CliError);
      expect((caught as CliError).exitCode, bad).toBe(ExitCode.USAGE);
      expect((caught as CliError).message, bad).toContain(
        `--start-timeout takes a time limit in seconds from 1 to 600 (e.g. 120), or with a unit (90s, 2m, 120000ms), got ${JSON.stringify(bad)}.`,
      );
    }
  });
});
