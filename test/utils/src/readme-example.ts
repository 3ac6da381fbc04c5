import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBuildForChildren } from './build-for-children.js';

/** What {@link readmeExampleTest} needs to know about a package. */
export interface ReadmeExampleOptions {
  /** The package's folder (holding `README.md`, `package.json` and `src/index.ts`). */
  packageDir: string;
  /** Finds, in the example's code, the comment that shows its output (group 1 is the output). */
  output: RegExp;
}

/**
 * Defines the test that a package README's `## Example` (a ```js block) runs as written and
 * prints what its comment says: the example imports the package by name, which the test points
 * at a fresh build of `src/index.ts`. Call at the top level of a test file.
 *
 * @param options - The package's folder and the pattern of the output comment.
 * @example
 * readmeExampleTest({ packageDir, output: /^\/\/ (changed .*)$/m });
 */
export function readmeExampleTest({ packageDir, output }: ReadmeExampleOptions): void {
  const built = useBuildForChildren(packageDir);

  describe('README example', () => {
    it('runs and prints the output its comment shows', async () => {
      const { name } = JSON.parse(
        await fs.readFile(path.join(packageDir, 'package.json'), 'utf8'),
      ) as { name: string };
      const text = await fs.readFile(path.join(packageDir, 'README.md'), 'utf8');
      const code = /## Example\n\n```js\n([\s\S]*?)```/.exec(text)?.[1];
      expect(code).toBeDefined();
      const expected = output.exec(code as string)?.[1];
      expect(expected).toBeDefined();
      const script = path.join(path.dirname(built.entry), 'readme-example.mjs');
      await fs.writeFile(
        script,
        (code as string).replace(`'${name}'`, JSON.stringify(pathToFileURL(built.entry).href)),
      );
      const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout.trim()).toBe(expected);
    }, 90_000);
  });
}
