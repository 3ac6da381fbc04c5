import { capLine } from '@garuda/internal';
// The download step of a start through npm's package runner (`npx`, `npm exec`): before the
// server is started, the runner downloads its packages alone, in the same sandbox and cache the
// server will use, under a limit of its own; then the start's own limit covers only the connect.
// A download that did not finish (killed at its limit, or by a closing host) leaves no marker,
// and the next start removes what it left in the cache before downloading again, so a
// half-written cache never breaks a start. A warm start skips the step: when the marker names
// exactly the server's packages and each is an exact registry version, the runner would find
// them all in the cache and fetch nothing, so no runner is run and nothing says "downloading".
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LocalServerConfig } from '@garuda/mcp-config';
import { buildSandbox } from '@garuda/mcp-transport';
import { cleanLine } from '@garuda/mcp-sanitize';
import { seconds } from '../start/connection-types.js';
import type { LocalPlan } from './launch-phase.js';
import { isOfflineMiss, packageLaunch, type PackageLaunch } from './package-launch.js';
import { programName, runnerOf } from './package-runners.js';
import { isBrokenCache, runnerCause } from './runner-cause.js';
import { messageOf, quoteText } from '../common/text.js';
import { CANCELLED_DETAIL } from '../start/trust-phases.js';

/** The file in a server's runner cache that says its last download finished, and of what. */
export const DOWNLOAD_MARKER = 'garuda-download.json';

/** Where npm's runner installs what it downloads, inside its cache folder. */
const NPX_FOLDER = '_npx';

/** The most stderr lines kept of a download. */
const STDERR_LINES = 60;

/** How long a killed download may take to end before we stop waiting for it. */
const KILL_WAIT_MS = 10_000;

/**
 * The step a server's start is at: `downloading` (its package runner fetches its packages) or
 * `starting` (its process starts, connects and lists its tools).
 */
export type StartStep = 'downloading' | 'starting';

/** A server's start moved to a new step (the manager's `onStartStep`). */
export interface StartStepEvent {
  readonly server: string;
  readonly step: StartStep;
  /** For `downloading`: the packages being fetched, as written (cleaned, one line each). */
  readonly packages: readonly string[];
  /**
   * For `downloading`, `true` when the server's cache already holds these packages from a
   * finished download and some are not pinned to an exact version: the runner only asks the
   * registry whether a newer version is out, and downloads only if one is. A host says
   * "checking <package> for a newer version…" then, not "downloading". Absent otherwise.
   */
  readonly checking?: true;
}

/** What the download step needs of the manager, given once. @internal */
export interface DownloadDeps {
  /** The limit of one download, in ms. */
  readonly downloadTimeoutMs: number;
  /** Keeps a killed download's end, for the manager's `close()` to wait for. */
  readonly track: (stopping: Promise<void>) => void;
}

/** How a download step ended when it did not succeed. @internal */
export interface DownloadFailure {
  readonly state: 'failed' | 'stopped';
  readonly detail: string;
}

/** One run of the runner. */
interface RunResult {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly stderr: readonly string[];
  readonly spawnError?: string;
}

/** The packages a download fetches: those of npm's runner, none of them a local path. */
function downloadable(launch: PackageLaunch | undefined): PackageLaunch | undefined {
  if (launch?.cache !== 'npm' || launch.packages.length === 0) return undefined;
  return launch.packages.some((entry) => entry.pin === 'local') ? undefined : launch;
}

/**
 * The command line that makes npm's runner download a server's packages and run nothing of
 * them: the runner as the server's command calls it (`npx`, `/usr/bin/npx`, `npm exec`), the
 * options of the server's command that say where from (`--registry`, `--userconfig`…), then
 * `--yes --package=<spec>… -- node -e 0`. @internal
 *
 * @param argv - The server's command and arguments.
 * @param launch - What `packageLaunch` found in them.
 * @returns The download's command line, or `undefined` when it is not one of npm's runners.
 */
export function downloadArgv(argv: readonly string[], launch: PackageLaunch): string[] | undefined {
  const [command, ...rest] = argv;
  if (command === undefined) return undefined;
  const found = runnerOf(programName(command), rest);
  if (found === undefined || found.runner.cache !== 'npm') return undefined;
  const { runner, args } = found;
  const prefix = argv.slice(0, argv.length - args.length);
  const kept: string[] = [];
  let i = 0;
  while (i < args.length) {
    const word = args[i] as string;
    if (word === '--' || !word.startsWith('-') || word === '-') break;
    const eq = word.indexOf('=');
    const name = eq > 0 && word.startsWith('--') ? word.slice(0, eq) : word;
    const takesValue =
      runner.packageOptions.has(name) ||
      runner.scriptOptions.has(name) ||
      runner.valueOptions.has(name);
    const length = eq < 0 && takesValue ? 2 : 1;
    if (runner.valueOptions.has(name)) kept.push(...args.slice(i, i + length));
    i += length;
  }
  return [
    ...prefix,
    ...kept,
    '--yes',
    ...launch.packages.map((entry) => `--package=${entry.spec}`),
    '--',
    'node',
    '-e',
    '0',
  ];
}

/** The package list a marker names (`undefined` when there is none, or it cannot be read). */
function markedPackages(dir: string): readonly string[] | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dir, DOWNLOAD_MARKER), 'utf8')) as unknown;
    const packages = (parsed as { packages?: unknown } | null)?.packages;
    return Array.isArray(packages) && packages.every((p) => typeof p === 'string')
      ? (packages as string[])
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every package names one exact registry version: `pkg@1.2.3`, not `pkg@^1` or `pkg@latest`. */
function allExact(launch: PackageLaunch): boolean {
  return launch.packages.every((entry) => entry.pin === 'pinned' && entry.version !== undefined);
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((value, index) => value === b[index]);
}

/** Removes what npm's runner installed in a server's own cache (the downloads stay). */
function removeInstalled(dir: string): void {
  rmSync(path.join(dir, NPX_FOLDER), { recursive: true, force: true });
}

/** Runs the download once, in the server's sandbox, killed at `timeoutMs` or on `signal`. */
async function runOnce(
  argv: readonly string[],
  plan: LocalPlan,
  timeoutMs: number,
  signal: AbortSignal,
  track: (stopping: Promise<void>) => void,
): Promise<RunResult> {
  let built;
  try {
    built = buildSandbox(argv, plan.policy, plan.sandbox);
  } catch (error) {
    return {
      code: null,
      timedOut: false,
      cancelled: false,
      stderr: [],
      spawnError: messageOf(error),
    };
  }
  const { sandboxed, command, args, env, cwd } = built;
  if (sandboxed.kind !== plan.sandbox.kind) {
    return {
      code: null,
      timedOut: false,
      cancelled: false,
      stderr: [],
      spawnError: `its sandbox would be ${sandboxed.kind}, not ${plan.sandbox.kind}`,
    };
  }
  const stderr: string[] = [];
  let partial = '';
  const child = spawn(command, args, {
    cwd,
    env: { ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    shell: false,
    // Its own process group: a kill reaches npm and everything it started.
    detached: true,
    windowsHide: true,
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    const lines = (partial + chunk).split(/\r?\n/);
    partial = (lines.pop() ?? '').slice(-4000);
    for (const line of lines) stderr.push(line.slice(0, 4000));
    if (stderr.length > STDERR_LINES) stderr.splice(0, stderr.length - STDERR_LINES);
  });
  let timedOut = false;
  let cancelled = false;
  const ended = new Promise<{ code: number | null; spawnError?: string }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, spawnError: messageOf(error) }));
    child.once('close', (code) => resolve({ code }));
  });
  // Settles with how it ended; or, once killed, with `undefined` if it takes too long to end
  // (the manager's close() then waits for it).
  let giveUp: () => void = () => {};
  const waited = new Promise<{ code: number | null; spawnError?: string } | undefined>(
    (resolve) => {
      void ended.then(resolve);
      giveUp = () => setTimeout(() => resolve(undefined), KILL_WAIT_MS).unref();
    },
  );
  const kill = () => {
    giveUp();
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  const onAbort = () => {
    cancelled = true;
    kill();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  try {
    const settled = await waited;
    if (settled === undefined) track(ended.then(() => {}));
    if (partial !== '') stderr.push(partial);
    return {
      code: settled?.code ?? null,
      timedOut,
      cancelled,
      stderr,
      ...(settled?.spawnError === undefined ? {} : { spawnError: settled.spawnError }),
    };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** The download phase, built once per manager. @internal */
export function downloadPhase(deps: DownloadDeps) {
  /**
   * Downloads a local server's packages when it starts through npm's runner; for any other
   * server it does nothing. `onStep` hears `downloading` before the runner starts. A warm start
   * (the marker names these packages, each an exact version) runs nothing and says nothing.
   *
   * @param server - The local server.
   * @param plan - What it runs as (from the launch phase).
   * @param signal - Cancels the start (the download is killed).
   * @param onStep - Told when the download begins, with the packages it fetches, and whether the
   *   cache holds them already (the runner then only checks for a newer version).
   * @returns `undefined` when the server may go on to connect, or why its start ends here.
   */
  return async (
    server: LocalServerConfig,
    plan: LocalPlan,
    signal: AbortSignal,
    onStep: (packages: readonly string[], checking: boolean) => void,
  ): Promise<DownloadFailure | undefined> => {
    const launch = downloadable(plan.cache?.launch ?? packageLaunch(plan.argv));
    const argv = launch === undefined ? undefined : downloadArgv(plan.argv, launch);
    if (launch === undefined || argv === undefined) return undefined;
    const specs = launch.packages.map((entry) => entry.spec);
    // Without a sandbox, the runner uses the user's own cache: it is not repaired here.
    const dir = plan.cache?.dir;
    const marked = dir !== undefined && sameList(markedPackages(dir), specs);
    // Every exact version is in the cache already (npm takes it from there, checked by its
    // hash): nothing to fetch. A package that lost files since fails the server's start, which
    // then forgets the marker (connect phase), so the next start downloads again.
    if (marked && allExact(launch)) return undefined;
    const what = specs.slice(0, 3).map((spec) => quoteText(spec, 120));
    onStep(
      specs.map((spec) => capLine(cleanLine(spec), 120)),
      marked,
    );
    const runner = quoteText(launch.runner);
    try {
      if (dir !== undefined && !marked) {
        // No marker for these packages: a download before may have been stopped half-way.
        removeInstalled(dir);
        rmSync(path.join(dir, DOWNLOAD_MARKER), { force: true });
      }
    } catch (error) {
      return {
        state: 'failed',
        detail: `it could not start: its package runner's cache could not be cleared: ${messageOf(error)}`,
      };
    }
    let result = await runOnce(argv, plan, deps.downloadTimeoutMs, signal, deps.track);
    if (
      dir !== undefined &&
      !result.timedOut &&
      !result.cancelled &&
      result.spawnError === undefined &&
      result.code !== 0 &&
      !(!server.def.network && isOfflineMiss(result.stderr)) &&
      isBrokenCache(result.code, result.stderr)
    ) {
      // A cache left half-written by an earlier download: remove what was installed, once.
      try {
        removeInstalled(dir);
      } catch {
        // The second run says what is wrong.
      }
      result = await runOnce(argv, plan, deps.downloadTimeoutMs, signal, deps.track);
    }
    if (result.cancelled || signal.aborted) return { state: 'stopped', detail: CANCELLED_DETAIL };
    const list = what.join(', ');
    if (result.spawnError !== undefined) {
      return {
        state: 'failed',
        detail: `it could not start: ${runner} could not be run to download ${list}: ${result.spawnError}`,
      };
    }
    if (result.timedOut) {
      return {
        state: 'failed',
        detail:
          `it could not start: ${runner} did not finish downloading ${list} within ` +
          `${seconds(deps.downloadTimeoutMs)}. What it fetched stays in the server's own cache: ` +
          `try again, or raise the download time limit (garuda-mcp --download-timeout <seconds>, ` +
          `or the manager's timeouts.downloadMs)`,
      };
    }
    if (result.code !== 0) {
      if (!server.def.network && isOfflineMiss(result.stderr)) {
        return {
          state: 'failed',
          detail:
            `it could not start: ${runner} must download ${list}, but the server has no ` +
            `network access and its own cache does not hold it yet. Set "network": true for ` +
            `it to allow the download (into that cache only)`,
        };
      }
      const cause = runnerCause(result.stderr);
      return {
        state: 'failed',
        detail:
          `it could not start: ${runner} could not download ${list} (it exited with code ` +
          `${result.code ?? 'none'})${cause === undefined ? '' : `: ${cause}`}`,
      };
    }
    if (dir !== undefined) {
      try {
        writeFileSync(
          path.join(dir, DOWNLOAD_MARKER),
          `${JSON.stringify({ packages: specs, downloadedAt: new Date().toISOString() })}\n`,
          { mode: 0o600 },
        );
      } catch {
        // Without the marker the next start downloads again: slower, never broken.
      }
    }
    return undefined;
  };
}

/**
 * Forgets a server's last download (its marker), so that its next start removes what the runner
 * installed and downloads again: for a server that failed on a package installed only in part.
 * @internal
 *
 * @param dir - The server's runner cache.
 * @returns Whether the marker was there and is gone.
 */
export function forgetDownload(dir: string): boolean {
  try {
    rmSync(path.join(dir, DOWNLOAD_MARKER));
    return true;
  } catch {
    return false;
  }
}
