// The launch phase of a local server's start: what runs (its command, or a container engine's
// checked command line) and the sandbox policy it runs under (write paths, read paths, its
// package runner's own cache, the engine's socket). Nothing runs here.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { LocalServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo, SandboxPolicy } from '@garuda/mcp-transport';
import { configuredPath } from './configured-path.js';
import { ENGINE_SOCKETS, containerLaunch, type ContainerLaunch } from './container-launch.js';
import { packageLaunch, runnerCacheDir, runnerEnv, type PackageLaunch } from './package-launch.js';
import type { ServerPolicy } from '../start/server-policy.js';
import { prepareServerHome, withServerHome, type ServerHomeUse } from './server-home.js';
import { messageOf } from '../common/text.js';

/** Where local servers run, given once per manager. @internal */
export interface LaunchDeps {
  /** The project root (absolute). */
  readonly root: string;
  /** Garuda's home folder (hidden from servers). */
  readonly home: string;
  /** The user's home folder (its credential files are hidden from servers). */
  readonly userHome: string;
  /** Where package runners get a cache of their own per server (outside `home`, which is hidden). */
  readonly cacheDir: string;
  /** Where each local server gets a home of its own (see `server-home.ts`). */
  readonly serverHomesDir: string;
  /** The host's environment: the sandbox's allowlist comes from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tempDirs: readonly string[];
  readonly sandboxReadPaths: readonly string[];
}

/** A sandboxed package runner's own cache: its folder and the variables that point at it. */
export interface RunnerCacheUse {
  readonly launch: PackageLaunch;
  readonly dir: string;
  readonly env: Readonly<Record<string, string>>;
}

/** What a local server is started as. @internal */
export interface LocalPlan {
  readonly kind: 'local';
  readonly argv: readonly string[];
  readonly policy: SandboxPolicy;
  readonly sandbox: SandboxInfo;
  /** Its package runner's cache, when it is started through one in the sandbox. */
  readonly cache: RunnerCacheUse | undefined;
  /** Its own home folder. */
  readonly home: string;
}

/**
 * The cache of a server started through a package runner, in the sandbox only (without one the
 * runner uses the user's own cache, as it would anywhere). The folder is created here, 0700.
 *
 * @throws When the folder cannot be created.
 */
function runnerCache(
  server: LocalServerConfig,
  key: string,
  cacheDir: string,
  sandbox: SandboxInfo,
): RunnerCacheUse | undefined {
  if (sandbox.kind === 'none') return undefined;
  const launch = packageLaunch([server.def.command, ...server.def.args]);
  if (launch === undefined) return undefined;
  const dir = runnerCacheDir(cacheDir, launch.cache, server.name, key);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { launch, dir, env: runnerEnv(launch, dir, !server.def.network) };
}

/** The engine's socket: the server's own `DOCKER_HOST` (`unix://…`) where the policy lets it. */
function engineSocket(
  container: ContainerLaunch,
  server: LocalServerConfig,
  policy: ServerPolicy,
): string {
  const variable = container.engine === 'docker' ? 'DOCKER_HOST' : 'CONTAINER_HOST';
  const host = policy.engineSocketFromEnv ? server.env[variable]?.value : undefined;
  if (host?.startsWith('unix://') === true && path.isAbsolute(host.slice(7))) return host.slice(7);
  return ENGINE_SOCKETS[container.engine][0] as string;
}

/** The launch phase, built once per manager. @internal */
export function launchPhase(deps: LaunchDeps) {
  const sandboxPolicy = (
    server: LocalServerConfig,
    policy: ServerPolicy,
    cache: RunnerCacheUse | undefined,
    container: ContainerLaunch | undefined,
    home: ServerHomeUse,
  ): SandboxPolicy => {
    // The home's and runner's variables first: the server's own env, which the user wrote, wins.
    const env: Record<string, string> = { ...home.env, ...cache?.env };
    for (const [name, resolved] of Object.entries(server.env)) {
      env[name] = withServerHome(resolved.value, home.dir);
    }
    return {
      root: deps.root,
      writePaths: [
        ...server.def.writePaths.map((p) => configuredPath(p, deps)),
        ...(cache === undefined ? [] : [cache.dir]),
      ],
      network: server.def.network,
      env,
      baseEnv: deps.env,
      home: deps.userHome,
      garudaHome: deps.home,
      tempDirs: deps.tempDirs,
      // The server's own first, so a refused one is named by its place in the config.
      readPaths: [
        ...server.def.readPaths.map((p) => configuredPath(p, deps)),
        ...deps.sandboxReadPaths,
      ],
      // Writable, the only home it sees, and its cache also at ~/.cache (see server-home.ts).
      serverHome: { dir: home.dir, homesDir: deps.serverHomesDir, cache: home.cache },
      ...(server.def.cwd === undefined ? {} : { cwd: configuredPath(server.def.cwd, deps) }),
      // Only the engine's own command, whose options containerLaunch checked, reaches its socket.
      ...(container === undefined ? {} : { engineSocket: engineSocket(container, server, policy) }),
    };
  };

  /**
   * What a local server runs as, or why it must not run.
   *
   * @param server - The local server.
   * @param policy - Its policy.
   * @param sandbox - What `detectSandbox` found.
   */
  return (
    server: LocalServerConfig,
    policy: ServerPolicy,
    sandbox: SandboxInfo,
  ): LocalPlan | { readonly state: 'failed'; readonly detail: string } => {
    let home: ServerHomeUse;
    try {
      home = prepareServerHome(server, deps, sandbox.kind !== 'none');
    } catch (error) {
      return {
        state: 'failed',
        detail: `its home folder could not be created: ${messageOf(error)}`,
      };
    }
    let argv: readonly string[] = [
      server.def.command,
      ...server.def.args.map((arg) => withServerHome(arg, home.dir)),
    ];
    // A container is isolated by its engine, which carries out its options as root: they are
    // held to what the sandbox would give this server, and no network means `--network=none`.
    const container = containerLaunch(argv, {
      network: server.def.network,
      root: deps.root,
      writable: [deps.root, home.dir, ...server.def.writePaths.map((p) => configuredPath(p, deps))],
      userHome: deps.userHome,
      garudaHome: deps.home,
    });
    if (container !== undefined && container.problems.length > 0) {
      return {
        state: 'failed',
        detail: `it was not started, as "${container.engine} run" would give the container more than the sandbox gives a server: ${container.problems.join('; ')}`,
      };
    }
    if (container !== undefined) argv = container.argv;
    let cache: RunnerCacheUse | undefined;
    try {
      cache = runnerCache(server, policy.trustKey, deps.cacheDir, sandbox);
    } catch (error) {
      return {
        state: 'failed',
        detail: `its package runner's cache folder could not be created: ${messageOf(error)}`,
      };
    }
    return {
      kind: 'local',
      argv,
      policy: sandboxPolicy(server, policy, cache, container, home),
      sandbox,
      cache,
      home: home.dir,
    };
  };
}
