import { createHash } from 'node:crypto';
import path from 'node:path';
import { packagePin, type PackageEcosystem, type PackagePin } from './package-spec.js';
import { programName, runnerArgs, runnerOf, type RunnerCache } from './package-runners.js';

/** One package a runner downloads and runs. @internal */
export interface LaunchPackage {
  /** As written, e.g. `@scope/pkg@1.2.3` or `mcp-server-git==0.6.2`. */
  readonly spec: string;
  /** The package name (for a path or URL: the spec itself). */
  readonly name: string;
  /** The version asked for, when the spec names one (an exact one only when `pin` is `pinned`). */
  readonly version?: string;
  readonly pin: PackagePin;
}

/** A server started through a package runner (`npx`, `pnpm dlx`, `uvx`, …). @internal */
export interface PackageLaunch {
  /** The runner as the user wrote it: `npx`, `pnpm dlx`, `uv tool run`, … */
  readonly runner: string;
  /** Whose download cache it uses. */
  readonly cache: RunnerCache;
  readonly ecosystem: PackageEcosystem;
  /** The packages it downloads, the one that runs first. */
  readonly packages: readonly LaunchPackage[];
}

function splitSpec(spec: string, ecosystem: PackageEcosystem): { name: string; version?: string } {
  const pin = packagePin(spec, ecosystem);
  if (pin === 'local') return { name: spec };
  if (ecosystem === 'npm') {
    const bare = spec.startsWith('npm:') ? spec.slice(4) : spec;
    // A git source or GitHub shorthand (`user/repo`, `github:…`) has no registry name.
    if (bare.includes('://') || bare.includes(':') || (!bare.startsWith('@') && bare.includes('/')))
      return { name: spec };
    const at = bare.indexOf('@', 1);
    return at < 0 ? { name: bare } : { name: bare.slice(0, at), version: bare.slice(at + 1) };
  }
  if (spec.includes('://') || /\s@\s/.test(spec)) return { name: spec };
  const match = /^([A-Za-z0-9._-]+(?:\[[^\]]*\])?)\s*(?:==|@)\s*([^,;\s]+)$/.exec(spec);
  return match === null
    ? { name: spec }
    : { name: match[1] as string, version: match[2] as string };
}

/**
 * Whether a server's command is a package runner, and what it downloads: `npx`, `npm exec`/`x`,
 * `pnpm dlx`, `pnpx`, `yarn dlx`, `bunx`, `bun x`, `uvx`, `uv tool run`, `pipx run`, written as
 * the command itself (a path such as `/usr/bin/npx` counts). A runner behind a shell or a
 * wrapper is only warned about on the consent screen, not given a cache. @internal
 *
 * @param argv - The server's command and arguments.
 * @returns The launch, or `undefined` for any other command.
 * @example
 * ```ts
 * packageLaunch(['npx', '-y', '@modelcontextprotocol/server-memory@2026.8.31']);
 * // { runner: 'npx', cache: 'npm', ecosystem: 'npm', packages: [{ name: '@modelcontextprotocol/server-memory', version: '2026.8.31', pin: 'pinned', … }] }
 * ```
 */
export function packageLaunch(argv: readonly string[]): PackageLaunch | undefined {
  const [command, ...rest] = argv;
  if (command === undefined) return undefined;
  const found = runnerOf(programName(command), rest);
  if (found === undefined) return undefined;
  const { ecosystem } = found.runner;
  return {
    runner: found.label,
    cache: found.runner.cache,
    ecosystem,
    packages: runnerArgs(found.runner, found.args).packages.map((spec) => ({
      spec,
      ...splitSpec(spec, ecosystem),
      pin: packagePin(spec, ecosystem),
    })),
  };
}

/**
 * The folder of one server's own download cache: `<cacheDir>/<runner cache>/<name>-<hash>`, the
 * hash taken from the server's trust key (so a project's server never shares a cache with a
 * user's server, or with a server of the same name in another project: a cache one server
 * could write is code another would run). @internal
 */
export function runnerCacheDir(
  cacheDir: string,
  cache: RunnerCache,
  server: string,
  trustKey: string,
): string {
  const hash = createHash('sha256').update(trustKey).digest('hex').slice(0, 12);
  return path.join(cacheDir, cache, `${server}-${hash}`);
}

/**
 * The environment that points a runner at its own cache (each runner's documented variables),
 * quiets its update checks, and, for a server without network, switches it to offline mode so
 * that a package missing from the cache fails at once instead of retrying until the start's
 * time limit. With network and every package pinned, npm and pnpm take what the cache holds
 * without asking the registry again (an exact version's contents are checked by their hash).
 * The server's own `env` is laid on top by the caller, so a user's explicit setting wins.
 * @internal
 *
 * @param launch - The runner and its packages.
 * @param dir - The server's cache folder (writable inside the sandbox).
 * @param offline - True when the server has no network.
 */
export function runnerEnv(
  launch: PackageLaunch,
  dir: string,
  offline: boolean,
): Record<string, string> {
  const sub = (name: string) => path.join(dir, name);
  const pinned =
    launch.packages.length > 0 && launch.packages.every((entry) => entry.pin !== 'unpinned');
  const npmMode: Record<string, string> = offline
    ? { npm_config_offline: 'true' }
    : pinned
      ? { npm_config_prefer_offline: 'true' }
      : {};
  switch (launch.cache) {
    case 'npm':
      return {
        npm_config_cache: dir,
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
        ...npmMode,
      };
    case 'pnpm':
      return {
        npm_config_store_dir: sub('store'),
        npm_config_cache_dir: sub('cache'),
        npm_config_state_dir: sub('state'),
        npm_config_update_notifier: 'false',
        ...npmMode,
      };
    case 'yarn':
      return {
        YARN_CACHE_FOLDER: sub('cache'),
        YARN_GLOBAL_FOLDER: sub('global'),
        YARN_ENABLE_TELEMETRY: '0',
        ...(offline ? { YARN_ENABLE_NETWORK: '0', YARN_ENABLE_OFFLINE_MODE: '1' } : {}),
      };
    case 'bun':
      // bun has no offline switch in its environment: without network its download fails on
      // the name lookup, which the sandbox makes fail at once.
      return { BUN_INSTALL_CACHE_DIR: sub('install'), DO_NOT_TRACK: '1' };
    case 'uv':
      return {
        UV_CACHE_DIR: sub('cache'),
        UV_TOOL_DIR: sub('tools'),
        UV_TOOL_BIN_DIR: sub('bin'),
        UV_PYTHON_INSTALL_DIR: sub('python'),
        ...(offline ? { UV_OFFLINE: '1' } : {}),
      };
    case 'pipx':
      return {
        PIPX_HOME: sub('home'),
        PIPX_BIN_DIR: sub('bin'),
        PIPX_MAN_DIR: sub('man'),
        PIP_CACHE_DIR: sub('pip'),
        PIP_DISABLE_PIP_VERSION_CHECK: '1',
        ...(offline ? { PIP_NO_INDEX: '1' } : {}),
      };
  }
}

/**
 * What a runner prints when, offline, the package is not in its cache (or, for runners without
 * an offline mode, when the download cannot reach the registry).
 */
const OFFLINE_MISS =
  /\bENOTCACHED\b|ERR_PNPM_NO_OFFLINE_(?:META|TARBALL)|network connectivity is disabled|\bYN0081\b|No matching distribution found|\bEAI_AGAIN\b|\bENOTFOUND\b|\bENETUNREACH\b|getaddrinfo|ConnectionRefused/i;

/**
 * Whether a failed start's stderr says the runner had to download something it could not. @internal
 *
 * @param stderr - The server's last stderr lines.
 */
export function isOfflineMiss(stderr: readonly string[]): boolean {
  return stderr.some((line) => OFFLINE_MISS.test(line));
}
