// The config reader (@garuda/mcp-config) checks servers with `zod/mini`, which is built on zod's
// core; the MCP SDK uses classic zod, built on the same core and using nearly all of it. esbuild
// keeps a file's code for every importer it has and places each file in one chunk, so `list` and
// `status`, which read the config and load no SDK, compiled the whole core (about 300 KB, of which
// they run a sixth) at each start. This plugin gives `zod/mini` a copy of its own: every file
// reached from it is loaded again under a namespace of ours, so the bundler keeps of that copy
// only what the config reader uses, in the chunks that reach it, and the SDK's classic zod keeps
// the full core in its own chunks. Both copies share zod's global state, which zod keeps on
// `globalThis` (its config and registry), and the config reader never shows zod's own messages
// (it words each issue itself), so the checks and their results are the same. The copy is zod's
// published files as they are, except for the same `locales` re-export the core-locales plugin
// drops.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Options } from 'tsup';
import { withoutLocalesExport } from './zod-core-locales.ts';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const NAMESPACE = 'zod-mini-copy';
const RESOLVING = Symbol('resolving zod/mini');

/**
 * The plugin.
 *
 * @returns An esbuild plugin for tsup's `esbuildPlugins`.
 */
export function zodMiniCopy(): Plugin {
  return {
    name: 'zod-mini-copy',
    setup(build) {
      build.onResolve({ filter: /^zod\/mini$/ }, async (args) => {
        // The resolution below runs this callback again; that time zod's own answer is wanted.
        if (args.namespace === NAMESPACE || args.pluginData === RESOLVING) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: RESOLVING,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, namespace: NAMESPACE, sideEffects: false };
      });
      // zod's files import each other by relative paths only.
      build.onResolve({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        if (!args.path.startsWith('.')) {
          return { errors: [{ text: `zod/mini's copy imports ${args.path}, not a zod file` }] };
        }
        return {
          path: path.resolve(path.dirname(args.importer), args.path),
          namespace: NAMESPACE,
          sideEffects: false,
        };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => ({
        contents: withoutLocalesExport(args.path, await readFile(args.path, 'utf8')),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}
