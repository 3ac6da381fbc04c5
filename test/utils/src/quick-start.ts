import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { codeBlock, readmeSection } from './readme.js';

/** The most non-blank lines a Quick start's code may have ("about ten"). */
export const QUICK_START_MAX_LINES = 12;

/** What {@link quickStartTest} needs to know about a package. */
export interface QuickStartTestOptions {
  /** The package's folder (holding `README.md`); the run's script goes to its `test-results/`. */
  packageDir: string;
  /**
   * Turns the Quick start's code into what runs, e.g. pointing the address it names at a
   * fixture server. Default: the code as written.
   */
  prepare?: (code: string) => string | Promise<string>;
}

/**
 * Defines the tests that a package README opens with a `## Quick start` of at most
 * {@link QUICK_START_MAX_LINES} non-blank lines of ```js, and that this code runs as written
 * (in this process, so the package name resolves through the workspace's vitest
 * `resolve.alias` to its source) and prints, with `console.log`, exactly the section's ```text
 * block, warning and erring nothing. Call at the top level of a test file.
 *
 * @param options - The package's folder, and how to prepare the code for the run.
 * @example
 * quickStartTest({ packageDir: fileURLToPath(new URL('..', import.meta.url)) });
 */
export function quickStartTest({ packageDir, prepare }: QuickStartTestOptions): void {
  const quickStart = async (): Promise<string> =>
    readmeSection(await readFile(path.join(packageDir, 'README.md'), 'utf8'), '## Quick start');

  describe('README Quick start', () => {
    it(`is the first section, at most ${QUICK_START_MAX_LINES} lines of code`, async () => {
      const readme = await readFile(path.join(packageDir, 'README.md'), 'utf8');
      expect(readme.indexOf('\n## ')).toBe(readme.indexOf('\n## Quick start\n'));
      const lines = codeBlock(await quickStart(), 'js')
        .split('\n')
        .filter((line) => line.trim() !== '');
      expect(lines.length).toBeLessThanOrEqual(QUICK_START_MAX_LINES);
    });

    it('runs as written and prints what the README shows', async () => {
      const section = await quickStart();
      const code = codeBlock(section, 'js');
      const dir = path.join(packageDir, 'test-results');
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, 'readme-quick-start.mjs');
      await writeFile(file, prepare ? await prepare(code) : code);

      const printed: Record<'log' | 'warn' | 'error', string[]> = { log: [], warn: [], error: [] };
      const spies = (['log', 'warn', 'error'] as const).map((level) =>
        vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
          printed[level].push(format(...args));
        }),
      );
      try {
        await import(/* @vite-ignore */ `${pathToFileURL(file).href}?t=${Date.now()}`);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }

      expect(printed.log.join('\n')).toBe(codeBlock(section, 'text'));
      expect(printed.warn).toEqual([]);
      expect(printed.error).toEqual([]);
    });
  });
}
