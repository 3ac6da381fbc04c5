// The README's code must run as written: the Quick start (with a throwaway home and project, so
// the test touches nothing of the user's) and the Example (word for word), both with the minimal
// server the README gives, are run with the package name resolved to this source, and print
// what the README shows.
import { readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  codeBlock,
  quickStartTest,
  readmeSection,
  sandboxOutcomes,
  tempDir,
  type TempDir,
} from '@garuda/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HAS_SANDBOX, SANDBOX } from './support/e2e.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const README = path.join(here, '..', 'README.md');

/** The minimal server the Quick start section gives, as `my-mcp-server.mjs`. */
async function readmeServer(): Promise<string> {
  const section = readmeSection(await readFile(README, 'utf8'), '## Quick start');
  const blocks = [...section.matchAll(/```js\n([\s\S]*?)\n```/g)].map((match) => match[1] ?? '');
  const server = blocks.find((block) => block.includes("from 'node:readline'"));
  expect(server).toBeDefined();
  return `${server ?? ''}\n`;
}

afterEach(() => {
  vi.restoreAllMocks();
});

// The Quick start, as written but for its home and project: a throwaway folder, so the test
// touches nothing of the user's, holding the README's server.
let quick: TempDir;
beforeAll(async () => {
  quick = await tempDir('garuda-quick-start-');
  await writeFile(path.join(quick.path, 'my-mcp-server.mjs'), await readmeServer());
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
    const where = {
      root: quick.path,
      home: path.join(quick.path, '.garuda'),
      userHome: quick.path,
    };
    return code.replace(QUICK_WHERE, `...${JSON.stringify(where)}, env: process.env,`);
  },
});

describe('README', () => {
  it.skipIf(!HAS_SANDBOX)(
    "the example runs word for word beside the README's server and prints what the README shows",
    async () => {
      const example = readmeSection(await readFile(README, 'utf8'), '## Example');
      const dir = path.join(here, '..', 'test-results');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'my-mcp-server.mjs'), await readmeServer());
      const file = path.join(dir, 'readme-example.mjs');
      await writeFile(file, codeBlock(example, 'js'));

      const lines: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
      // The example takes os.homedir() as the user's home, as a host would: here that is a
      // folder of the test's, so the servers' homes it makes (under ~/.local/share) stay there.
      const home = path.join(dir, 'readme-example-home');
      // A fresh one each run: test-results/ outlives a run, and each run's project is new.
      await rm(home, { recursive: true, force: true });
      await mkdir(home, { recursive: true });
      vi.stubEnv('HOME', home);
      try {
        await import(/* @vite-ignore */ `${pathToFileURL(file).href}?t=${Date.now()}`);
      } finally {
        vi.unstubAllEnvs();
      }
      expect(readdirSync(path.join(home, '.local', 'share', 'garuda-mcp', 'servers'))).toEqual([
        expect.stringMatching(/^demo\.[0-9a-f]{12}$/),
      ]);

      // The README shows what Linux prints; Seatbelt (macOS) prints the same with its own name.
      const { name } = sandboxOutcomes(SANDBOX.kind);
      expect(lines.join('\n')).toBe(
        codeBlock(example, 'text').replace(/(?<=sandbox: |\| )bubblewrap\b/g, name),
      );
    },
  );
});
