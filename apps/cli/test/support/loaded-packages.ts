// Which npm packages a run of the built CLI loaded: the modules it resolved (recorded by
// fixtures/record-modules.mjs), each read as the packages it holds. A module under node_modules
// is its package; a chunk of the bundled CLI holds what its source map lists.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The `--import` preload that records the modules a process resolves. */
export const RECORD_MODULES = fileURLToPath(
  new URL('../fixtures/record-modules.mjs', import.meta.url),
);

/**
 * The environment that makes a Node process record its modules into `log`.
 *
 * @param log - The file the module URLs are appended to.
 * @returns `NODE_OPTIONS` and `GARUDA_MODULE_LOG`, to add to the run's environment.
 */
export function recordModulesEnv(log: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=${RECORD_MODULES}`, GARUDA_MODULE_LOG: log };
}

/** `…/node_modules/@scope/name/…` or `…/node_modules/name/…` → the package name (last one). */
function packageOf(file: string): string | undefined {
  const at = file.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const [first = '', second = ''] = file.slice(at + 'node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/**
 * The packages the modules recorded in `log` come from.
 *
 * @param log - The file the preload wrote.
 * @returns The package names (bundled ones found through each chunk's source map).
 */
export async function loadedPackages(log: string): Promise<Set<string>> {
  const urls = (await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith('file:'));
  const packages = new Set<string>();
  for (const file of new Set(urls.map((url) => fileURLToPath(url)))) {
    const direct = packageOf(file);
    if (direct !== undefined) {
      packages.add(direct);
      continue;
    }
    const map = `${file}.map`;
    if (!existsSync(map)) continue;
    const { sources } = JSON.parse(await readFile(map, 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const name = packageOf(source);
      if (name !== undefined) packages.add(name);
    }
  }
  return packages;
}
