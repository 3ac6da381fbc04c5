// Test helpers for the sandbox tests (not part of the package: index.ts does not export them,
// so tsup leaves them out). Real processes, real folders, cleaned up by the tests.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildSandbox, type SandboxedCommand } from '../../src/build-sandbox.js';
import { detectSandbox, type SandboxInfo, type SandboxKind } from '../../src/detect-sandbox.js';
import type { SandboxPolicy } from '../../src/sandbox-policy.js';

/** How a process ended. */
export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Folders for tests. Under `/var/tmp` by default: the sandbox replaces `/tmp` with an empty
 * folder, so a "hidden" file under `/tmp` would be invisible inside for the wrong reason and the
 * test could not fail. Real paths (on macOS `/var` is a link to `/private/var`, and both sandboxes
 * name real paths), so a test compares what the sandbox was given with what it wrote.
 */
export class TempDirs {
  readonly #dirs: string[] = [];

  make(prefix: string, base = '/var/tmp'): string {
    const dir = realpathSync.native(mkdtempSync(path.join(base, `garuda-sbx-${prefix}-`)));
    this.#dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** What {@link projectWithHome} makes the folders and policy of. */
export interface ProjectWithHomeOptions {
  /** Start of the temporary folder's name. */
  prefix: string;
  /** Where the temporary folder goes (default `/var/tmp`, see {@link TempDirs}). */
  base?: string;
  /** The project folder's name (default `project`). */
  rootName?: string;
  /** The server's PATH (default Node's folder, `/usr/bin` and `/bin`). */
  path?: string;
  /** The platform the policy is for, when not this machine's. */
  platform?: NodeJS.Platform;
}

/** A project folder, a home folder beside it, and the policy of a server in the project. */
export interface ProjectWithHome {
  readonly root: string;
  readonly home: string;
  readonly policy: SandboxPolicy;
}

/** Node's own folder: the default PATH of a test server starts with it. */
export const NODE_DIR = path.dirname(process.execPath);

/** A fresh project folder with a home folder beside it, and the policy of a server in it. */
export function projectWithHome(temp: TempDirs, options: ProjectWithHomeOptions): ProjectWithHome {
  const dir = temp.make(options.prefix, options.base);
  const root = path.join(dir, options.rootName ?? 'project');
  const home = path.join(dir, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const PATH = options.path ?? `${NODE_DIR}:/usr/bin:/bin`;
  return {
    root,
    home,
    policy: {
      root,
      home,
      garudaHome: path.join(home, '.garuda'),
      baseEnv: { PATH, HOME: home },
      ...(options.platform === undefined ? {} : { platform: options.platform }),
    },
  };
}

/**
 * The temporary folders of one test file (its `afterAll` removes them: vitest is not imported
 * here), and `setup()` making a {@link projectWithHome} in them.
 */
export function projectFolders(options: Omit<ProjectWithHomeOptions, 'base'>): {
  temp: TempDirs;
  setup: (base?: string) => ProjectWithHome;
} {
  const temp = new TempDirs();
  return { temp, setup: (base) => projectWithHome(temp, { ...options, base }) };
}

/**
 * A bubblewrap sandbox for the tests of the command line buildSandbox writes. Nothing runs it:
 * the os-sandbox-*.test.ts files run the real one.
 */
export const BWRAP: SandboxInfo = { kind: 'bwrap', command: '/usr/bin/bwrap', version: '0.8.0' };

/** Index of the option `flag` followed by `values` in `args` (-1 when absent). */
export function at(args: readonly string[], flag: string, ...values: string[]): number {
  return args.findIndex(
    (arg, i) => arg === flag && values.every((value, j) => args[i + 1 + j] === value),
  );
}

/** Writes a file, creating its folders. */
export function put(file: string, content = ''): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** A `#!/bin/sh` script, executable. */
export function script(file: string, body: string): string {
  put(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Folder entries, or the error code. */
export function list(dir: string): string[] | string {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  }
}

/** File content, or the error code. */
export function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return `!${(error as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/**
 * Everything under `dir` on this machine, by relative path: `folder <mode>`, `file <mode> <content>`
 * or `link`, so a test can assert exactly what is there (and what a sandbox left behind).
 */
export function tree(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const file = path.join(current, name);
      const relative = path.relative(dir, file);
      const stats = lstatSync(file);
      const mode = (stats.mode & 0o777).toString(8);
      if (stats.isSymbolicLink()) found[relative] = 'link';
      else if (stats.isDirectory()) {
        found[relative] = `folder ${mode}`;
        walk(file);
      } else found[relative] = `file ${mode} ${readFileSync(file, 'utf8')}`;
    }
  };
  walk(dir);
  return found;
}

/**
 * Runs what buildSandbox returned (no shell), killing it after `timeoutMs`: a safety net only
 * (every command here ends by itself), generous so that a busy machine cannot decide a result,
 * and below the 30 s test timeout so that a hang still shows what the command printed.
 */
export function run(cmd: SandboxedCommand, timeoutMs = 25_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      env: cmd.env,
      cwd: cmd.cwd,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** One file system operation for {@link FS_PROBE}. */
export type FsOp =
  | { readonly op: 'write' | 'append'; readonly path: string; readonly data?: string }
  | { readonly op: 'read' | 'readdir' | 'mkdir' | 'rm' | 'rmdir'; readonly path: string }
  | { readonly op: 'rename'; readonly path: string; readonly to: string };

/**
 * A node one-liner that performs the operations given as JSON in argv[1] and prints one JSON
 * array of results: `ok`, `ok:<content or entries>`, or the error code.
 */
export const FS_PROBE = `
const fs = require('node:fs');
const out = [];
for (const o of JSON.parse(process.argv[1])) {
  try {
    if (o.op === 'write') fs.writeFileSync(o.path, o.data ?? 'x');
    else if (o.op === 'append') fs.appendFileSync(o.path, o.data ?? 'x');
    else if (o.op === 'read') { out.push('ok:' + fs.readFileSync(o.path, 'utf8')); continue; }
    else if (o.op === 'readdir') { out.push('ok:' + fs.readdirSync(o.path).sort().join(',')); continue; }
    else if (o.op === 'mkdir') fs.mkdirSync(o.path);
    else if (o.op === 'rm') fs.rmSync(o.path, { recursive: true });
    else if (o.op === 'rmdir') fs.rmdirSync(o.path);
    else if (o.op === 'rename') fs.renameSync(o.path, o.to);
    out.push('ok');
  } catch (e) { out.push(e.code || String(e)); }
}
process.stdout.write(JSON.stringify(out));
`;

/** argv for {@link FS_PROBE}. */
export function fsProbeArgv(ops: readonly FsOp[]): string[] {
  return [process.execPath, '-e', FS_PROBE, JSON.stringify(ops)];
}

/** Parses {@link FS_PROBE}'s output, failing loudly with stderr when there is none. */
export function fsResults(result: RunResult): string[] {
  if (result.stdout === '') {
    throw new Error(
      `no output (exit ${String(result.code)}, ${String(result.signal)}): ${result.stderr}`,
    );
  }
  return JSON.parse(result.stdout) as string[];
}

/**
 * A node one-liner that connects to each Unix socket named in its arguments and prints one JSON
 * array of results: `data:<what the server sent>`, or the error code.
 */
export const CONNECT_PROBE = `
const net = require('node:net');
const tryOne = (p) => new Promise((r) => net.connect(p).on('data', (d) => r('data:' + d)).on('error', (e) => r(e.code)));
Promise.all(process.argv.slice(1).map(tryOne)).then((r) => process.stdout.write(JSON.stringify(r)));`;

/**
 * Unix socket servers on this machine at `paths`, each sending `reply` to whoever connects,
 * listening when the promise resolves.
 *
 * @returns A function that closes them all.
 */
export async function unixServers(
  paths: readonly string[],
  reply: string,
): Promise<() => Promise<void>> {
  const servers = paths.map((p) => net.createServer((c) => c.end(reply)).listen(p));
  const close = async (): Promise<void> => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  };
  try {
    await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
  } catch (error) {
    await close();
    throw error;
  }
  return close;
}

/**
 * The OS sandbox each platform must have: bubblewrap on Linux, Seatbelt (`sandbox-exec`) on
 * macOS, none elsewhere. With `GARUDA_REQUIRE_SANDBOX=1` (CI) a machine without its platform's
 * sandbox fails the tests instead of skipping them.
 *
 * @param platform - A Node platform name.
 * @returns The sandbox kind, or undefined where there is none yet.
 */
export function sandboxOfPlatform(platform: NodeJS.Platform): SandboxKind | undefined {
  if (platform === 'linux') return 'bwrap';
  if (platform === 'darwin') return 'seatbelt';
  return undefined;
}

/** Whether this machine must have its OS sandbox (CI sets it on Linux and macOS). */
export const SANDBOX_REQUIRED = process.env.GARUDA_REQUIRE_SANDBOX === '1';

/**
 * Whether this machine has a Linux file system layout (a real `/tmp`, no `/private`): the tests
 * of the bubblewrap command line build it from this machine's folders, so they run only here.
 */
export const LINUX_LAYOUT = process.platform === 'linux';

/**
 * A refusal by Seatbelt, for the assertions of its twins. It answers EPERM; EACCES is accepted
 * too, where macOS checks the file's own permissions first (neither is what a successful call,
 * or a missing file, gives).
 */
export const DENIED: unknown = expect.stringMatching(/^(EPERM|EACCES)$/);

/**
 * Seatbelt, for something inside a protected or hidden folder that does not exist: the folder
 * cannot be made, so the path stays missing (ENOENT), or its lookup is refused. Weak alone: each
 * test that uses it checks this machine afterwards (nothing made) and that making the folder
 * itself is {@link DENIED}.
 */
export const NOT_THERE: unknown = expect.stringMatching(/^(ENOENT|EPERM|EACCES)$/);

/**
 * What an operation gives inside each sandbox, for the assertions both share. bubblewrap hides
 * with mounts (an empty read-only folder, the null device, a read-only mount that cannot be
 * moved); Seatbelt refuses by path rule, always with the same error. Each entry is the result
 * {@link FS_PROBE} or {@link CONNECT_PROBE} prints.
 */
export interface Outcomes {
  /** Writing or creating inside a read-only place (outside the writable folders, `.git/hooks`…). */
  readonly readOnly: unknown;
  /** Renaming or removing a protected path itself (bubblewrap: a mount point, EBUSY). */
  readonly pinned: unknown;
  /** Reading a file inside a hidden folder (bubblewrap: the folder is empty, ENOENT). */
  readonly inHidden: unknown;
  /** Reading a hidden file (bubblewrap: the null device, empty). */
  readonly hiddenFile: unknown;
  /** Writing a hidden file (bubblewrap: the null device, the write vanishes). */
  readonly writeHiddenFile: unknown;
  /**
   * Listing a hidden folder. bubblewrap: empty, but for the mount points of what a read path
   * reveals in it (`shown`); Seatbelt: refused, also when a file in it is revealed.
   */
  readonly listHidden: (...shown: string[]) => unknown;
  /** Connecting to a TCP server on this machine without network (bubblewrap: only `lo`). */
  readonly noNetwork: unknown;
}

const OUTCOMES: Record<'bwrap' | 'seatbelt', Outcomes> = {
  bwrap: {
    readOnly: 'EROFS',
    pinned: 'EBUSY',
    inHidden: 'ENOENT',
    hiddenFile: 'ok:',
    writeHiddenFile: 'ok',
    listHidden: (...shown) => `ok:${shown.join(',')}`,
    noNetwork: 'ECONNREFUSED',
  },
  seatbelt: {
    readOnly: DENIED,
    pinned: DENIED,
    inHidden: DENIED,
    hiddenFile: DENIED,
    writeHiddenFile: DENIED,
    listHidden: () => DENIED,
    noNetwork: DENIED,
  },
};

/** What the test files that run the real OS sandbox share: see {@link osSandboxCases}. */
export interface OsSandboxCases {
  /** This machine's sandbox, as detectSandbox finds it. */
  readonly sandbox: SandboxInfo;
  /** Its kind: the tests run for `bwrap` and `seatbelt` and are skipped for `none`. */
  readonly kind: SandboxKind;
  /** Whether there is one: the tests that run it are skipped otherwise. */
  readonly available: boolean;
  /**
   * The name of a file's suite, saying which sandbox runs it: "bubblewrap sandbox (real
   * processes)" on Linux, "Seatbelt sandbox, twin of the bubblewrap tests (real processes)" on
   * macOS, so a report shows which one was proven.
   */
  readonly suite: string;
  /** What the shared assertions expect of this sandbox (bubblewrap's outcomes when skipped). */
  readonly is: Outcomes;
  /** `it`, run only under bubblewrap: for what Linux alone has (namespaces, /proc, mounts). */
  readonly onBwrap: ReturnType<typeof it.runIf>;
  /** `it`, run only under Seatbelt: a twin where macOS differs (path rules, no private /tmp). */
  readonly onSeatbelt: ReturnType<typeof it.runIf>;
  /** The test file's folders (removed after its tests). */
  readonly temp: TempDirs;
  /** A project with a home folder next to it, both outside /tmp. */
  readonly setup: () => ProjectWithHome;
  /** Runs {@link FS_PROBE} in the sandbox under `policy` and returns its results. */
  readonly probe: (policy: SandboxPolicy, ops: readonly FsOp[]) => Promise<string[]>;
  /**
   * Runs the operations of `steps` like {@link OsSandboxCases.probe}, for `expect(results)
   * .toEqual(expected)`: each operation stands beside the result it must give.
   */
  readonly probeSteps: (
    policy: SandboxPolicy,
    steps: readonly FsStep[],
  ) => Promise<{ results: string[]; expected: unknown[] }>;
}

/** One file system operation and the result the sandbox must give it. */
export type FsStep = readonly [op: FsOp, result: unknown];

/**
 * Finds this machine's sandbox and makes the helpers of the tests that run it for real: the same
 * test bodies prove bubblewrap on Linux and Seatbelt on macOS (its twin). They run wherever
 * detectSandbox() finds one (our machines and CI) and are skipped loudly elsewhere. Call it at the
 * top of a test file: it registers the `afterAll` that removes the file's folders.
 */
export async function osSandboxCases(): Promise<OsSandboxCases> {
  const sandbox = await detectSandbox({ searchPath: process.env.PATH });
  const kind = sandbox.kind;
  const { temp, setup } = projectFolders({
    prefix: 'case',
    path: process.env.PATH ?? '/usr/bin:/bin',
  });
  const probe = async (policy: SandboxPolicy, ops: readonly FsOp[]): Promise<string[]> =>
    fsResults(await run(buildSandbox(fsProbeArgv(ops), policy, sandbox)));
  const wanted = sandboxOfPlatform(process.platform);
  afterAll(() => temp.cleanup());
  // Without a sandbox the suite is skipped, and its name in the report says why and what to
  // install (test support prints nothing of its own; GARUDA_REQUIRE_SANDBOX=1 makes it a failure).
  const missing =
    `SKIPPED, no OS sandbox here: ${sandbox.reason ?? kind}` +
    (wanted === undefined ? '' : `; install ${wanted === 'bwrap' ? 'bubblewrap' : 'sandbox-exec'}`);
  return {
    sandbox,
    kind,
    available: kind !== 'none',
    suite:
      kind === 'seatbelt'
        ? 'Seatbelt sandbox, twin of the bubblewrap tests (real processes)'
        : kind === 'bwrap'
          ? 'bubblewrap sandbox (real processes)'
          : `OS sandbox (real processes): ${missing}`,
    is: OUTCOMES[kind === 'seatbelt' ? 'seatbelt' : 'bwrap'],
    onBwrap: it.runIf(kind === 'bwrap'),
    onSeatbelt: it.runIf(kind === 'seatbelt'),
    temp,
    setup: () => setup(),
    probe,
    probeSteps: async (policy, steps) => {
      const ops = steps.map(([op]) => op);
      return { results: await probe(policy, ops), expected: steps.map(([, result]) => result) };
    },
  };
}

/**
 * Processes on this machine whose command line contains `marker` and, when given, starts with
 * `prefix` (NUL-separated arguments). Scans /proc: Linux only.
 */
export function processesWith(marker: string, prefix = ''): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith(prefix) && cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Waits until `check` is true, or fails after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The credential paths as the sandbox tests (bubblewrap and Seatbelt) expect them, written out
 * rather than taken from the code, so a path that is dropped or turned from a folder into a file
 * shows up in both.
 */
export const CREDENTIAL_FOLDERS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.kube',
  '.azure',
  '.password-store',
  '.local/share/keyrings',
  '.local/share/kwalletd',
];
export const CREDENTIAL_FILES = [
  '.netrc',
  '.npmrc',
  '.docker/config.json',
  '.git-credentials',
  '.config/git/credentials',
  '.pypirc',
  '.cargo/credentials.toml',
  '.cargo/credentials',
  '.cursor/mcp.json',
  '.claude.json',
  '.config/Claude/claude_desktop_config.json',
  '.config/Code/User/mcp.json',
  '.gemini/settings.json',
  '.codex/config.toml',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.dockercfg',
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.local/share/fish/fish_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.lesshst',
];
