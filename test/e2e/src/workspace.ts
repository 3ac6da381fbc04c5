import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { init, parse } from 'es-module-lexer';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export interface Workspace {
  dir: string;
  name: string;
  private: boolean;
  deps: Record<string, string>;
  devDeps: Record<string, string>;
  peerDeps: Record<string, string>;
}

/** Every workspace under packages/ and apps/ (the code that ships). */
export function shippedWorkspaces(): Workspace[] {
  const out: Workspace[] = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(repoRoot, group))) {
      const dir = join(repoRoot, group, name);
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const pj = JSON.parse(readFileSync(file, 'utf8'));
      out.push({
        dir,
        name: pj.name,
        private: pj.private === true,
        deps: pj.dependencies ?? {},
        devDeps: pj.devDependencies ?? {},
        peerDeps: pj.peerDependencies ?? {},
      });
    }
  }
  return out;
}

/** Source files of a workspace (tests included), relative to its folder. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name === 'dist') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|mts|js|mjs)$/.test(name)) out.push(relative(dir, p));
    }
  };
  walk(join(dir, 'src'));
  walk(join(dir, 'test'));
  return out;
}

/**
 * Module specifiers imported or re-exported by a source text (static and dynamic imports).
 * Comments are dropped first, so usage examples in TSDoc do not count.
 */
export function importsOf(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specs: string[] = [];
  const re =
    /(?:(?<![\w$.'"`])import\s*(?:[^'"()]*?\bfrom\s*)?|(?<![\w$.'"`])export\s+[^'"()]*?\bfrom\s*|(?<![\w$.'"`])import\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(re)) specs.push(m[1] as string);
  return specs;
}

/**
 * Module specifiers a built JavaScript file imports (static imports, re-exports and dynamic
 * imports of a literal), read by a real ES module lexer: a bundle's strings and code may hold
 * anything that looks like an import to a pattern (a message ending in "import" before a quote).
 */
export async function builtImportsOf(source: string): Promise<string[]> {
  await init;
  const [imports] = parse(source);
  return imports.flatMap((entry) => (entry.n === undefined ? [] : [entry.n]));
}
