// The README's example must run as written: its code block is taken from README.md, the one
// line that names "your server" is pointed at the fixture server, and the result is run (with
// the package name resolved to this source) and compared with the output the README shows.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  codeBlock,
  fixtureCommand,
  quickStartTest,
  readmeSection,
  sandboxOutcomes,
  tempDir,
  type TempDir,
} from '@garuda/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HAS_SANDBOX, REPO_ROOT, SANDBOX } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER_LINE = "const server = { command: 'node', args: ['my-mcp-server.mjs'] };";

afterEach(() => {
  vi.restoreAllMocks();
});

// The Quick start, as written but for the server (the fixture), its home and project (a
// throwaway folder, so the test touches nothing of the user's) and the fixture's checkout
// (which may be under /tmp, empty inside the sandbox).
let quick: TempDir;
beforeAll(async () => {
  quick = await tempDir('garuda-quick-start-');
});
afterAll(async () => {
  await quick.cleanup();
});
const QUICK_SERVER = "{ command: 'node', args: ['my-mcp-server.mjs'] }";
const QUICK_WHERE =
  '...{ root: process.cwd(), home: `${homedir()}/.garuda`, userHome: homedir(), env: process.env },';

quickStartTest({
  packageDir: path.join(here, '..'),
  prepare: (code) => {
    expect(code).toContain(QUICK_SERVER);
    expect(code).toContain(QUICK_WHERE);
    const fixture = fixtureCommand('normal');
    const where = {
      root: quick.path,
      home: path.join(quick.path, '.garuda'),
      userHome: quick.path,
    };
    return code
      .replace(QUICK_SERVER, JSON.stringify({ command: fixture.command, args: fixture.args }))
      .replace(
        QUICK_WHERE,
        `...${JSON.stringify(where)}, env: process.env, sandboxReadPaths: [${JSON.stringify(REPO_ROOT)}],`,
      );
  },
});

describe('README', () => {
  it.skipIf(!HAS_SANDBOX)(
    'the example runs as written and prints what the README shows',
    async () => {
      const readme = await readFile(path.join(here, '..', 'README.md'), 'utf8');
      const example = readmeSection(readme, '## Example');
      const code = codeBlock(example, 'js');
      expect(code).toContain(SERVER_LINE);
      const fixture = fixtureCommand('normal');
      const runnable = code
        .replace(
          SERVER_LINE,
          `const server = ${JSON.stringify({ command: fixture.command, args: fixture.args })};`,
        )
        // The fixture lives in this checkout, which may be under /tmp (empty inside the sandbox).
        .replace(
          '  prompter,\n});',
          `  prompter,\n  sandboxReadPaths: [${JSON.stringify(REPO_ROOT)}],\n});`,
        );
      expect(runnable).toContain('sandboxReadPaths');
      const dir = path.join(here, '..', 'test-results');
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, 'readme-example.mjs');
      await writeFile(file, runnable);

      const lines: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
      await import(/* @vite-ignore */ `${pathToFileURL(file).href}?t=${Date.now()}`);

      // The README shows what Linux prints; Seatbelt (macOS) prints the same with its own name.
      const { name } = sandboxOutcomes(SANDBOX.kind);
      expect(lines.join('\n')).toBe(
        codeBlock(example, 'text').replace(/(?<=sandbox: |\| )bubblewrap\b/g, name),
      );
    },
  );
});
