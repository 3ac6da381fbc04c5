import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { quickStartTest } from '@garuda/test-utils';
import { describe, expect, inject, it } from 'vitest';
import { tempDirs } from './temp-dir.js';

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs = tempDirs();

quickStartTest({ packageDir });

/** Each ```js block of the README with the ```text block that follows it. */
async function examples(): Promise<Array<{ code: string; output: string }>> {
  const readme = await readFile(path.join(packageDir, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((m) => ({
    lang: m[1] ?? '',
    body: m[2] ?? '',
  }));
  const found: Array<{ code: string; output: string }> = [];
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    if (block.lang === 'js' && next?.lang === 'text')
      found.push({ code: block.body, output: next.body });
  });
  return found;
}

describe('README', () => {
  it('has runnable examples', async () => {
    expect((await examples()).length).toBeGreaterThanOrEqual(3);
  });

  it('prints what it says, for every example', async () => {
    const dir = await dirs.create();
    const entry = pathToFileURL(inject('distEntry')).href;
    for (const [i, { code, output }] of (await examples()).entries()) {
      expect(code).toContain("from '@garuda/mcp-config'");
      const script = path.join(dir, `example-${i}.mjs`);
      await writeFile(script, code.replaceAll("'@garuda/mcp-config'", JSON.stringify(entry)));
      // The examples make temporary folders: keep them inside this test's folder.
      const { stdout } = await run(process.execPath, [script], {
        cwd: dir,
        env: { ...process.env, TMPDIR: dir },
      });
      expect(stdout.trimEnd(), `example ${i + 1}`).toBe(output);
    }
  });
});
