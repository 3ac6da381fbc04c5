// The README's Quick start and its sandbox Example must run as written and print what the README
// shows.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { codeBlock, quickStartTest, readmeSection } from '@garuda/test-utils';
import { afterEach, expect, it, vi } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

quickStartTest({ packageDir });

afterEach(() => {
  vi.restoreAllMocks();
});

it('the sandbox Example runs word for word and prints what the README shows', async () => {
  const section = readmeSection(
    await readFile(path.join(packageDir, 'README.md'), 'utf8'),
    '## Sandbox',
  );
  const dir = path.join(packageDir, 'test-results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'readme-sandbox-example.mjs');
  await writeFile(file, codeBlock(section, 'js'));

  // The stand-in server answers after the module has finished: wait for its line.
  let resolve: (line: string) => void = () => undefined;
  const printed = new Promise<string>((done) => (resolve = done));
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    resolve(format(...args));
  });
  const warned: string[] = [];
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    warned.push(format(...args));
  });
  await import(/* @vite-ignore */ `${pathToFileURL(file).href}?t=${Date.now()}`);
  expect(await printed).toBe(codeBlock(section, 'text'));
  // Where there is no sandbox the Example says so, as the README shows; otherwise nothing.
  for (const line of warned) expect(line).toMatch(/^no OS sandbox: /);
});
