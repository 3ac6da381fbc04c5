import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

/** One fenced ```js block of a README that is a whole program (it has an `import` line). */
export interface ReadmeProgram {
  /** The line of its opening fence, 1-based. */
  readonly line: number;
  readonly code: string;
}

/**
 * Every ```js block of a README that is a whole program: one with an `import` line at its start
 * of a line. Fragments that continue an earlier block import nothing and are left out.
 *
 * @param readme - The README's text.
 * @returns The programs, in order.
 */
export function readmePrograms(readme: string): ReadmeProgram[] {
  const programs: ReadmeProgram[] = [];
  const lines = readme.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== '```js') continue;
    const end = lines.indexOf('```', index + 1);
    if (end < 0) break;
    const code = lines.slice(index + 1, end).join('\n');
    if (code.split('\n').some((line) => line.startsWith('import '))) {
      programs.push({ line: index + 1, code: `${code}\n` });
    }
    index = end;
  }
  return programs;
}

/** What {@link readmeProgramsTest} needs to know about a package. */
export interface ReadmeProgramsOptions {
  /** The package's folder (holding `README.md`); the programs go to its `test-results/`. */
  packageDir: string;
  /**
   * Programs that another test runs (with their output) or that cannot run here, each with the
   * reason, by a text only that program holds: they are left out, and must still be found.
   */
  skip?: Readonly<Record<string, string>>;
}

/**
 * Defines one test per whole program of a package README (see {@link readmePrograms}): each runs
 * as written, in this process (so the package name resolves to its source), and must not throw.
 * What they print is silenced. Call at the top level of a test file.
 *
 * @param options - The package's folder and the programs to leave out.
 */
export function readmeProgramsTest({ packageDir, skip = {} }: ReadmeProgramsOptions): void {
  describe('README programs', () => {
    it('every program skipped is still in the README', async () => {
      const programs = readmePrograms(await readFile(path.join(packageDir, 'README.md'), 'utf8'));
      for (const marker of Object.keys(skip)) {
        expect(programs.some((program) => program.code.includes(marker))).toBe(true);
      }
    });

    it('every other program runs as written', async () => {
      const programs = readmePrograms(await readFile(path.join(packageDir, 'README.md'), 'utf8'));
      const dir = path.join(packageDir, 'test-results');
      await mkdir(dir, { recursive: true });
      let ran = 0;
      for (const program of programs) {
        if (Object.keys(skip).some((marker) => program.code.includes(marker))) continue;
        const file = path.join(dir, `readme-program-${program.line}.mjs`);
        await writeFile(file, program.code);
        const spies = (['log', 'warn', 'error', 'info'] as const).map((level) =>
          vi.spyOn(console, level).mockImplementation(() => undefined),
        );
        try {
          await import(/* @vite-ignore */ `${pathToFileURL(file).href}?t=${Date.now()}`);
        } catch (error) {
          throw new Error(`README.md:${program.line}: the program threw`, { cause: error });
        } finally {
          for (const spy of spies) spy.mockRestore();
        }
        ran++;
      }
      expect(ran).toBeGreaterThan(0);
    });
  });
}
