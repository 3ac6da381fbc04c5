import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README promises that a pinned fetch goes wherever a fetch is expected. That depends on
// the declarations users get, and on their `lib`: with the DOM lib (TypeScript's default) the
// global Response is lib.dom's, otherwise @types/node's. So the fixtures in ./fetch-types are
// compiled as a user would, against declarations built from src the way `dist` is built (tsup's
// bundled .d.ts). Built here, not read from dist: under turbo this task depends only on the
// dependencies' builds, and a dist left over from an older build would test stale types. The
// fixtures import the package as `pinned-fetch-under-test`, which each tsconfig maps to the
// declarations (here the fresh build, in check:package the real dist).

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(packageDir, 'test', 'fetch-types');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// Inside the package, so the declarations' imports (undici, node:*) resolve as from dist.
const outDir = path.join(
  packageDir,
  'test-results',
  `fetch-types-${process.pid}-${Math.random().toString(36).slice(2)}`,
);

// Generous: two compilers with lib.dom and all of @types/node on a busy 2-core machine.
const TIMEOUT_MS = 300_000;

/** Runs `tsc -p` on a fixture config that resolves the package to the declarations built here. */
async function compile(fixtureConfig: string): Promise<{ code: number; output: string }> {
  const config = path.join(outDir, fixtureConfig);
  await writeFile(
    config,
    JSON.stringify({
      extends: path.join(fixtures, fixtureConfig),
      compilerOptions: { paths: { 'pinned-fetch-under-test': ['./index.d.ts'] } },
    }),
  );
  try {
    await run(process.execPath, [tsc, '-p', config, '--pretty', 'false'], {
      timeout: TIMEOUT_MS,
    });
    return { code: 0, output: '' };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: code ?? -1, output: `${stdout ?? ''}${stderr ?? ''}`.trim() };
  }
}

describe('a pinned fetch is typed as a fetch', () => {
  let results: Record<'dom' | 'node', Promise<{ code: number; output: string }>>;

  beforeAll(async () => {
    await mkdir(outDir, { recursive: true });
    await build({
      config: path.join(packageDir, 'tsup.config.ts'),
      outDir,
      dts: { only: true },
      clean: false,
      silent: true,
    });
    // Both at once: each tsc is a process of its own.
    results = { dom: compile('tsconfig.dom.json'), node: compile('tsconfig.node.json') };
    await Promise.allSettled(Object.values(results));
  }, TIMEOUT_MS);

  afterAll(() => rm(outDir, { recursive: true, force: true }));

  it('with the DOM lib (lib: ["ES2022", "DOM"], types: ["node"])', async () => {
    expect(await results.dom).toEqual({ code: 0, output: '' });
  });

  it('with Node globals only (lib: ["ES2022"], types: ["node"])', async () => {
    expect(await results.node).toEqual({ code: 0, output: '' });
  });
});
