// Which hidden path a file is at or inside: what a host needs to word a consent screen or an
// error note, and what decides that a read path is refused.
import path from 'node:path';
import { InvalidPolicyError, quote } from './errors.js';
import { HIDDEN_HOME_PATHS, HIDDEN_SYSTEM_PATHS } from './hidden-paths.js';
import { existingResolver, isWithin } from './path-utils.js';

/** The hidden path that a file is at or inside: see {@link hiddenPathOf}. */
export interface HiddenPathMatch {
  /**
   * - `credential`: one of {@link HIDDEN_HOME_PATHS}; a read path can show it to one server.
   * - `garudaHome`: Garuda's own folder (tokens, trust); never shown to a server.
   * - `system`: one of {@link HIDDEN_SYSTEM_PATHS} (sockets that lead out); never shown.
   */
  readonly kind: 'credential' | 'garudaHome' | 'system';
  /** The hidden path itself, absolute, as the caller wrote `home` or `garudaHome` (no links resolved). */
  readonly path: string;
  /** For `credential`: its entry of {@link HIDDEN_HOME_PATHS}, e.g. `.kube`. */
  readonly name?: string;
}

function absolute(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.includes('\0') || !path.isAbsolute(value)) {
    throw new InvalidPolicyError(field, 'must be an absolute path without NUL characters.');
  }
  return path.resolve(value);
}

/** Whether `candidates` (a path and its real path) lie at or inside `hidden` or its real path. */
function within(
  candidates: readonly string[],
  hidden: string,
  resolve: (file: string) => string,
): boolean {
  const places = [hidden, resolve(hidden)];
  return candidates.some((file) => places.some((place) => isWithin(file, place)));
}

/**
 * Which path the OS sandbox hides that `file` is at or inside, if any: `garudaHome`, a hidden
 * system socket place (Linux), or a credential path under the home folder. Both the path as
 * written and its real path (symbolic links resolved, as far as it exists) are compared with
 * both forms of each hidden path, so a link either way is found. `garudaHome` is checked first,
 * then the system places, then the credential paths. A path that merely holds hidden paths
 * (the home folder) is none of them. Reads the file system (to resolve links), not the
 * environment.
 *
 * @param file - An absolute path.
 * @param options - `home`: the user's home folder; `garudaHome`: Garuda's own folder.
 * @returns What hides it, or `undefined` when nothing does.
 * @throws {@link InvalidPolicyError} when `file`, `home` or `garudaHome` is not an absolute path.
 * @example
 * ```ts
 * hiddenPathOf('/home/ada/.kube/config', { home: '/home/ada', garudaHome: '/home/ada/.garuda' });
 * // { kind: 'credential', path: '/home/ada/.kube', name: '.kube' }
 * ```
 */
export function hiddenPathOf(
  file: string,
  options: { readonly home: string; readonly garudaHome: string },
): HiddenPathMatch | undefined {
  const given = absolute('file', file);
  const home = absolute('home', options.home);
  const garudaHome = absolute('garudaHome', options.garudaHome);
  // One resolver for this check: the hidden places share their folders (the home folder, /run).
  const resolve = existingResolver();
  const candidates = [given, resolve(given)];
  if (within(candidates, garudaHome, resolve)) return { kind: 'garudaHome', path: garudaHome };
  for (const place of HIDDEN_SYSTEM_PATHS) {
    if (within(candidates, place, resolve)) return { kind: 'system', path: place };
  }
  for (const name of HIDDEN_HOME_PATHS) {
    const hidden = path.join(home, name);
    if (within(candidates, hidden, resolve)) return { kind: 'credential', path: hidden, name };
  }
  return undefined;
}

/**
 * Why a read path can never be shown to a server (it is at or inside `garudaHome` or a hidden
 * system place), or `undefined` when it may be. @internal
 */
export function neverShown(
  file: string,
  options: { readonly home: string; readonly garudaHome: string },
): string | undefined {
  const match = hiddenPathOf(file, options);
  if (match === undefined || match.kind === 'credential') return undefined;
  const where = path.resolve(file) === match.path ? 'is' : `leads into ${quote(match.path)},`;
  return match.kind === 'garudaHome'
    ? `${quote(file)} ${where} Garuda's own folder, which holds its tokens and trust: no ` +
        'server may read it. Remove it from the read paths.'
    : `${quote(file)} ${where} a place whose sockets lead out of the sandbox: no server may ` +
        'see it. Remove it from the read paths.';
}
