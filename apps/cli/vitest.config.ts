import { readFileSync } from 'node:fs';
import { defineTests } from '../../vitest.shared.ts';

/** This package's version, as the build puts it into src/version.ts. */
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineTests(
  {
    // Safety nets only: each test runs the CLI (and its servers) several times over; a busy
    // machine makes that slow, and no test should fail for it.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
  { define: { __GARUDA_MCP_VERSION__: JSON.stringify(version) } },
);
