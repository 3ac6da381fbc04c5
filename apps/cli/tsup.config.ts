import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineBuild } from '../../tsup.shared.ts';
import { workspaceSources } from './build/workspace-sources.ts';
import { zodCoreWithoutLocales } from './build/zod-core-locales.ts';
import { zodMiniCopy } from './build/zod-mini-copy.ts';

const PACKAGES = path.resolve('..', '..', 'packages');

/**
 * The modules @garuda/mcp-manager loads lazily (on a server's first start, sign-in or sign-out),
 * and the barrels it loads them through. Each is loaded only by manager code, which the server
 * group (src/command-groups/server.ts, or serve/demo, which re-export it) has loaded first. In
 * the CLI's bundle each re-exports that group too: loading and evaluating nothing more (the group
 * is there already when they load), it makes them reach the code the group reaches, so esbuild no
 * longer splits that code into a chunk per combination of lazy modules reaching it, and `status`
 * reads a few chunks instead of two dozen. What each module exports itself is unchanged (a
 * module's own exports win over `export *`).
 */
const AFTER_SERVER_GROUP = [
  'mcp-manager/src/start/start-server.ts',
  'mcp-manager/src/start/remote-connect.ts',
  'mcp-manager/src/elicit/elicitation.ts',
  'mcp-oauth/src/index.ts',
  'pinned-fetch/src/index.ts',
].map((file) => path.join(PACKAGES, file));
const SERVER_GROUP = path.resolve('src', 'command-groups', 'server.ts');

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
  // The CLI is bundled with every dependency (the workspace packages, the SDKs, zod…) into a few
  // chunks: Node then reads a handful of files instead of hundreds, unused code is left out,
  // and each command's chunk (loaded by its `run`, see registry.ts) pulls in only what that
  // command uses, so `--help` loads no SDK at all. The demo's test fixtures ride along into the
  // demo's own chunks. Only the native keychain binding stays a package of its own.
  noExternal: [/./],
  external: ['@napi-rs/keyring'],
  splitting: true,
  esbuildPlugins: [
    workspaceSources(
      PACKAGES,
      new Map(
        AFTER_SERVER_GROUP.map((file) => [
          file,
          `\nexport * from ${JSON.stringify(SERVER_GROUP)};\n`,
        ]),
      ),
    ),
    zodMiniCopy(),
    zodCoreWithoutLocales(),
  ],
  // Bundled CommonJS dependencies call require() for Node's built-ins and read __filename, which
  // an ES module lacks; this gives every chunk its own (none of the bundled code declares them).
  banner: {
    js: [
      "import { createRequire as __garudaCreateRequire } from 'node:module';",
      "import { fileURLToPath as __garudaFileURLToPath } from 'node:url';",
      'const require = __garudaCreateRequire(import.meta.url);',
      'const __filename = __garudaFileURLToPath(import.meta.url);',
      "const __dirname = __garudaFileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
});
