// The README's example must run as written and print what it says it prints.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForChildren } from './build-for-children.js';

const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
let built: { entry: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  built = await buildForChildren();
}, 120_000);
afterAll(async () => {
  await built?.cleanup();
});

describe('README example', () => {
  it('runs and prints the output its comment shows', async () => {
    const text = await fs.readFile(readme, 'utf8');
    const code = /## Example\n\n```js\n([\s\S]*?)```/.exec(text)?.[1];
    expect(code).toBeDefined();
    const expected = /^\/\/ (\d{3} \d{3} .*)$/m.exec(code as string)?.[1];
    expect(expected).toBeDefined();
    const script = path.join(path.dirname(built.entry), 'readme-example.mjs');
    await fs.writeFile(
      script,
      (code as string).replace(
        `'@garuda/mcp-oauth'`,
        JSON.stringify(pathToFileURL(built.entry).href),
      ),
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(expected);
  }, 90_000);
});
