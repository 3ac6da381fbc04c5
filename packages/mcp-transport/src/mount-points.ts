// The one place where building a sandbox writes to this machine: the placeholders that keep a
// missing credential path from being created inside (see PLACEHOLDER in bwrap-args.ts).
import { closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { PLACEHOLDER, type MountOp } from './bwrap-args.js';
import { InvalidPolicyError, UnprotectablePathError, quote } from './errors.js';

/** Creates `file` empty, never through a link and never over something that is there. */
function create(file: string, type: 'directory' | 'file', field: string): void {
  try {
    if (type === 'directory') mkdirSync(file, { mode: PLACEHOLDER.directoryMode });
    else closeSync(openSync(file, 'wx', PLACEHOLDER.fileMode));
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') {
      throw new InvalidPolicyError(
        field,
        `cannot create the empty placeholder ${quote(file)} that the sandbox mounts over ` +
          `(${code ?? 'unknown error'}).`,
        { cause: error },
      );
    }
  }
  // Something appeared since the plan was made (the user, another server): fine if it is of the
  // right kind, since the mount covers it; a link would lead the mount elsewhere.
  const stats = lstatSync(file);
  if (stats.isSymbolicLink()) throw new UnprotectablePathError(file);
  if (type === 'directory' ? !stats.isDirectory() : !stats.isFile()) {
    throw new InvalidPolicyError(
      field,
      `${quote(file)} appeared as something other than a ${type === 'directory' ? 'folder' : 'file'} while the sandbox was being built; start the server again.`,
    );
  }
}

/**
 * Makes the mount points that bubblewrap must find in place: for each mount with `create`, in
 * order (parents first), an empty folder (0700) or file (0600). Call it after every check, just
 * before spawning. @internal
 *
 * @param ops - The mounts, as {@link linuxMounts} returned them.
 * @param fieldOf - The policy field a path belongs to, for errors (`home` or `garudaHome`).
 * @throws {@link InvalidPolicyError} when a placeholder cannot be created.
 * @throws {@link UnprotectablePathError} when a symbolic link appeared in its place.
 */
export function makeMountPoints(ops: readonly MountOp[], fieldOf: (file: string) => string): void {
  for (const op of ops) {
    if ('create' in op && op.create !== undefined) create(op.dest, op.create, fieldOf(op.dest));
  }
}
