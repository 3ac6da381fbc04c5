import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the test build's entry (ESM), for child processes. */
    distEntry: string;
  }
}

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside node_modules, so the build resolves this package's dependencies like dist/ does, and
// neither git, eslint nor the published files ever see it.
const outDir = path.join(packageDir, 'node_modules', '.cache', 'mcp-config-test-build');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await build({
    config: false,
    entry: { index: path.join(packageDir, 'src', 'index.ts') },
    format: ['esm'],
    outDir,
    target: 'node20',
    platform: 'node',
    dts: false,
    sourcemap: false,
    clean: true,
    silent: true,
  });
  project.provide('distEntry', path.join(outDir, 'index.js'));
  return async () => {
    await rm(outDir, { recursive: true, force: true });
  };
}
