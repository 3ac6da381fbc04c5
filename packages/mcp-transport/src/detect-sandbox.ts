import path from 'node:path';
import { TransportOptionsError } from './errors.js';
import {
  INSTALL_BUBBLEWRAP,
  explainBwrapFailure,
  explainSeatbeltFailure,
} from './explain-sandbox-failure.js';
import { DEFAULT_SEARCH_PATH, isExecutableFile } from './find-command.js';
import { runProbe, type ProbeResult } from './run-probe.js';

/** Which OS sandbox servers run in: bubblewrap (Linux), Seatbelt (macOS), or none. */
export type SandboxKind = 'bwrap' | 'seatbelt' | 'none';

/**
 * What {@link detectSandbox} found. Keep it with a server's recorded consent: when it changes
 * (e.g. bubblewrap was removed), ask again.
 *
 * @example
 * ```ts
 * const info = await detectSandbox({ searchPath: process.env.PATH });
 * if (info.kind === 'none') ui.warn(`no OS sandbox: ${info.reason}`);
 * ```
 */
export interface SandboxInfo {
  /** The sandbox servers will run in. */
  readonly kind: SandboxKind;
  /** Why there is no sandbox, and what to do, for a person (set when `kind` is `none`). */
  readonly reason?: string;
  /** Absolute path of the sandbox program (`bwrap` or `sandbox-exec`), when one was found. */
  readonly command?: string;
  /** The sandbox program's version, when known (e.g. `0.8.0`). */
  readonly version?: string;
}

/** Options of {@link detectSandbox}. */
export interface DetectSandboxOptions {
  /** Absolute path of `bwrap` to use instead of searching `searchPath` and the usual places. */
  readonly bwrapPath?: string;
  /** The platform to detect for (default `process.platform`). */
  readonly platform?: NodeJS.Platform;
  /** Limit for each check program, in ms (default 5 000). */
  readonly timeoutMs?: number;
  /** Stops waiting (the promise rejects with the signal's reason); the check itself finishes. */
  readonly signal?: AbortSignal;
  /** The `PATH` to search for `bwrap`, passed by the caller (e.g. `process.env.PATH`). */
  readonly searchPath?: string;
  /**
   * Absolute path of `sandbox-exec` (default `/usr/bin/sandbox-exec`, where macOS ships it).
   * Meant for tests of the macOS branch.
   */
  readonly sandboxExecPath?: string;
}

/** Places where distributions install bubblewrap, searched after `searchPath`. */
const WELL_KNOWN_BWRAP = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'];
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_TIMEOUT_MS = 600_000;

/**
 * The probe: the flags our sandboxes depend on (`--disable-userns` needs bubblewrap ≥ 0.8.0 and
 * a user namespace), nothing else. `true` is found through the probe's `PATH`.
 */
const BWRAP_PROBE_ARGS = [
  '--unshare-all',
  '--unshare-user',
  '--disable-userns',
  '--die-with-parent',
  '--ro-bind',
  '/',
  '/',
  'true',
];
const SEATBELT_PROBE_ARGS = ['-p', '(version 1)(allow default)', '/usr/bin/true'];

interface Detected {
  readonly info: SandboxInfo;
  /** A timed-out check is not remembered: the machine may just have been busy. */
  readonly cacheable: boolean;
}

// One probe per process and per set of options, as the design asks ("probe once per process");
// promises are kept so that concurrent callers share one probe.
const cache = new Map<string, Promise<Detected>>();

/**
 * Forgets every remembered {@link detectSandbox} result, so the next call probes again. For
 * tests, and for a long-running host after the user installed bubblewrap.
 *
 * @returns Nothing.
 * @example
 * ```ts
 * clearSandboxCache();
 * const fresh = await detectSandbox();
 * ```
 */
export function clearSandboxCache(): void {
  cache.clear();
}

function checkPathOption(option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'string' ||
    value === '' ||
    value.includes('\0') ||
    !path.isAbsolute(value)
  ) {
    throw new TransportOptionsError(option, 'must be an absolute path without NUL characters.');
  }
  return value;
}

function checkOptions(options: DetectSandboxOptions): {
  platform: NodeJS.Platform;
  timeoutMs: number;
  bwrapPath: string | undefined;
  sandboxExecPath: string | undefined;
  searchPath: string | undefined;
} {
  if (typeof options !== 'object' || options === null) {
    throw new TransportOptionsError('options', 'must be an object.');
  }
  const platform = options.platform ?? process.platform;
  if (typeof platform !== 'string' || (platform as string) === '') {
    throw new TransportOptionsError('platform', 'must be a platform name such as "linux".');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new TransportOptionsError(
      'timeoutMs',
      `must be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}.`,
    );
  }
  const searchPath = options.searchPath;
  if (searchPath !== undefined && (typeof searchPath !== 'string' || searchPath.includes('\0'))) {
    throw new TransportOptionsError('searchPath', 'must be a PATH string without NUL characters.');
  }
  const signal = options.signal;
  if (
    signal !== undefined &&
    (typeof signal !== 'object' || signal === null || !('aborted' in signal))
  ) {
    throw new TransportOptionsError('signal', 'must be an AbortSignal.');
  }
  return {
    platform,
    timeoutMs,
    bwrapPath: checkPathOption('bwrapPath', options.bwrapPath),
    sandboxExecPath: checkPathOption('sandboxExecPath', options.sandboxExecPath),
    searchPath,
  };
}

function locateBwrap(
  bwrapPath: string | undefined,
  searchPath: string | undefined,
): { command: string } | { reason: string } {
  if (bwrapPath !== undefined) {
    return isExecutableFile(bwrapPath)
      ? { command: bwrapPath }
      : {
          reason: `bwrap was not found at ${JSON.stringify(bwrapPath)} (or cannot be run): ${INSTALL_BUBBLEWRAP}, or fix the configured path`,
        };
  }
  // Only absolute PATH entries: a relative one would make the sandbox depend on the folder we
  // happen to run in, and a project could ship its own "bwrap".
  const fromPath = (searchPath ?? '')
    .split(':')
    .filter((dir) => path.isAbsolute(dir))
    .map((dir) => path.join(dir, 'bwrap'));
  for (const candidate of [...fromPath, ...WELL_KNOWN_BWRAP]) {
    if (isExecutableFile(candidate)) return { command: candidate };
  }
  return {
    reason: `bubblewrap (bwrap) is not installed (looked in PATH, ${WELL_KNOWN_BWRAP.join(', ')}): ${INSTALL_BUBBLEWRAP}`,
  };
}

function spawnFailure(program: string, command: string, result: ProbeResult): string | undefined {
  if (result.kind !== 'spawn-error') return undefined;
  const code = result.error.code ?? 'unknown error';
  return code === 'ENOENT'
    ? `${program} was not found at ${JSON.stringify(command)}${program === 'bwrap' ? `: ${INSTALL_BUBBLEWRAP}` : ''}`
    : `${program} at ${JSON.stringify(command)} cannot be run (${code}): check its permissions${program === 'bwrap' ? `, or ${INSTALL_BUBBLEWRAP}` : ''}`;
}

/**
 * Why a probe that never exited leaves no sandbox: it timed out (`timeout` says so, and the
 * answer is not cached: the next call tries again; a known `version` is kept), or it could not
 * be started.
 */
function notRun(
  program: 'bwrap' | 'sandbox-exec',
  command: string,
  probe: Exclude<ProbeResult, { kind: 'exit' }>,
  words: { readonly timeout: string; readonly version?: string },
): Detected {
  const { timeout, ...withVersion } = words;
  if (probe.kind === 'timeout') {
    return { info: { kind: 'none', reason: timeout, command, ...withVersion }, cacheable: false };
  }
  const reason = spawnFailure(program, command, probe) ?? `${program} could not be run`;
  return { info: { kind: 'none', reason, command }, cacheable: true };
}

async function detectBwrap(
  bwrapPath: string | undefined,
  searchPath: string | undefined,
  timeoutMs: number,
): Promise<Detected> {
  const located = locateBwrap(bwrapPath, searchPath);
  if ('reason' in located)
    return { info: { kind: 'none', reason: located.reason }, cacheable: true };
  const command = located.command;
  const env = { PATH: searchPath ?? DEFAULT_SEARCH_PATH };
  const [probe, versionRun] = await Promise.all([
    runProbe(command, BWRAP_PROBE_ARGS, { timeoutMs, env }),
    runProbe(command, ['--version'], { timeoutMs, env }),
  ]);
  const version =
    versionRun.kind === 'exit' && versionRun.code === 0
      ? /^bubblewrap\s+(\d+(?:\.\d+){1,3})/m.exec(versionRun.stdout)?.[1]
      : undefined;
  const withVersion = version === undefined ? {} : { version };

  if (probe.kind !== 'exit') {
    return notRun('bwrap', command, probe, {
      timeout: `the bubblewrap check did not finish within ${timeoutMs} ms (is the machine overloaded?); it will be tried again`,
      ...withVersion,
    });
  }
  if (probe.code === 0)
    return { info: { kind: 'bwrap', command, ...withVersion }, cacheable: true };
  return {
    info: {
      kind: 'none',
      reason: explainBwrapFailure(probe.stderr, probe, version),
      command,
      ...withVersion,
    },
    cacheable: true,
  };
}

async function detectSeatbelt(
  sandboxExecPath: string | undefined,
  timeoutMs: number,
): Promise<Detected> {
  const command = sandboxExecPath ?? SANDBOX_EXEC;
  if (!isExecutableFile(command)) {
    return {
      info: {
        kind: 'none',
        reason: `sandbox-exec was not found at ${JSON.stringify(command)} (macOS ships it; it may have been removed or be blocked)`,
      },
      cacheable: true,
    };
  }
  const probe = await runProbe(command, SEATBELT_PROBE_ARGS, {
    timeoutMs,
    env: { PATH: DEFAULT_SEARCH_PATH },
  });
  if (probe.kind !== 'exit') {
    return notRun('sandbox-exec', command, probe, {
      timeout: `the sandbox-exec check did not finish within ${timeoutMs} ms; it will be tried again`,
    });
  }
  if (probe.code === 0) return { info: { kind: 'seatbelt', command }, cacheable: true };
  return {
    info: { kind: 'none', reason: explainSeatbeltFailure(probe.stderr, probe), command },
    cacheable: true,
  };
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Finds the OS sandbox servers can run in, by running it once:
 *
 * - **Linux**: `bwrap` (from `bwrapPath`, else the caller's `searchPath`, else `/usr/bin/bwrap`
 *   and `/usr/local/bin/bwrap`) must run
 *   `bwrap --unshare-all --unshare-user --disable-userns --die-with-parent --ro-bind / / true`.
 *   When it does not, `reason` says why in words a person can act on ("install bubblewrap …",
 *   "user namespaces are disabled: sysctl kernel.unprivileged_userns_clone=1", the Ubuntu
 *   AppArmor restriction, a bubblewrap older than 0.8.0…) followed by bwrap's first error line.
 * - **macOS**: `/usr/bin/sandbox-exec -p '(version 1)(allow default)' /usr/bin/true` must exit 0.
 * - **Windows and others**: `none`, "no OS sandbox on <platform> yet" (nothing is run).
 *
 * The result is remembered per process for the same platform, `bwrapPath`, `searchPath` and
 * `sandboxExecPath` (the first caller's `timeoutMs` applies); a check that timed out is tried
 * again next time. {@link clearSandboxCache} forgets it all.
 *
 * @param options - See {@link DetectSandboxOptions}.
 * @returns What was found; a fresh object each call.
 * @throws {@link TransportOptionsError} for unusable options. Never throws because a sandbox is
 *   unavailable. Rejects with `signal.reason` when `signal` aborts.
 * @example
 * ```ts
 * const sandbox = await detectSandbox({ searchPath: process.env.PATH, signal });
 * if (sandbox.kind === 'none') ui.warn(`no OS sandbox: ${sandbox.reason}`);
 * ```
 */
export async function detectSandbox(options: DetectSandboxOptions = {}): Promise<SandboxInfo> {
  const checked = checkOptions(options);
  options.signal?.throwIfAborted();
  const key = JSON.stringify([
    checked.platform,
    checked.bwrapPath ?? null,
    checked.searchPath ?? null,
    checked.sandboxExecPath ?? null,
  ]);
  let entry = cache.get(key);
  if (!entry) {
    const { platform, timeoutMs } = checked;
    const started: Promise<Detected> =
      platform === 'linux'
        ? detectBwrap(checked.bwrapPath, checked.searchPath, timeoutMs)
        : platform === 'darwin'
          ? detectSeatbelt(checked.sandboxExecPath, timeoutMs)
          : Promise.resolve({
              info: { kind: 'none', reason: `no OS sandbox on ${platform} yet` },
              cacheable: true,
            });
    entry = started;
    cache.set(key, started);
    void started.then((result) => {
      if (!result.cacheable && cache.get(key) === started) cache.delete(key);
    });
  }
  const result = await waitFor(entry, options.signal);
  return { ...result.info };
}
