import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildForChildren as build } from '@garuda/test-utils/build-for-children';

/** This package's folder. */
export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds this package's `src/index.ts` for the child processes of a test (see test-utils). */
export function buildForChildren(): ReturnType<typeof build> {
  return build(packageDir);
}

/** The child script run by the process tests. */
export const CHILD_SCRIPT = path.join(packageDir, 'test', 'fixtures', 'trust-child.mjs');
