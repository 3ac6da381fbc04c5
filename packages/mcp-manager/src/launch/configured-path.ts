import path from 'node:path';

/**
 * Resolves a configured path: `~` and `~/…` against the user's home folder, a relative path
 * against the project root. @internal
 *
 * @param value - As written in the config (a write path, read path or `cwd`).
 * @param where - The project root and the user's home folder (absolute).
 * @returns An absolute path.
 */
export function configuredPath(
  value: string,
  where: { readonly root: string; readonly userHome: string },
): string {
  if (value === '~') return where.userHome;
  if (value.startsWith('~/')) return path.join(where.userHome, value.slice(2));
  return path.resolve(where.root, value);
}
