// Small helpers for absolute, normalised paths, shared by the sandbox builders. @internal
import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The real path of `file` as far as it exists: its nearest existing ancestor resolved, the rest
 * appended. So a rule for a path that does not exist yet still names the folder the kernel will
 * see. @internal
 */
export function resolveExisting(file: string): string {
  const rest: string[] = [];
  let current = file;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return file;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** Whether `child` is `parent` or lies inside it (both absolute and normalised). @internal */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/** How deep a path is; parents sort before their children. @internal */
export function depth(file: string): number {
  return file.split(path.sep).filter(Boolean).length;
}
