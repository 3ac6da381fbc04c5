import path from 'node:path';

/** The folders a local server's sandbox is decided against (resolved). @internal */
export interface SandboxFolders {
  /** The project folder (a server's working folder: relative paths are taken from it). */
  readonly root: string;
  /** The user's home folder (its credential paths are hidden from servers). */
  readonly userHome: string;
  /** Garuda's own folder: tokens and trust, which no server may see. */
  readonly garudaHome: string;
}

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
