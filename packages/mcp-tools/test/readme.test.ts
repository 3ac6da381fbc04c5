// The README's Quick start must run as written: its code block is taken from README.md, the one
// line that names the server's address is pointed at the fixture server, and the result is run
// (with the package name resolved to this source) and compared with the output the README shows.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { codeBlock, readmeSection, startHttpFixture } from '@garuda/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER_URL = "new URL('http://127.0.0.1:3000/mcp')";

afterEach(() => {
  vi.restoreAllMocks();
});

describe('README', () => {
  it('opens with the Quick start, about ten lines', async () => {
    const readme = await readFile(path.join(here, '..', 'README.md'), 'utf8');
    expect(readme.indexOf('\n## ')).toBe(readme.indexOf('\n## Quick start\n'));
    const code = codeBlock(readmeSection(readme, '## Quick start'), 'js');
    const lines = code.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeLessThanOrEqual(12);
  });

  it('the Quick start runs as written and prints what the README shows', async () => {
    const readme = await readFile(path.join(here, '..', 'README.md'), 'utf8');
    const quickStart = readmeSection(readme, '## Quick start');
    const code = codeBlock(quickStart, 'js');
    expect(code).toContain(SERVER_URL);
    const fixture = await startHttpFixture({ mode: 'normal' });
    try {
      const runnable = code.replace(SERVER_URL, `new URL(${JSON.stringify(fixture.url.href)})`);
      const dir = path.join(here, '..', 'test-results');
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, 'readme-quick-start.mjs');
      await writeFile(file, runnable);

      const lines: string[] = [];
      const warnings: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
      vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
        warnings.push(args.map(String).join(' '));
      });
      await import(/* @vite-ignore */ `${pathToFileURL(file).href}?t=${Date.now()}`);

      expect(lines.join('\n')).toBe(codeBlock(quickStart, 'text'));
      expect(warnings).toEqual([]);
      expect(fixture.requests).toBeGreaterThan(0);
    } finally {
      await fixture.close();
    }
  });
});
