import { realpathSync } from 'node:fs';
import path from 'node:path';
import {
  bwrapArgs,
  existsInside,
  linuxMounts,
  visibleInside,
  writableInside,
  writableOnHost,
} from './bwrap-args.js';
import type { SandboxInfo } from './detect-sandbox.js';
import {
  InvalidPolicyError,
  SpawnFailedError,
  TransportErrorCode,
  UnprotectablePathError,
  quote,
} from './errors.js';
import { findCommand } from './find-command.js';
import { hiddenPaths, type HiddenPath } from './hidden-paths.js';
import { makeMountPoints } from './mount-points.js';
import {
  ancestors,
  isDirectory,
  isWithin,
  nearestExisting,
  resolveExisting,
} from './path-utils.js';
import { protectedPaths, type Protection } from './protected-paths.js';
import { hiddenAfterReveals, hidingLayers, revealsFor, type Reveals } from './revealed-paths.js';
import { sandboxEnv } from './sandbox-env.js';
import { resolvePolicy, type ResolvedPolicy, type SandboxPolicy } from './sandbox-policy.js';
import { seatbeltProfile } from './seatbelt-profile.js';

/**
 * What to spawn for a sandboxed server: pass it to `child_process.spawn(command, args, { env, cwd,
 * shell: false })`.
 */
export interface SandboxedCommand {
  /** The program to start: `bwrap`, `sandbox-exec`, or the server's own command (no sandbox). */
  readonly command: string;
  /** Its arguments; the server's argv comes last. */
  readonly args: string[];
  /**
   * The environment to spawn with: the allowlisted variables of the caller plus the server's own.
   * The sandbox passes exactly this on, so spawn with this object and nothing else.
   */
  readonly env: Record<string, string>;
  /** The working folder to spawn in (a real path). */
  readonly cwd: string;
  /**
   * Whether the command runs in an OS sandbox, and which; when it does not, why (from
   * `detectSandbox`), so a caller never mistakes a plain command for a sandboxed one.
   */
  readonly sandboxed:
    { readonly kind: 'bwrap' | 'seatbelt' } | { readonly kind: 'none'; readonly reason: string };
}

/** Where the sandboxes put temp files by default: Linux gets a private `/tmp`. */
const LINUX_TMP = '/tmp';
/** macOS's `/tmp` is a link to `/private/tmp`, and Seatbelt matches resolved paths. */
const MACOS_TMP = '/private/tmp';

function checkArgv(argv: readonly string[]): void {
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new InvalidPolicyError(
      'argv',
      'must be a non-empty array: the command and its arguments.',
    );
  }
  argv.forEach((arg, index) => {
    if (typeof arg !== 'string')
      throw new InvalidPolicyError(`argv[${index}]`, 'must be a string.');
    if (arg.includes('\0')) {
      throw new InvalidPolicyError(
        `argv[${index}]`,
        'contains a NUL character, which no program can receive.',
      );
    }
  });
  if (argv[0] === '') throw new InvalidPolicyError('argv[0]', 'must name the command to run.');
}

function checkSandbox(sandbox: SandboxInfo, platform: NodeJS.Platform): void {
  if (typeof sandbox !== 'object' || sandbox === null) {
    throw new InvalidPolicyError('sandbox', 'must be the result of detectSandbox().');
  }
  const expected =
    sandbox.kind === 'bwrap' ? 'linux' : sandbox.kind === 'seatbelt' ? 'darwin' : undefined;
  if (sandbox.kind !== 'none' && expected === undefined) {
    throw new InvalidPolicyError(
      'sandbox.kind',
      `must be "bwrap", "seatbelt" or "none", not ${quote(String(sandbox.kind))}.`,
    );
  }
  if (expected !== undefined && platform !== expected) {
    throw new InvalidPolicyError(
      'sandbox.kind',
      `"${sandbox.kind}" does not run on ${platform}; detect the sandbox for this platform.`,
    );
  }
  const needsCommand = sandbox.kind === 'bwrap';
  if (
    (needsCommand || sandbox.command !== undefined) &&
    sandbox.kind !== 'none' &&
    (typeof sandbox.command !== 'string' ||
      !sandbox.command.startsWith('/') ||
      sandbox.command.includes('\0'))
  ) {
    throw new InvalidPolicyError(
      'sandbox.command',
      `must be the absolute path of ${sandbox.kind === 'bwrap' ? 'bwrap' : 'sandbox-exec'}, as detectSandbox() returns it.`,
    );
  }
}

/**
 * Resolves argv[0] through the server's `PATH`, here, so a missing command is a clear error on
 * our side rather than bubblewrap's or sandbox-exec's "execvp" message from inside.
 */
function resolveCommand(
  command: string,
  env: Readonly<Record<string, string>>,
  cwd: string,
  visible: (file: string) => boolean,
): string {
  const found = findCommand(command, { searchPath: env.PATH, cwd });
  if (found === undefined)
    throw new SpawnFailedError(TransportErrorCode.COMMAND_NOT_FOUND, command);
  let real: string;
  try {
    real = realpathSync.native(found);
  } catch (error) {
    throw new SpawnFailedError(TransportErrorCode.COMMAND_NOT_FOUND, command, error);
  }
  if (!visible(found) || !visible(real)) {
    throw new SpawnFailedError(
      TransportErrorCode.COMMAND_NOT_FOUND,
      command,
      undefined,
      `it is at ${quote(real)}, which is not visible inside the sandbox (under /tmp, which the ` +
        'sandbox replaces with an empty private folder, or under a hidden folder); install it ' +
        'elsewhere or move it into the project.',
    );
  }
  return found;
}

function writableDirs(policy: ResolvedPolicy): string[] {
  return [
    policy.root,
    ...policy.writePaths.filter((entry) => entry.isDirectory).map((entry) => entry.path),
  ];
}

/**
 * Points `TMPDIR` at the sandbox's temp folder when the folder it names would not be writable
 * inside (on Linux the host's `/tmp/…` folders do not exist in the fresh `/tmp`), so programs
 * that honour `TMPDIR` still work.
 */
function fixTmpdir(
  env: Record<string, string>,
  writable: (dir: string) => boolean,
  fallback: string,
): void {
  const tmpdir = env.TMPDIR;
  if (tmpdir === undefined) return;
  let real: string | undefined;
  try {
    real = tmpdir.startsWith('/') ? realpathSync.native(tmpdir) : undefined;
  } catch {
    real = undefined;
  }
  if (real === undefined || !writable(real)) env.TMPDIR = fallback;
}

/**
 * A symbolic link at or above a credential path, in a folder the server may write, could be
 * replaced by a real folder or file of the server's (the rules and mounts name the link's
 * target), so the path could be created after all: refused, as for `.git`.
 */
function checkLinks(hidden: readonly HiddenPath[], writable: (dir: string) => boolean): void {
  for (const entry of hidden) {
    for (const link of entry.links) {
      if (writable(path.dirname(link))) throw new UnprotectablePathError(link);
    }
  }
}

/** What the read paths reveal of the hidden paths (see {@link revealsFor}). */
function revealsOf(policy: ResolvedPolicy, linux: boolean): Reveals {
  if (policy.readPaths.length === 0) return { revealed: [], rehidden: [] };
  const all = hiddenPaths(policy, { system: linux, macos: !linux, nested: true });
  return revealsFor(policy.readPaths, all, policy.home);
}

/**
 * Where the server's own cache is shown at `<home>/.cache` (see `SandboxPolicy.serverHome`):
 * the real place, made first when missing; none without a home folder, when `<home>/.cache` is
 * something other than a folder, or when the server's home lies inside it.
 */
function homeCacheMount(
  policy: ResolvedPolicy,
): { source: string; dest: string; create?: 'directory' } | undefined {
  const own = policy.serverHome;
  if (own?.cache === undefined) return undefined;
  const { real, missing } = nearestExisting(path.join(policy.home, '.cache'));
  if (missing.length > 1 || !isDirectory(real)) return undefined;
  const dest = missing.length === 0 ? real : path.join(real, ...missing);
  if (isWithin(own.dir, dest) || isWithin(dest, own.dir)) return undefined;
  return { source: own.cache, dest, ...(missing.length === 0 ? {} : { create: 'directory' }) };
}

function buildLinux(
  argv: readonly string[],
  policy: ResolvedPolicy,
  env: Record<string, string>,
  bwrap: string,
): SandboxedCommand {
  const hidden = hiddenPaths(policy, { system: true });
  const cache = homeCacheMount(policy);
  const ops = linuxMounts({
    writable: [policy.root, ...policy.writePaths.map((entry) => entry.path)],
    temps: [LINUX_TMP, ...policy.tempDirs.filter((dir) => dir !== LINUX_TMP)],
    readable: policy.readPaths.map((entry) => entry.path),
    protections: protectedPaths(policy),
    hidden,
    reveals: revealsOf(policy, true),
    ...(cache === undefined ? {} : { substitutes: [cache] }),
    ...(policy.serverHome === undefined ? {} : { screened: [policy.serverHome.homesDir] }),
  });
  // The engine's socket, last, over its hiding (see SandboxPolicy.engineSocket).
  if (policy.engineSocket !== undefined) {
    ops.push({ kind: 'ro-bind', source: policy.engineSocket, dest: policy.engineSocket });
  }
  checkLinks(hidden, (dir) => writableOnHost(ops, dir));
  if (!existsInside(ops, policy.cwd)) {
    throw new InvalidPolicyError(
      policy.cwd === policy.root ? 'root' : 'cwd',
      `${quote(policy.cwd)} would not be visible inside the sandbox (it is under a hidden or temp folder); choose another folder.`,
    );
  }
  fixTmpdir(env, (dir) => writableInside(ops, dir), LINUX_TMP);
  const command = resolveCommand(argv[0] as string, env, policy.cwd, (file) =>
    visibleInside(ops, file),
  );
  // Last, after every check: the only step that writes to this machine.
  const garudaHome = resolveExisting(policy.garudaHome);
  makeMountPoints(ops, (file) => (isWithin(file, garudaHome) ? 'garudaHome' : 'home'));
  return {
    command: bwrap,
    args: bwrapArgs({
      ops,
      network: policy.network,
      cwd: policy.cwd,
      argv: [command, ...argv.slice(1)],
    }),
    sandboxed: { kind: 'bwrap' },
    env,
    cwd: policy.cwd,
  };
}

/**
 * The folders above an existing hidden path that a server could rename (their own folder is
 * writable), taking the hidden files along out of the rules' reach (Seatbelt names paths, so
 * `mv ~/.docker ~/x` would make `~/x/config.json` readable). Denying writes to the folder itself
 * (a `literal` rule) stops the rename and leaves its entries writable. A missing path needs no
 * pin: its rule denies creating it wherever its folders are.
 */
function pinsAboveHidden(
  hidden: readonly HiddenPath[],
  writable: (dir: string) => boolean,
): Protection[] {
  const pins = new Map<string, Protection>();
  for (const entry of hidden) {
    if (entry.type === 'missing') continue;
    for (const dir of ancestors(entry.path)) {
      if (writable(path.dirname(dir))) pins.set(dir, { path: dir, kind: 'pin' });
    }
  }
  return [...pins.values()];
}

function buildMacos(
  argv: readonly string[],
  policy: ResolvedPolicy,
  env: Record<string, string>,
  sandboxExec: string,
): SandboxedCommand {
  const temps = [MACOS_TMP, ...policy.tempDirs.filter((dir) => dir !== MACOS_TMP)];
  const protections = protectedPaths(policy);
  const hidden = hiddenPaths(policy, { system: false, macos: true });
  const reveals = revealsOf(policy, false);
  const layers = hidingLayers(hidden, reveals);
  // Whether the server can see a path (a revealed one it can read); what it may write stays
  // outside every hidden path, revealed or not.
  const isHidden = (file: string): boolean => hiddenAfterReveals(layers, file);
  const screened = (file: string): boolean =>
    policy.serverHome !== undefined &&
    isWithin(file, policy.serverHome.homesDir) &&
    !isWithin(file, policy.serverHome.dir);
  const inHidden = (file: string): boolean =>
    hidden.some((entry) => isWithin(file, entry.path)) || screened(file);
  if (isHidden(policy.cwd)) {
    throw new InvalidPolicyError(
      policy.cwd === policy.root ? 'root' : 'cwd',
      `${quote(policy.cwd)} is inside a hidden folder; choose another folder.`,
    );
  }
  const writable = (dir: string): boolean =>
    [...writableDirs(policy), ...temps].some((base) => isWithin(dir, base)) &&
    !protections.some((entry) => entry.kind !== 'pin' && isWithin(dir, entry.path)) &&
    !inHidden(dir);
  checkLinks(hidden, writable);
  fixTmpdir(env, writable, MACOS_TMP);
  const command = resolveCommand(argv[0] as string, env, policy.cwd, (file) => !isHidden(file));
  const { profile, params } = seatbeltProfile({
    writable: [{ path: policy.root, isDirectory: true }, ...policy.writePaths],
    temps,
    protections: [...protections, ...pinsAboveHidden(hidden, writable)],
    hidden,
    reveals,
    network: policy.network,
    ...(policy.engineSocket === undefined ? {} : { engineSocket: policy.engineSocket }),
    ...(policy.serverHome === undefined
      ? {}
      : { serverHome: { dir: policy.serverHome.dir, homesDir: policy.serverHome.homesDir } }),
  });
  return {
    command: sandboxExec,
    args: ['-p', profile, ...params, '--', command, ...argv.slice(1)],
    env,
    cwd: policy.cwd,
    sandboxed: { kind: 'seatbelt' },
  };
}

/**
 * Wraps a server's argv in the OS sandbox found by `detectSandbox()`:
 *
 * - **`bwrap` (Linux)**: a hardened bubblewrap command line (no shell): new session, dies with
 *   its parent, every namespace unshared (the network is shared only with `network: true`), no
 *   new user namespaces, no capabilities; `/` read-only with a private `/dev`, `/proc` and an
 *   empty private `/tmp` (and `tempDirs`); writable: the root, the `writePaths` and the
 *   `serverHome` (the other homes beside it hidden, its cache shown at `~/.cache`); read-only
 *   even inside them: `.garuda`, `.git` (pinned), `.git/hooks`, `.git/config` and the hooks
 *   folder and include files `.git/config` names; hidden (last, so hiding wins): `garudaHome`,
 *   the credential files of {@link HIDDEN_HOME_PATHS} that exist and the sockets of
 *   {@link HIDDEN_SYSTEM_PATHS}; a read path at or inside a hidden credential path is bound
 *   read-only on top of its hiding (revealed, never writable), and what is hidden inside it is
 *   hidden again. Where the server may write the home folder (the root or a write
 *   path is or contains it), a missing credential path cannot be created either, and the
 *   folders above a hidden path cannot be renamed (pinned). The environment is `env` (pass it as
 *   spawn's `env`; bubblewrap hands it on and adds `PWD`); no value is put on the command line,
 *   which every local user can read.
 *   A missing `.garuda`, `.git/hooks` or `.git/config` is created empty on this machine (the
 *   mount needs a mount point) and stays empty; so is, where the home folder is writable inside,
 *   each missing credential path (a folder 0700, a file 0600; a file whose folder is missing
 *   gets only its folder), **by this function**, after every check: call it just before
 *   spawning.
 * - **`seatbelt` (macOS)**: `/usr/bin/sandbox-exec -p <profile> -- argv` with an SBPL profile of
 *   the same meaning (rendered and checked on every OS, run by the tests on macOS only): a
 *   revealed read path is an `(allow file-read* …)` rule after the deny rule of the hidden paths
 *   (the last matching rule wins); the macOS places of other MCP clients' server lists
 *   are hidden too.
 * - **`none`**: the argv unchanged, with the allowlisted environment, and `sandboxed` says
 *   `none` with the reason. The consent screen says "no OS sandbox: <reason>".
 *
 * With a sandbox, argv[0] is resolved here through the final environment's `PATH` (so a missing
 * command is a {@link SpawnFailedError} `TRANSPORT_COMMAND_NOT_FOUND` before anything starts); without one, the process
 * transport reports a missing command when it spawns.
 *
 * @param argv - The server's command and arguments (no shell).
 * @param policy - What the server may do; see {@link SandboxPolicy}.
 * @param sandbox - What `detectSandbox()` returned.
 * @returns What to spawn, and (`sandboxed`) whether it runs in a sandbox or why not.
 * @throws {@link InvalidPolicyError} for an unusable argv, policy or sandbox info (relative paths,
 *   NUL bytes, a root that is not an existing folder, a write or read path that does not exist,
 *   a read path at or inside `garudaHome` or a hidden socket place, a bad variable name, a
 *   sandbox kind for another platform…).
 * @throws {@link UnprotectablePathError} when `.garuda`, `.git`, `.git/hooks` or `.git/config` in
 *   a writable folder is a symbolic link, or a credential path (or a folder above it) is a
 *   symbolic link in a folder the server may write.
 * @throws {@link InvalidPolicyError} (field `home` or `garudaHome`) when a placeholder for a
 *   missing credential path cannot be created.
 * @throws {@link SpawnFailedError} `TRANSPORT_COMMAND_NOT_FOUND` when, with a sandbox, the command is not found or would
 *   not be visible inside.
 * @example
 * ```ts
 * const sandbox = await detectSandbox({ searchPath: process.env.PATH });
 * const { command, args, env, cwd } = buildSandbox(['github-mcp-server', 'stdio'], {
 *   root: '/home/ada/project',
 *   network: true,
 *   env: { GITHUB_PERSONAL_ACCESS_TOKEN: token },
 *   baseEnv: process.env,
 *   home: os.homedir(),
 *   garudaHome: path.join(os.homedir(), '.garuda'),
 * }, sandbox);
 * const child = spawn(command, args, { env, cwd, shell: false, stdio: 'pipe' });
 * ```
 */
export function buildSandbox(
  argv: readonly string[],
  policy: SandboxPolicy,
  sandbox: SandboxInfo,
): SandboxedCommand {
  checkArgv(argv);
  const resolved = resolvePolicy(policy);
  checkSandbox(sandbox, resolved.platform);
  const env = sandboxEnv(resolved.baseEnv, resolved.env, resolved.platform);

  switch (sandbox.kind) {
    case 'bwrap':
      return buildLinux(argv, resolved, env, sandbox.command as string);
    case 'seatbelt':
      return buildMacos(argv, resolved, env, sandbox.command ?? '/usr/bin/sandbox-exec');
    default:
      return {
        command: argv[0] as string,
        args: argv.slice(1),
        env,
        cwd: resolved.cwd,
        sandboxed: { kind: 'none', reason: sandbox.reason ?? 'no OS sandbox on this system' },
      };
  }
}
