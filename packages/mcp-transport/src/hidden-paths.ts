import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { depth, isWithin, resolveExisting } from './path-utils.js';
import type { ResolvedPolicy } from './sandbox-policy.js';

/**
 * Credential files and folders, relative to the user's home folder, that a sandboxed server
 * never sees (besides Garuda's own `garudaHome`). On Linux a folder is replaced by an empty
 * read-only one and a file by an empty one; on macOS reads and writes are denied.
 *
 * @example
 * ```ts
 * HIDDEN_HOME_PATHS.includes('.ssh'); // true
 * ```
 */
export const HIDDEN_HOME_PATHS: readonly string[] = Object.freeze([
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.netrc',
  '.npmrc',
  '.docker/config.json',
  '.config/gcloud',
  '.kube',
  '.git-credentials',
  '.pypirc',
]);

/**
 * Places on Linux that hold Unix sockets which would let a server act outside the sandbox: the
 * per-user runtime folders (session D-Bus, `systemd --user`, gpg and ssh agents), the system
 * D-Bus, systemd's private socket, and container and VM engines (Docker, containerd, Podman,
 * CRI-O, snapd, libvirt). A read-only mount does not stop `connect()` to a socket, and a private
 * network namespace does not cover sockets on the file system, so they are hidden like credential
 * folders. This is a list of known places, not a filter: any other socket on the file system
 * stays reachable (no seccomp filter). On macOS, Unix sockets are network operations and are
 * denied by the profile instead.
 *
 * @example
 * ```ts
 * HIDDEN_SYSTEM_PATHS.includes('/run/docker.sock'); // true
 * ```
 */
export const HIDDEN_SYSTEM_PATHS: readonly string[] = Object.freeze([
  '/run/user',
  '/run/dbus',
  '/run/systemd/private',
  '/run/docker.sock',
  '/run/docker',
  '/var/run/docker.sock',
  '/run/containerd',
  '/run/podman',
  '/run/crio',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/run/libvirt',
]);

/** One path to hide. `missing` only appears when missing paths were asked for (macOS). @internal */
export interface HiddenPath {
  readonly path: string;
  readonly type: 'directory' | 'file' | 'missing';
}

function describeHidden(file: string, includeMissing: boolean): HiddenPath | undefined {
  try {
    lstatSync(file);
  } catch {
    return includeMissing ? { path: resolveExisting(file), type: 'missing' } : undefined;
  }
  let real: string;
  let isDirectory: boolean;
  try {
    // A link to a credential folder is hidden at its target: the link itself stays visible
    // inside, and leads to the hidden target.
    real = realpathSync.native(file);
    isDirectory = statSync(real).isDirectory();
  } catch {
    // A dangling link: nothing to read behind it.
    return includeMissing ? { path: resolveExisting(file), type: 'missing' } : undefined;
  }
  return { path: real, type: isDirectory ? 'directory' : 'file' };
}

/**
 * The paths to hide for a policy: `garudaHome`, the {@link HIDDEN_HOME_PATHS} under `home`, and
 * on Linux the {@link HIDDEN_SYSTEM_PATHS}. Real paths, without duplicates, parents before
 * children, and without paths inside another hidden folder (already hidden). @internal
 *
 * @param policy - The resolved policy.
 * @param options - `includeMissing`: also return paths that do not exist (a Seatbelt rule can
 *   name them, a bubblewrap mount cannot); `system`: include the Linux socket places.
 * @returns The paths to hide.
 */
export function hiddenPaths(
  policy: ResolvedPolicy,
  options: { includeMissing: boolean; system: boolean },
): HiddenPath[] {
  const wanted = [
    policy.garudaHome,
    ...HIDDEN_HOME_PATHS.map((relative) => path.join(policy.home, relative)),
    ...(options.system ? HIDDEN_SYSTEM_PATHS : []),
  ];
  const found = new Map<string, HiddenPath>();
  for (const file of wanted) {
    const hidden = describeHidden(file, options.includeMissing);
    if (hidden && !found.has(hidden.path)) found.set(hidden.path, hidden);
  }
  const sorted = [...found.values()].sort((a, b) => depth(a.path) - depth(b.path));
  const kept: HiddenPath[] = [];
  for (const hidden of sorted) {
    const covered = kept.some(
      (outer) =>
        outer.type !== 'file' && hidden.path !== outer.path && isWithin(hidden.path, outer.path),
    );
    if (!covered) kept.push(hidden);
  }
  return kept;
}
