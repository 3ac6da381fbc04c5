// The checks every package's errors pass in its own tests: each class is branded (a marker and
// `isInstance` of its own, so a sibling never passes), errors carry a stable code and a name,
// and an error from another copy of the package is still recognised by its marker.
import { expect, it } from 'vitest';

/** An error class branded by `@garuda/internal`'s `brand`: its prototype and its guard. */
export interface BrandedClass {
  readonly prototype: object;
  isInstance(value: unknown): boolean;
}

/** One error to check with {@link checkErrorSamples}. */
export interface ErrorSample {
  /** The error, or a promise of it (`caught(() => …)` for one a function throws). */
  readonly error: unknown;
  /** The class it must be made by. */
  readonly Class: BrandedClass;
  /** Its `code`. */
  readonly code: string;
  /** Its `name`. */
  readonly name: string;
}

/** What {@link checkErrors} checks about a package's errors. */
export interface ErrorChecks {
  /** The base class's marker key, `garuda.<package folder>.<Name>`. */
  readonly marker: string;
  /** The package's `…ErrorCode` object. */
  readonly codes: Readonly<Record<string, string>>;
  /** The prefix of every code of the package (`'SANITIZE_'`). */
  readonly prefix: string;
  /** At least one error of each class to check ({@link checkErrorSamples}). */
  readonly samples: readonly ErrorSample[];
  /** Subclasses of the base class, whose own markers a copy's base error lacks. */
  readonly below?: readonly BrandedClass[];
}

/**
 * Adds the tests every package's errors pass: {@link checkErrorSamples},
 * {@link checkForeignCopies} and {@link checkErrorCodes}.
 *
 * @param base - The package's base error class.
 * @param checks - Its marker, codes, samples and subclasses.
 * @example
 * checkErrors(api.SanitizeError, {
 *   marker: 'garuda.mcp-sanitize.SanitizeError',
 *   codes: api.SanitizeErrorCode,
 *   prefix: 'SANITIZE_',
 *   samples: [{ error: caught(() => api.capText('x', -1)), Class: api.SanitizeError, code: 'SANITIZE_INVALID_LIMIT', name: 'SanitizeError' }],
 * });
 */
export function checkErrors(
  base: BrandedClass & (abstract new (...args: never[]) => object),
  checks: ErrorChecks,
): void {
  checkErrorSamples(base, checks.samples);
  checkForeignCopies(base, checks.marker, checks.below);
  checkErrorCodes(checks.codes, checks.prefix);
}

/**
 * Adds one test per sample: the error is an `Error`, an instance of `base` and of its class,
 * has its code and name, and passes the `isInstance` of exactly its class and the classes above
 * it among the samples' classes (a sibling's or subclass's guard refuses it).
 *
 * @param base - The package's base error class.
 * @param samples - At least one error of each class to check.
 * @example
 * checkErrorSamples(ConfigError, [
 *   { error: new FileUnusableError('/f', []), Class: FileUnusableError, code: 'CONFIG_FILE_UNUSABLE', name: 'FileUnusableError' },
 * ]);
 */
export function checkErrorSamples(
  base: BrandedClass & (abstract new (...args: never[]) => object),
  samples: readonly ErrorSample[],
): void {
  it.each(samples)('$name ($code) has its code, name, class and marker', async (sample) => {
    const error = (await sample.error) as Error & { code?: unknown };
    const { Class } = sample;
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(base);
    expect(error.code).toBe(sample.code);
    expect(error.name).toBe(sample.name);
    expect(base.isInstance(error)).toBe(true);
    expect(Class.isInstance(error)).toBe(true);
    for (const { Class: Other } of samples) {
      const above =
        Other === Class || Object.prototype.isPrototypeOf.call(Other.prototype, Class.prototype);
      expect(Other.isInstance(error)).toBe(above);
    }
  });
}

/**
 * Adds the test that an error from another copy of the package, an object with nothing but the
 * registered marker `Symbol.for(marker)` (and a code), passes `base.isInstance`, that the guards
 * of classes below `base` refuse it, and that look-alikes (a name and code without the marker, a
 * marker that is not `true`, an unregistered symbol, a string) are refused by all of them.
 *
 * @param base - The package's base error class.
 * @param marker - Its marker's key, `garuda.<package folder>.<Name>`.
 * @param below - Subclasses of `base`, whose own markers the object lacks.
 */
export function checkForeignCopies(
  base: BrandedClass,
  marker: string,
  below: readonly BrandedClass[] = [],
): void {
  it('recognises errors from another copy of the package by their marker', () => {
    const foreign = { [Symbol.for(marker)]: true, code: 'SOME_CODE' };
    expect(base.isInstance(foreign)).toBe(true);
    for (const Class of below) expect(Class.isInstance(foreign)).toBe(false);
    const name = marker.slice(marker.lastIndexOf('.') + 1);
    const lookAlikes = [
      Object.assign(new Error('x'), { name, code: 'SOME_CODE' }),
      { [Symbol.for(marker)]: 'yes' },
      { [Symbol(marker)]: true },
      null,
      undefined,
      name,
      42,
    ];
    for (const value of lookAlikes) {
      for (const Class of [base, ...below]) expect(Class.isInstance(value)).toBe(false);
    }
  });
}

/**
 * Adds the test that a package's error codes are one per failure mode, each equal to its name
 * with the package's prefix (so a code survives logging and comparing as a plain string, and
 * says which package it is from). A name that starts with the prefix already is the code.
 *
 * @param codes - The package's `…ErrorCode` object.
 * @param prefix - The prefix of the package's codes, e.g. `'SANITIZE_'`.
 */
export function checkErrorCodes(codes: Readonly<Record<string, string>>, prefix: string): void {
  it('has one code per failure mode, each equal to its name with the package prefix', () => {
    expect(Object.keys(codes).length).toBeGreaterThan(0);
    for (const [name, code] of Object.entries(codes)) {
      expect(code).toBe(name.startsWith(prefix) ? name : `${prefix}${name}`);
    }
    expect(new Set(Object.values(codes)).size).toBe(Object.keys(codes).length);
  });
}
