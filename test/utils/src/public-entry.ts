// The checks a package's public entry passes in its own tests: the runtime names are exactly the
// documented ones, the entry is named re-exports only, and the README names each export and code.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

/**
 * Adds the public-entry tests to the current `describe` block, for a test file that sits beside
 * the entry (`src/index.test.ts`, with `src/index.ts`, `src/public-entry.json` and
 * `../README.md`). `public-entry.json` is the reviewed list of every runtime export, sorted:
 * adding or removing an export is a deliberate change to it, to the entry and to the README.
 *
 * @param api - The entry's module namespace (`import * as api from './index.js'`).
 * @param codes - The package's error codes (its `…ErrorCode` object), each named in the README.
 * @param testFile - The test's `import.meta.url`.
 */
export function checkPublicEntry(
  api: object,
  codes: Readonly<Record<string, string>>,
  testFile: string,
): void {
  const listed = (): string[] =>
    JSON.parse(readFileSync(new URL('./public-entry.json', testFile), 'utf8')) as string[];

  it('exports exactly the names of public-entry.json', () => {
    expect(Object.keys(api).sort(), 'update src/public-entry.json and the README').toEqual(
      listed(),
    );
  });

  it('is a list of named re-exports (no export *)', () => {
    expect(readFileSync(new URL('./index.ts', testFile), 'utf8')).not.toMatch(/export\s*\*/);
  });

  it('documents every export and every error code in README.md', () => {
    const readme = readFileSync(new URL('../README.md', testFile), 'utf8');
    for (const name of listed()) expect(readme, name).toContain(`\`${name}`);
    for (const code of Object.values(codes)) expect(readme, code).toContain(code);
  });
}
