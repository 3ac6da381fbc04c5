// Small helpers for absolute, normalised paths, shared by the sandbox builders. @internal
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The real path of `file`, or `undefined` when it is missing, a dangling link, unreadable, a loop
 * or under something that is not a folder.
 */
function realIfExists(file: string): string | undefined {
  try {
    // A missing path is the common case (most hidden places do not exist): `statSync` says so
    // without building an error, which costs several times a lookup. It follows links as
    // `realpathSync` does, so a dangling link is missing either way.
    return statSync(file, { throwIfNoEntry: false }) === undefined
      ? undefined
      : realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/**
 * The nearest existing folder or file at or above `file`, as a real path, and the names below it
 * that do not exist (outermost first). A dangling symbolic link counts as missing. @internal
 */
export function nearestExisting(file: string): { real: string; missing: string[] } {
  const missing: string[] = [];
  let current = file;
  for (;;) {
    const real = realIfExists(current);
    if (real !== undefined) return { real, missing: missing.reverse() };
    const parent = path.dirname(current);
    if (parent === current) return { real: file, missing: [] };
    missing.push(path.basename(current));
    current = parent;
  }
}

/**
 * The real path of `file` as far as it exists: its nearest existing ancestor resolved, the rest
 * appended. So a rule for a path that does not exist yet still names the folder the kernel will
 * see. @internal
 */
export function resolveExisting(file: string): string {
  const { real, missing } = nearestExisting(file);
  return missing.length === 0 ? real : path.join(real, ...missing);
}

/**
 * {@link resolveExisting} that remembers what it resolved, the folders above included: many
 * paths under one folder (the hidden places of a home folder) resolve that folder once. For one
 * check at one moment; a path that changes later is not seen by it. @internal
 */
export function existingResolver(): (file: string) => string {
  const known = new Map<string, string>();
  const resolve = (file: string): string => {
    let real = known.get(file) ?? realIfExists(file);
    if (real === undefined) {
      const parent = path.dirname(file);
      real = parent === file ? file : path.join(resolve(parent), path.basename(file));
    }
    known.set(file, real);
    return real;
  };
  return resolve;
}

/** The folders above `file` (absolute and normalised), outermost first, without `/`. @internal */
export function ancestors(file: string): string[] {
  const found: string[] = [];
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    found.unshift(dir);
  }
  return found;
}

/** Whether `file` is a folder or a link to one (`false` when missing or unreadable). @internal */
export function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
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
