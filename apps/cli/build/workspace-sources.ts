// The CLI's bundle reads the workspace packages from their source, one module per file, and
// imports each name from the file that defines it rather than through the package's barrel
// (src/index.ts). Why: esbuild assigns whole files to chunks by which entry points reach them
// through imports, used or not, so one barrel import makes a command's chunk depend on every
// module of that package (`list` reading the config would load undici and the SDK client through
// @garuda/pinned-fetch's and @garuda/mcp-manager's barrels). Importing from the defining files
// keeps each command's chunks to the modules it uses. Behaviour is unchanged: the same source
// runs, bound to the same names; only the path to it is shorter.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/** Where a package exports a name from: the defining file and the name there. */
interface Origin {
  readonly file: string;
  readonly name: string;
}

const PACKAGE_NAME = /^@garuda\/([a-z-]+)$/;
/** `export { a, b as c, type D } from './file.js';` in a barrel (prettier's formatting). */
const BARREL_EXPORT = /^export\s*\{([^}]*)\}\s*from\s*'(\.[^']+)';/gm;
/** `import { a, b as c, type D } from '@garuda/x';` in a module (never `import type {…}`). */
const WORKSPACE_IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'(@garuda\/[a-z-]+)';/gm;

/** `a`, `b as c`, `type D` → [imported, local] pairs of the values (types are erased anyway). */
function valueNames(list: string): [string, string][] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '' && !item.startsWith('type '))
    .map((item) => {
      const [imported = '', local = imported] = item.split(/\s+as\s+/);
      return [imported, local];
    });
}

/**
 * The plugin.
 *
 * @param packagesDir - The workspace's `packages` folder.
 * @param appended - Text to add at the end of some of the packages' files (absolute path → text).
 * @returns An esbuild plugin for tsup's `esbuildPlugins`.
 */
export function workspaceSources(
  packagesDir: string,
  appended: ReadonlyMap<string, string> = new Map(),
): Plugin {
  const barrels = new Map<string, ReadonlyMap<string, Origin> | undefined>();

  /** The package's barrel, name → origin; `undefined` when it is not a workspace package. */
  function barrelOf(pkg: string): ReadonlyMap<string, Origin> | undefined {
    if (barrels.has(pkg)) return barrels.get(pkg);
    const index = path.join(packagesDir, pkg, 'src', 'index.ts');
    let origins: Map<string, Origin> | undefined;
    if (existsSync(index)) {
      origins = new Map();
      for (const [, list = '', from = ''] of readFileSync(index, 'utf8').matchAll(BARREL_EXPORT)) {
        const file = path.join(path.dirname(index), from.replace(/\.js$/, '.ts'));
        if (!existsSync(file)) continue;
        for (const [name, exported] of valueNames(list)) origins.set(exported, { file, name });
      }
    }
    barrels.set(pkg, origins);
    return origins;
  }

  /** One workspace import statement, its names taken from their defining files. */
  function rewrite(statement: string, list: string, specifier: string): string {
    const barrel = barrelOf(PACKAGE_NAME.exec(specifier)?.[1] ?? '');
    if (barrel === undefined) return statement;
    const direct: string[] = [];
    const rest: string[] = [];
    for (const [imported, local] of valueNames(list)) {
      const origin = barrel.get(imported);
      if (origin === undefined) rest.push(`${imported} as ${local}`);
      else
        direct.push(`import { ${origin.name} as ${local} } from ${JSON.stringify(origin.file)};`);
    }
    if (rest.length > 0) direct.push(`import { ${rest.join(', ')} } from '${specifier}';`);
    // The same number of lines, so the source map still points at the right lines below.
    const lines = statement.split('\n').length - 1;
    return direct.join(' ') + '\n'.repeat(lines);
  }

  return {
    name: 'garuda-workspace-sources',
    setup(build) {
      build.onResolve({ filter: PACKAGE_NAME }, (args) => {
        const index = path.join(packagesDir, args.path.slice('@garuda/'.length), 'src', 'index.ts');
        // The packages declare `sideEffects: false`; a barrel reached this way says so too.
        return existsSync(index) ? { path: index, sideEffects: false } : undefined;
      });
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const extra = appended.get(args.path) ?? '';
        if (!source.includes("from '@garuda/") && extra === '') return undefined;
        return {
          contents:
            source.replace(WORKSPACE_IMPORT, (statement, list: string, specifier: string) =>
              rewrite(statement, list, specifier),
            ) + extra,
          loader: 'ts',
        };
      });
    },
  };
}
