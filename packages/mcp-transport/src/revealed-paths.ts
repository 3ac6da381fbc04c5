// Read paths that show a server a hidden credential path, and what must stay hidden inside them.
// Both sandboxes build on the same layers: the hidden paths, then the revealed ones (read-only),
// then the hidden paths inside those, the deepest layer winning.
import path from 'node:path';
import { HIDDEN_HOME_PATHS, type HiddenPath } from './hidden-paths.js';
import { depth, isWithin, resolveExisting } from './path-utils.js';

/** A read path at or inside a hidden credential path: shown, read-only. @internal */
export interface RevealedPath {
  /** Its real path. */
  readonly path: string;
  readonly isDirectory: boolean;
}

/** What the read paths reveal, and what is hidden again inside it. @internal */
export interface Reveals {
  /** The read paths at or inside a credential path of the home folder that exists. */
  readonly revealed: readonly RevealedPath[];
  /**
   * Hidden paths strictly inside a revealed folder (a credential folder linked into it, or
   * `garudaHome`), not themselves named by a read path: hidden again on top of the reveal.
   */
  readonly rehidden: readonly HiddenPath[];
}

function hides(hidden: HiddenPath, file: string): boolean {
  if (hidden.type === 'file') return file === hidden.path;
  return isWithin(file, hidden.path);
}

/**
 * Whether a read path names a credential path by what is written: the path as given lies at or
 * inside `<home>/<entry>` for an entry of {@link HIDDEN_HOME_PATHS}, and its real path at or
 * inside the real path of that same entry. So only what a config writes (and a consent screen
 * shows) can reveal a credential: not a link elsewhere that leads into one (a repository's
 * `vendor/data` replaced by a link to `~/.aws` after it was trusted), nor a link inside one
 * credential folder that leads into another.
 */
function namesCredential(read: ReadPath, home: string): boolean {
  const homes = [home, resolveExisting(home)];
  return HIDDEN_HOME_PATHS.some((entry) => {
    const written = homes.some((dir) => isWithin(read.given, path.join(dir, entry)));
    return written && isWithin(read.path, resolveExisting(path.join(home, entry)));
  });
}

/** A read path of the resolved policy: its real path, and the path as given. @internal */
export interface ReadPath extends RevealedPath {
  readonly given: string;
}

/**
 * Which read paths reveal a hidden path: one that names a credential path of the home folder
 * (see `namesCredential`) whose real path is hidden (`list: 'home'`, existing). `garudaHome` and
 * the system places are refused before (see `neverShown`) and, should one cover the path here,
 * it is not revealed. A read path that holds hidden paths reveals none of them (it is no
 * reveal). @internal
 *
 * @param readPaths - The policy's read paths.
 * @param allHidden - Every hidden path, nested ones included (`hiddenPaths(…, { nested: true })`).
 * @param home - The user's home folder, as the policy gives it.
 * @returns The revealed paths and the paths to hide again inside them.
 */
export function revealsFor(
  readPaths: readonly ReadPath[],
  allHidden: readonly HiddenPath[],
  home: string,
): Reveals {
  const revealed = readPaths
    .filter((read) => {
      const at = allHidden.filter(
        (hidden) => hidden.type !== 'missing' && hides(hidden, read.path),
      );
      return (
        at.length > 0 && at.every((hidden) => hidden.list === 'home') && namesCredential(read, home)
      );
    })
    .map((read): RevealedPath => ({ path: read.path, isDirectory: read.isDirectory }));
  const rehidden = allHidden.filter(
    (hidden) =>
      revealed.some(
        (read) => read.isDirectory && hidden.path !== read.path && isWithin(hidden.path, read.path),
      ) && !revealed.some((read) => read.path === hidden.path && hidden.list === 'home'),
  );
  return { revealed, rehidden };
}

/** One layer of hiding: a hidden path, or a revealed one on top of it. @internal */
export type HidingLayer =
  | { readonly reveal: false; readonly hidden: HiddenPath }
  | { readonly reveal: true; readonly revealed: RevealedPath };

/**
 * The hidden paths and the reveals in the order they apply: by depth, and at equal depth a hidden
 * path before the reveal of the same path, so the deepest layer wins and a reveal wins over the
 * hiding it names. @internal
 *
 * @param hidden - The hidden paths (without nested ones).
 * @param reveals - From {@link revealsFor}.
 * @returns The layers, outermost first.
 */
export function hidingLayers(hidden: readonly HiddenPath[], reveals: Reveals): HidingLayer[] {
  const layers: { layer: HidingLayer; at: string }[] = [
    ...hidden.map((entry) => ({
      layer: { reveal: false, hidden: entry } as const,
      at: entry.path,
    })),
    ...reveals.revealed.map((entry) => ({
      layer: { reveal: true, revealed: entry } as const,
      at: entry.path,
    })),
    ...reveals.rehidden.map((entry) => ({
      layer: { reveal: false, hidden: entry } as const,
      at: entry.path,
    })),
  ];
  // Array.prototype.sort is stable: at equal depth the order above holds.
  return layers.sort((a, b) => depth(a.at) - depth(b.at)).map((entry) => entry.layer);
}

/**
 * Whether `file` is hidden inside the sandbox, after the reveals: the last layer that covers it
 * decides. @internal
 */
export function hiddenAfterReveals(layers: readonly HidingLayer[], file: string): boolean {
  let hidden = false;
  for (const layer of layers) {
    if (!layer.reveal) {
      if (hides(layer.hidden, file)) hidden = true;
    } else if (
      layer.revealed.isDirectory
        ? isWithin(file, layer.revealed.path)
        : file === layer.revealed.path
    ) {
      hidden = false;
    }
  }
  return hidden;
}
