// The checks a package's public entry passes in its own tests: the runtime names are exactly the
// documented ones, the entry is named re-exports only, and the README names each export and code.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

/**
 * Adds the public-entry tests to the current `describe` block, for a test file that sits beside
 * the entry (`src/index.test.ts`, with `src/index.ts` and `../README.md`).
 *
 * @param api - The entry's module namespace (`import * as api from './index.js'`).
 * @param values - Every runtime export, as the README documents them.
 * @param codes - The package's error codes (its `…ErrorCode` object), each named in the README.
 * @param testFile - The test's `import.meta.url`.
 */
export function checkPublicEntry(
  api: object,
  values: readonly string[],
  codes: Readonly<Record<string, string>>,
  testFile: string,
): void {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([...values].sort());
  });

  it('is a list of named re-exports (no export *)', () => {
    expect(readFileSync(new URL('./index.ts', testFile), 'utf8')).not.toMatch(/export\s*\*/);
  });

  it('documents every export and every error code in README.md', () => {
    const readme = readFileSync(new URL('../README.md', testFile), 'utf8');
    for (const name of values) expect(readme, name).toContain(`\`${name}`);
    for (const code of Object.values(codes)) expect(readme, code).toContain(code);
  });
}
