import path from 'node:path';

/**
 * Whether `child` is `parent` or inside it, by their resolved text (no file system access:
 * symbolic links are the sandbox's business). @internal
 */
export function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(path.resolve(parent), path.resolve(child));
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}
