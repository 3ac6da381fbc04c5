// zod's core entry (`zod/v4/core/index.js`) re-exports its 60-odd error-message translations as
// `locales`, 370 KB of code. esbuild places each file in the chunk of the lazily loaded modules
// that reach it through imports, and the config reader (@garuda/mcp-config, on `zod/mini`)
// reaches that entry, so `list` and `status` loaded and compiled every translation at each start
// although none of them is used (the config reader words its own messages, and classic zod,
// which the SDK uses, takes its English messages from `locales/en.js` directly and exports its
// own `locales`). Without the re-export, the translations stay in the chunks of the modules that
// use classic zod. Nothing in the bundle reads `core.locales`; the build fails if zod's entry no
// longer has the line, so that a zod update is looked at rather than silently bundled whole.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const CORE_INDEX = /[\\/]zod[\\/]v4[\\/]core[\\/]index\.js$/;
const LOCALES_EXPORT = 'export * as locales from "../locales/index.js";\n';

/**
 * A zod file's text as bundled: zod's core entry without its `locales` re-export, any other
 * file as it is.
 *
 * @param file - The file's path.
 * @param text - Its text.
 * @returns The text to bundle.
 * @throws When the core entry no longer has the line.
 */
export function withoutLocalesExport(file: string, text: string): string {
  if (!CORE_INDEX.test(file)) return text;
  if (!text.includes(LOCALES_EXPORT)) {
    throw new Error(`${file} no longer re-exports the locales as expected`);
  }
  return text.replace(LOCALES_EXPORT, '');
}

/**
 * The plugin.
 *
 * @returns An esbuild plugin for tsup's `esbuildPlugins`.
 */
export function zodCoreWithoutLocales(): Plugin {
  return {
    name: 'zod-core-without-locales',
    setup(build) {
      build.onLoad({ filter: CORE_INDEX }, async (args) => ({
        contents: withoutLocalesExport(args.path, await readFile(args.path, 'utf8')),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}
