import { readFileSync } from 'node:fs';
import { defineBuild } from '../../tsup.shared.ts';

/** This package's version, built into the CLI (src/version.ts). */
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineBuild({
  entry: {
    index: 'src/index.ts',
    // The garuda-mcp command.
    bin: 'src/bin.ts',
    // The stdio server `garuda-mcp demo` starts (with process.execPath) in the sandbox.
    'demo-server': 'src/commands/demo/demo-server.ts',
  },
  dts: { entry: { index: 'src/index.ts' } },
  define: { __GARUDA_MCP_VERSION__: JSON.stringify(version) },
  // The demo runs on the test fixtures (stdio server, OAuth server, scripted browser). The CLI is
  // published without its test packages, so they are bundled into the demo's own chunks; the SDK
  // and zod they use stay external (they are dependencies of the CLI).
  noExternal: ['@garuda/test-utils'],
  external: ['@modelcontextprotocol/server', '@modelcontextprotocol/client', 'zod'],
});
