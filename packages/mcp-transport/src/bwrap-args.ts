// The bubblewrap command line, written by hand rather than through a library: nothing on npm
// fits Node 20 and per-server argv spawning (@anthropic-ai/sandbox-runtime needs Node ≥ 22 from
// 0.0.79 on, is a process-wide singleton with a shell-string API, and needs socat and ripgrep).
import path from 'node:path';
import type { HiddenPath } from './hidden-paths.js';
import { ancestors, depth, isWithin } from './path-utils.js';
import type { Protection } from './protected-paths.js';
import type { Reveals } from './revealed-paths.js';

/**
 * One mount, in the order bubblewrap performs them (a later mount covers an earlier one at or
 * above its path). @internal
 */
export type MountOp =
  | {
      readonly kind: 'ro-bind' | 'bind';
      readonly source: string;
      readonly dest: string;
      /** See {@link PLACEHOLDER}. */
      readonly create?: 'directory';
    }
  /** Only ever `/dev/null` onto a file: see {@link NULL_FILE}. */
  | {
      readonly kind: 'dev-bind';
      readonly source: '/dev/null';
      readonly dest: string;
      readonly create?: 'file';
    }
  | {
      readonly kind: 'tmpfs';
      readonly dest: string;
      readonly readOnly: boolean;
      readonly create?: 'directory';
    }
  | { readonly kind: 'dev' | 'proc'; readonly dest: string };

/**
 * Why some mounts carry `create`: a credential path that does not exist yet, in a folder the
 * server may write (the root or a write path is, or contains, the home folder), must not be
 * creatable from inside (a server could add `~/.ssh/authorized_keys`, or an `~/.aws/config`
 * whose `credential_process` runs on the user's next aws command). bubblewrap 0.8 cannot mount
 * onto a path that does not exist, and makes the missing mount point itself in the bound host
 * folder (folders 0755, files 0444: a 0444 history file would stop the shell from saving its
 * history, and gpg warns about a 0755 `~/.gnupg`). So we make the mount point ourselves before
 * bubblewrap runs, with the permissions the tool would give it: an empty folder (0700) or an
 * empty file (0600), with any missing folders above it as ordinary folders (0700). That is what
 * stays on this machine: empty, and nothing the server does lands in it. Inside, the folder is
 * read-only and empty, the file is the null device, and neither can be removed or renamed (a
 * mount point: EBUSY). Mounting over the parent instead would hide the whole home folder, and
 * bubblewrap 0.8 has no overlay mounts.
 */
export const PLACEHOLDER = Object.freeze({ directoryMode: 0o700, fileMode: 0o600 });

/** What the Linux sandbox is made of, in real paths. @internal */
export interface LinuxPlan {
  /** The root first, then the write paths. */
  readonly writable: readonly string[];
  /** `/tmp` first, then the policy's temp dirs: each an empty, private, writable folder. */
  readonly temps: readonly string[];
  /** Folders bound read-only on top of the temp folders (they are readable anyway elsewhere). */
  readonly readable?: readonly string[];
  readonly protections: readonly Protection[];
  readonly hidden: readonly HiddenPath[];
  /** Read paths that show a hidden credential path (read-only), and what stays hidden in them. */
  readonly reveals?: Reveals;
  /**
   * Folders of this machine shown writable at another place (the server's own cache at
   * `~/.cache`), made before the writable binds at the same depth, so a write path given
   * explicitly wins. `create`: the place is missing and is made first (see {@link PLACEHOLDER}).
   */
  readonly substitutes?: readonly {
    readonly source: string;
    readonly dest: string;
    readonly create?: 'directory';
  }[];
  /**
   * Folders hidden like a credential folder (an empty read-only folder) but before the writable
   * binds inside them, which stay: the folder of every server's home, with this server's own
   * home (a write path) inside.
   */
  readonly screened?: readonly string[];
}

/**
 * How a file is hidden or kept from being created: the null device bound over it, so it reads as
 * empty and writes vanish. `--dev-bind`, not `--ro-bind`: bubblewrap mounts `--ro-bind` with
 * `nodev`, so opening the device fails with EACCES, which breaks programs that merely read such a
 * file (npm and `~/.npmrc`, git and a missing include file). It is the same null device the
 * sandbox has in `/dev`, so nothing more is exposed.
 */
const NULL_FILE = (dest: string): MountOp & { kind: 'dev-bind' } => ({
  kind: 'dev-bind',
  source: '/dev/null',
  dest,
});

function coveringOp(ops: readonly MountOp[], file: string): MountOp | undefined {
  let last: MountOp | undefined;
  for (const op of ops) if (isWithin(file, op.dest)) last = op;
  return last;
}

/**
 * Whether `file` on this machine is what a sandboxed process sees at the same path (not hidden
 * by a temp folder, a hidden credential folder or `/dev/null`). @internal
 */
export function visibleInside(ops: readonly MountOp[], file: string): boolean {
  const op = coveringOp(ops, file);
  return (op?.kind === 'bind' || op?.kind === 'ro-bind') && op.source === op.dest;
}

/**
 * Whether the folder `dir` is a usable place inside: visible, or itself the top of a fresh temp
 * folder (not a hidden or placeholder folder, which is empty and read-only). @internal
 */
export function existsInside(ops: readonly MountOp[], dir: string): boolean {
  const op = coveringOp(ops, dir);
  return visibleInside(ops, dir) || (op?.kind === 'tmpfs' && !op.readOnly && op.dest === dir);
}

/**
 * Whether a process inside may create files in the folder `dir` (also a folder shown at another
 * place: what is written lands there). @internal
 */
export function writableInside(ops: readonly MountOp[], dir: string): boolean {
  const op = coveringOp(ops, dir);
  if (op?.kind === 'bind') return true;
  return op?.kind === 'tmpfs' && !op.readOnly && op.dest === dir;
}

/**
 * Whether a process inside may create, rename or remove entries of the folder `dir`, and that
 * lands on this machine (a writable bind of the host folder, not a fresh temp folder). @internal
 */
export function writableOnHost(ops: readonly MountOp[], dir: string): boolean {
  const op = coveringOp(ops, dir);
  return op?.kind === 'bind' && op.source === op.dest;
}

const byDepth = (ops: MountOp[]): MountOp[] => ops.sort((a, b) => depth(a.dest) - depth(b.dest));

function protectionOp(protection: Protection): MountOp {
  const dest = protection.path;
  switch (protection.kind) {
    case 'pin':
      return { kind: 'bind', source: dest, dest };
    case 'read-only':
      return { kind: 'ro-bind', source: dest, dest };
    case 'missing-directory':
      // bubblewrap creates the mount point, so an empty folder appears on this machine (the
      // bind above it is writable). It stays empty there; the server sees it read-only.
      return { kind: 'tmpfs', dest, readOnly: true };
    case 'missing-file':
      // Same side effect: an empty file appears on this machine (an empty git config means
      // the defaults). Inside, it reads as empty and writes to it vanish.
      return NULL_FILE(dest);
  }
}

/**
 * Pins (binds onto themselves) the folders above a hidden path that a server could rename: those
 * whose own folder is writable on this machine and that are no mount point already. Without it,
 * `mv ~/.docker ~/x` inside takes the hidden `config.json` mount along (a mount follows its
 * folder), and a new `~/.docker/config.json` can be written; a mount point cannot be renamed
 * (EBUSY). Folders below `existing` do not exist yet and are made first (see PLACEHOLDER).
 */
function pinAbove(
  before: readonly MountOp[],
  target: string,
  existing: string | undefined,
  pins: Map<string, MountOp>,
): void {
  for (const dir of ancestors(target)) {
    if (pins.has(dir) || !writableOnHost(before, path.dirname(dir))) continue;
    if (before.some((op) => op.dest === dir)) continue;
    const missing = existing !== undefined && dir !== existing && isWithin(dir, existing);
    pins.set(dir, {
      kind: 'bind',
      source: dir,
      dest: dir,
      ...(missing ? { create: 'directory' } : {}),
    });
  }
}

/** How an existing hidden path is hidden: an empty read-only folder, or the null device. */
function hideOp(hidden: HiddenPath): MountOp {
  return hidden.type === 'directory'
    ? { kind: 'tmpfs', dest: hidden.path, readOnly: true }
    : NULL_FILE(hidden.path);
}

/**
 * The mounts for a plan. Order matters, because each mount covers what is below it (a bind
 * brings the host folder, without the mounts made inside it earlier):
 * 1. `/` read-only, a minimal `/dev`, a `/proc` for the new PID namespace;
 * 2. the temp folders (fresh tmpfs), the substitutes, the writable binds, the screened folders
 *    and the pins above hidden paths, parents before children, so a root under `/tmp` is bound
 *    on top of the fresh `/tmp` rather than hidden by it, the server's own home on top of the
 *    screened folder of all homes, and a pin does not cover a write path inside it;
 * 3. the protections inside writable folders (after the binds, or a bind would cover them);
 * 4. the hidden paths, last, so hiding wins even inside the root or a write path (root = home),
 *    and the placeholders of missing credential paths that the server could otherwise create;
 *    among them, by depth, the revealed read paths (bound read-only from this machine, so never
 *    writable) and the hidden paths inside those, hidden again. A reveal inside a hidden folder
 *    gets its mount point in that folder's fresh tmpfs, which {@link mountArgs} makes read-only
 *    only after it.
 * Hidden paths that are not visible anyway (e.g. under the fresh `/tmp`) are left out: bubblewrap
 * would have to create a mount point for nothing. A missing credential path gets a placeholder
 * only where creating it would land on this machine. @internal
 */
export function linuxMounts(plan: LinuxPlan): MountOp[] {
  const head: MountOp[] = [
    { kind: 'ro-bind', source: '/', dest: '/' },
    { kind: 'dev', dest: '/dev' },
    { kind: 'proc', dest: '/proc' },
  ];
  const substitutes = plan.substitutes ?? [];
  const screened = plan.screened ?? [];
  const covers = [...plan.temps, ...substitutes.map((entry) => entry.dest), ...screened];
  const base: MountOp[] = [
    ...plan.temps.map((dest): MountOp => ({ kind: 'tmpfs', dest, readOnly: false })),
    // Only where a temp folder, a substitute or a screened folder would hide them: elsewhere
    // `/` is readable already.
    ...(plan.readable ?? [])
      .filter((dest) => covers.some((cover) => isWithin(dest, cover)))
      .map((dest): MountOp => ({ kind: 'ro-bind', source: dest, dest })),
    ...substitutes.map((entry): MountOp => ({
      kind: 'bind',
      source: entry.source,
      dest: entry.dest,
      ...(entry.create === undefined ? {} : { create: entry.create }),
    })),
    ...plan.writable.map((dest): MountOp => ({ kind: 'bind', source: dest, dest })),
    // After the writable binds at the same depth, so screening wins there.
    ...screened.map((dest): MountOp => ({ kind: 'tmpfs', dest, readOnly: true })),
  ];
  const protections = plan.protections.map(protectionOp);
  // Array.prototype.sort is stable: at equal depth temp folders come first, then read-only
  // binds, then substitutes; writable binds win over them, and screened folders over those.
  const before = [...head, ...byDepth([...base]), ...protections];

  const pins = new Map<string, MountOp>();
  const hides = new Map<string, MountOp>();
  for (const hidden of plan.hidden) {
    if (hidden.type !== 'missing') {
      if (!visibleInside(before, hidden.path)) continue;
      pinAbove(before, hidden.path, undefined, pins);
      hides.set(hidden.path, hideOp(hidden));
      continue;
    }
    const guard = hidden.guard;
    if (!guard || !writableOnHost(before, guard.existing) || hides.has(guard.path)) continue;
    pinAbove(before, guard.path, guard.existing, pins);
    hides.set(
      guard.path,
      guard.type === 'directory'
        ? { kind: 'tmpfs', dest: guard.path, readOnly: true, create: 'directory' }
        : { ...NULL_FILE(guard.path), create: 'file' },
    );
  }
  // At equal depth: the hiding, then the reveal of the same path (stable sort).
  const reveals = (plan.reveals?.revealed ?? []).map((entry): MountOp => ({
    kind: 'ro-bind',
    source: entry.path,
    dest: entry.path,
  }));
  const rehides = (plan.reveals?.rehidden ?? [])
    .filter((hidden) => hidden.type !== 'missing')
    .map(hideOp);
  return [
    ...head,
    ...byDepth([...base, ...pins.values()]),
    ...protections,
    ...byDepth([...hides.values(), ...reveals, ...rehides]),
  ];
}

/**
 * Where a read-only tmpfs at `ops[index]` is made read-only: after the last later mount inside
 * it (bubblewrap makes that mount's mount point in it, which a read-only tmpfs would refuse),
 * and before any mount that covers it. Usually at once.
 */
function remountIndex(ops: readonly MountOp[], index: number): number {
  const dest = (ops[index] as MountOp).dest;
  let last = index;
  for (let i = index + 1; i < ops.length; i++) {
    const other = (ops[i] as MountOp).dest;
    if (isWithin(dest, other)) break;
    if (isWithin(other, dest)) last = i;
  }
  return last;
}

/**
 * The bubblewrap options for a list of mounts. A read-only tmpfs is remounted read-only right
 * after it, or after the mounts made inside it (see `remountIndex`). The remount is not
 * recursive: a read-only bind inside stays as it is. @internal
 */
export function mountArgs(ops: readonly MountOp[]): string[] {
  const args: string[] = [];
  const remounts = new Map<number, string[]>();
  ops.forEach((op, index) => {
    switch (op.kind) {
      case 'ro-bind':
      case 'bind':
      case 'dev-bind':
        args.push(`--${op.kind}`, op.source, op.dest);
        break;
      case 'dev':
      case 'proc':
        args.push(`--${op.kind}`, op.dest);
        break;
      case 'tmpfs': {
        args.push('--tmpfs', op.dest);
        if (!op.readOnly) break;
        const at = remountIndex(ops, index);
        remounts.set(at, [...(remounts.get(at) ?? []), op.dest]);
        break;
      }
    }
    for (const dest of remounts.get(index) ?? []) args.push('--remount-ro', dest);
  });
  return args;
}

/**
 * The whole bubblewrap argv after the `bwrap` command itself: hardened namespace flags, mounts,
 * the working folder, then `--` and the server's argv. @internal
 *
 * - `--die-with-parent`: the sandbox dies with the process that started bubblewrap.
 * - `--new-session`: `setsid()`, so the server cannot push keystrokes into the user's terminal
 *   (TIOCSTI, CVE-2017-5226).
 * - `--unshare-all` (user, IPC, PID, network, UTS, cgroup namespaces) and `--share-net` only when
 *   the policy allows network.
 * - `--unshare-user --disable-userns`: the server cannot make new user namespaces (needs
 *   bubblewrap ≥ 0.8.0), which would give it back capabilities to mount over our mounts.
 * - `--cap-drop ALL`: no capabilities inside, also when the caller is root.
 *
 * No `--clearenv` / `--setenv`: the environment goes to bubblewrap as spawn's `env` (which
 * bubblewrap passes on unchanged, adding only `PWD`), never on the command line. A command line
 * is readable by every user of the machine (`/proc/<pid>/cmdline` is 0444, `ps` shows it), the
 * environment only by its owner (`/proc/<pid>/environ` is 0400), and a server's env usually
 * holds a token.
 */
export function bwrapArgs(options: {
  readonly ops: readonly MountOp[];
  readonly network: boolean;
  readonly cwd: string;
  readonly argv: readonly string[];
}): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all'];
  if (options.network) args.push('--share-net');
  args.push('--unshare-user', '--disable-userns', '--cap-drop', 'ALL');
  args.push(...mountArgs(options.ops));
  args.push('--chdir', options.cwd, '--', ...options.argv);
  return args;
}
