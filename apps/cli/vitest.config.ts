import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineTests } from '../../vitest.shared.ts';

/** This package's version, as the build puts it into src/version.ts. */
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineTests(
  {
    // Safety nets only: each test runs the CLI (and its servers) several times over; a busy
    // machine makes that slow, and no test should fail for it.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // At least two files at a time, even on two cores (vitest's default there is one; elsewhere it
    // is one fewer than the cores, kept): a file here spends most of its time waiting for the CLI,
    // its sandbox and its servers to start, not computing.
    // Measured at load 13-32 on two cores: 28.5 min one file at a time, 13.4 min two at a time,
    // all passing, with the same time summed over the files (so no file was slowed by the other).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
  { define: { __GARUDA_MCP_VERSION__: JSON.stringify(version) } },
);
