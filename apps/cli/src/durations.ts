// Time limits as a person types them on the command line: seconds by default (`120`), or with
// a unit (`90s`, `2m`, `120000ms`), checked against the range the config file allows.
import { usageError } from './exit-codes.js';

/** The range of a start or download limit, in ms (as `"startTimeoutMs"` in a config file). */
export const LIMIT_RANGE = { min: 1000, max: 600_000 } as const;

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/**
 * A time limit flag's value in milliseconds: a number of seconds (`120`, `1.5`), or a number
 * with `ms`, `s` or `m` (`120000ms`, `90s`, `2m`), from 1 s to 10 minutes.
 *
 * @param flag - The flag, for the message (e.g. `--start-timeout`).
 * @param text - The value as typed.
 * @returns The limit in whole milliseconds.
 * @throws A usage error (exit 2) saying what the flag takes.
 */
export function limitOf(flag: string, text: string): number {
  const match = /^(\d{1,7}(?:\.\d{1,3})?)\s*(ms|s|m)?$/i.exec(text.trim());
  const ms =
    match === null
      ? Number.NaN
      : Math.round(Number(match[1]) * (UNITS[(match[2] ?? 's').toLowerCase()] ?? Number.NaN));
  if (!(ms >= LIMIT_RANGE.min && ms <= LIMIT_RANGE.max)) {
    throw usageError(
      `${flag} takes a time limit in seconds from 1 to 600 (e.g. 120), or with a unit ` +
        `(90s, 2m, 120000ms), got ${JSON.stringify(text)}.`,
    );
  }
  return ms;
}
