// Servers started through package runners, in the real sandbox: real `npx` and `pnpm dlx`
// launches of a package from the npm registry (its cache warmed outside the sandbox first, so
// the test does not depend on the registry's speed), the quick offline failure, and, for the
// runners this machine lacks (uv, pipx, bun, yarn), stand-in scripts that report what the
// sandbox gave them before starting a fixture server.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { mcpTrustKey } from '@garuda/mcp-trust';
import { FIXTURE_SERVER } from '@garuda/test-utils';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { serverHomeOf, type McpManager, type McpManagerOptions } from '../src/index.js';
import { runnerCacheDir } from '../src/launch/package-launch.js';
import type { RunnerCache } from '../src/launch/package-runners.js';
import {
  HAS_SANDBOX,
  REPO_ROOT,
  SANDBOX,
  type ScriptedPrompter,
  managerWithBin,
  unwrap,
} from './support/e2e.js';
import { makeRunnerDirs } from './support/runner-dirs.js';

const run = promisify(execFile);

/** Connects to the socket DOCKER_HOST names and prints what it answers (or the error code). */
const ENGINE_PROBE =
  "require('node:net').connect(process.env.DOCKER_HOST.slice(7))" +
  ".on('data', (d) => process.stdout.write('data:' + d)).on('error', (e) => process.stdout.write(e.code))";

/** A small real MCP server from the registry (one tool), at an exact version. */
const THINKING = '@modelcontextprotocol/server-sequential-thinking@2026.8.31';
/** Another one, never put in any cache here: its offline start must fail at once. */
const MEMORY = '@modelcontextprotocol/server-memory@2026.8.31';
/** A download may be slow on a loaded machine: only the warm-up waits for one. */
const DOWNLOAD_MS = 240_000;

// Under /var/tmp, not /tmp: bubblewrap gives every server an empty /tmp of its own, so a home
// folder there would look unwritable inside for the wrong reason and the checks could not fail
// (and Seatbelt lets every server write the machine's /tmp). Its real path, as the sandbox names
// it (on macOS /var is a link to /private/var).
let base: string;
let root: string;
let home: string;
let userHome: string;
let cacheDir: string;
let bin: string;
const managers: McpManager[] = [];

/** pnpm as the tests were started with it (pnpm puts itself on their PATH). */
const pnpm = (process.env.PATH ?? '')
  .split(path.delimiter)
  .map((dir) => path.join(dir, 'pnpm'))
  .find((file) => path.isAbsolute(file) && existsSync(file));

function manager(options: Partial<McpManagerOptions> = {}): {
  mcp: McpManager;
  prompter: ScriptedPrompter;
} {
  const { mcp, prompter } = managerWithBin({ root, home, userHome, bin }, options);
  managers.push(mcp);
  return { mcp, prompter };
}

async function userServers(servers: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ servers }, null, 2));
}

async function projectServers(servers: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(root, '.garuda', 'mcp.json'), JSON.stringify({ servers }, null, 2));
}

/** The cache folder the manager gives a user's (or this project's) server. */
function cacheOf(cache: RunnerCache, server: string, source: 'user' | 'project'): string {
  const key = mcpTrustKey(source === 'user' ? { kind: 'user' } : { kind: 'project', root }, server);
  return runnerCacheDir(cacheDir, cache, server, key);
}

/** Runs a command outside the sandbox with only the variables given (and PATH). */
async function outside(argv: string[], env: Record<string, string>): Promise<void> {
  const [command, ...args] = argv as [string, ...string[]];
  await run(command, args, {
    cwd: base,
    env: { PATH: process.env.PATH ?? '', HOME: userHome, ...env },
    timeout: DOWNLOAD_MS,
  });
}

beforeAll(async () => {
  ({ base, root, userHome, home, cacheDir, bin } = await makeRunnerDirs('garuda-runners-'));
});

// Closing is bounded by the manager (20 s), and the caches are large: a busy machine needs more
// than the default 10 s.
afterAll(async () => {
  await Promise.all(managers.map((mcp) => mcp.close()));
  rmSync(base, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!HAS_SANDBOX)('package runners in the sandbox', () => {
  it(
    'npx: a project server runs a pinned package from its own cache, offline, after consent naming it',
    async () => {
      const cache = cacheOf('npm', 'think', 'project');
      // Warm its cache outside the sandbox: npx installs the package, then runs `node -e 0`.
      await outside(['npx', '--yes', `--package=${THINKING}`, '--', 'node', '-e', '0'], {
        npm_config_cache: cache,
        npm_config_update_notifier: 'false',
      });
      await projectServers({ think: { command: 'npx', args: ['-y', THINKING] } });
      const { mcp, prompter } = manager();
      await mcp.start();

      expect(prompter.consents[0]?.packages).toEqual([
        {
          runner: 'npx',
          name: '@modelcontextprotocol/server-sequential-thinking',
          version: '2026.8.31',
          pin: 'pinned',
        },
      ]);
      expect(mcp.status().map((row) => [row.name, row.state, row.network])).toEqual([
        ['think', 'connected', { kind: 'local', allowed: false }],
      ]);
      const result = await mcp.call('mcp__think__sequentialthinking', {
        thought: 'one step',
        thoughtNumber: 1,
        totalThoughts: 1,
        nextThoughtNeeded: false,
      });
      expect(result.isError).toBe(false);
      expect(JSON.parse(unwrap(result.text))).toMatchObject({ thoughtNumber: 1, totalThoughts: 1 });
      // npm wrote its log into the server's cache, not into the user's ~/.npm.
      expect(existsSync(path.join(cache, '_logs'))).toBe(true);
      expect(existsSync(path.join(userHome, '.npm'))).toBe(false);
      await mcp.close();
    },
    DOWNLOAD_MS + 60_000,
  );

  it(
    'pnpm dlx: a user server with network runs a pinned package from its own store',
    async () => {
      expect(pnpm, 'pnpm must be on PATH: run the tests through pnpm').toBeDefined();
      const cache = cacheOf('pnpm', 'think-dlx', 'user');
      await outside([pnpm as string, `--package=${THINKING}`, 'dlx', 'node', '-e', '0'], {
        npm_config_store_dir: path.join(cache, 'store'),
        npm_config_cache_dir: path.join(cache, 'cache'),
        npm_config_state_dir: path.join(cache, 'state'),
        npm_config_update_notifier: 'false',
      });
      await userServers({
        'think-dlx': { command: 'pnpm', args: ['dlx', THINKING], network: true },
      });
      await projectServers({});
      const { mcp } = manager({
        env: {
          PATH: `${path.dirname(pnpm as string)}:${process.env.PATH ?? ''}`,
          HOME: userHome,
          LANG: 'C.UTF-8',
        },
        // The test's own pnpm, shown to the server: `npx pnpm` keeps it in the home's npm cache,
        // which may be under /tmp (a home there is empty inside the sandbox), as a user's own
        // pnpm would not be. Its folder on PATH and its package, wherever the link leads.
        sandbox: {
          readPaths: [
            REPO_ROOT,
            path.dirname(pnpm as string),
            path.dirname(path.dirname(realpathSync(pnpm as string))),
          ],
        },
      });
      await mcp.start();
      expect(mcp.status().map((row) => [row.name, row.state, row.detail])).toEqual([
        ['think-dlx', 'connected', undefined],
      ]);
      const result = await mcp.call('mcp__think_dlx__sequentialthinking', {
        thought: 'one step',
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
      });
      expect(JSON.parse(unwrap(result.text))).toMatchObject({ totalThoughts: 2 });
      await mcp.close();
    },
    DOWNLOAD_MS + 60_000,
  );

  it('npx without network and without the package in its cache fails at once, saying how to allow it', async () => {
    await userServers({ mem: { command: 'npx', args: ['-y', MEMORY] } });
    await projectServers({});
    const { mcp } = manager();
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    // Offline mode answers from the cache: the start did not wait for its time limit.
    expect(row?.detail).not.toMatch(/within \d+ s/);
    expect(row?.detail).toContain(
      `"npx" must download "${MEMORY}", but the server has no network access and its own cache does not hold it yet. Set "network": true for it`,
    );
    expect(existsSync(cacheOf('npm', 'mem', 'user'))).toBe(true);
    await mcp.close();
  }, 120_000);

  // Stand-ins for the runners not installed here: each reports its cache variables and whether
  // it can write its own cache and the user's real one, then becomes a fixture server.
  const STAND_INS: readonly {
    readonly argv: readonly string[];
    readonly cache: RunnerCache;
    readonly variable: string;
    readonly offline?: string;
    readonly real: string;
  }[] = [
    {
      argv: ['uvx', 'mcp-server-x==1.0.0'],
      cache: 'uv',
      variable: 'UV_CACHE_DIR',
      offline: 'UV_OFFLINE',
      real: '.cache/uv',
    },
    {
      argv: ['uv', 'tool', 'run', 'mcp-server-x==1.0.0'],
      cache: 'uv',
      variable: 'UV_TOOL_DIR',
      offline: 'UV_OFFLINE',
      real: '.local/share/uv',
    },
    {
      argv: ['pipx', 'run', 'mcp-server-x==1.0.0'],
      cache: 'pipx',
      variable: 'PIPX_HOME',
      offline: 'PIP_NO_INDEX',
      real: '.local/share/pipx',
    },
    {
      argv: ['bunx', 'mcp-server-x@1.0.0'],
      cache: 'bun',
      variable: 'BUN_INSTALL_CACHE_DIR',
      real: '.bun/install/cache',
    },
    {
      argv: ['yarn', 'dlx', 'mcp-server-x@1.0.0'],
      cache: 'yarn',
      variable: 'YARN_GLOBAL_FOLDER',
      offline: 'YARN_ENABLE_NETWORK',
      real: '.yarn/berry',
    },
  ];

  it('uvx, uv tool run, pipx run, bunx and yarn dlx get their own writable cache, the real one stays read-only', async () => {
    const servers: Record<string, unknown> = {};
    for (const [index, entry] of STAND_INS.entries()) {
      const [program] = entry.argv as [string];
      const report = path.join(root, `report-${index}.txt`);
      // One script per program name; it reads what to check from its own variables.
      await writeFile(
        path.join(bin, program),
        [
          '#!/bin/sh',
          'v="$CHECK_VAR"; dir=$(printenv "$v")',
          '{ echo "dir=$dir"; echo "offline=$(printenv "$CHECK_OFFLINE")"',
          '  mkdir -p "$dir" && echo probe > "$dir/probe" && echo "own=yes" || echo "own=no"',
          '  (mkdir -p "$HOME/$CHECK_REAL" && echo x > "$HOME/$CHECK_REAL/probe") 2>/dev/null && echo "real=yes" || echo "real=no"',
          '} > "$CHECK_REPORT"',
          `exec node ${JSON.stringify(FIXTURE_SERVER)} normal`,
          '',
        ].join('\n'),
        { mode: 0o755 },
      );
      servers[`run${index}`] = {
        command: program,
        args: entry.argv.slice(1),
        env: {
          CHECK_VAR: entry.variable,
          CHECK_OFFLINE: entry.offline ?? 'NONE',
          CHECK_REAL: entry.real,
          CHECK_REPORT: report,
        },
      };
    }
    await userServers(servers);
    await projectServers({});
    const { mcp } = manager();
    await mcp.start();
    expect(mcp.status().filter((row) => row.state !== 'connected')).toEqual([]);

    for (const [index, entry] of STAND_INS.entries()) {
      const report = Object.fromEntries(
        readFileSync(path.join(root, `report-${index}.txt`), 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split('=', 2) as [string, string]),
      );
      const own = cacheOf(entry.cache, `run${index}`, 'user');
      // Under ~/.cache the server finds its own home's cache (Linux): the write lands there.
      const inHomeCache = entry.real.startsWith('.cache/') && process.platform === 'linux';
      expect(report, entry.argv.join(' ')).toMatchObject({
        own: 'yes',
        real: inHomeCache ? 'yes' : 'no',
        offline:
          entry.offline === undefined ? '' : entry.offline === 'YARN_ENABLE_NETWORK' ? '0' : '1',
      });
      expect(report.dir?.startsWith(`${own}${path.sep}`) || report.dir === own).toBe(true);
      // Written through to this machine: the cache outlives the server.
      expect(readFileSync(path.join(report.dir as string, 'probe'), 'utf8')).toBe('probe\n');
      expect(existsSync(path.join(userHome, entry.real, 'probe'))).toBe(false);
      if (inHomeCache) {
        // The manager's default place for server homes (managerWithBin sets none).
        const homes = path.join(userHome, '.local', 'share', 'garuda-mcp', 'servers');
        const serverHome = serverHomeOf(homes, { name: `run${index}`, source: 'user' }, root);
        const landed = path.join(serverHome, 'cache', entry.real.slice('.cache/'.length), 'probe');
        expect(readFileSync(landed, 'utf8')).toBe('x\n');
      }
    }
    await mcp.close();
  }, 120_000);

  it('docker run: held to the sandbox policy (--network=none added), a container that would get more is not started', async () => {
    const report = path.join(root, 'docker-argv.txt');
    // Stands in for the docker CLI (no engine runs here): records its argv, becomes a server.
    await writeFile(
      path.join(bin, 'docker'),
      [
        '#!/bin/sh',
        'printf "%s\\n" "$@" > "$CHECK_REPORT"',
        // What the engine's socket (DOCKER_HOST) answers from inside the sandbox.
        `node -e ${JSON.stringify(ENGINE_PROBE)} > "$CHECK_REPORT.socket"`,
        `exec node ${JSON.stringify(FIXTURE_SERVER)} normal`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    // A socket in a hidden socket place (as /var/run/docker.sock would be), named by DOCKER_HOST.
    // Seatbelt closes every Unix socket, wherever it is (and macOS has no /run): there, one beside
    // the project.
    const socket =
      SANDBOX.kind === 'seatbelt'
        ? path.join(base, 'engine.sock')
        : `/run/user/garuda-test-docker-${process.pid}-${Date.now()}.sock`;
    const engine = net.createServer((c) => c.end('engine')).listen(socket);
    await new Promise((resolve) => engine.once('listening', resolve));
    onTestFinished(() => new Promise<void>((resolve) => engine.close(() => resolve())));
    await userServers({
      box: {
        command: 'docker',
        args: ['run', '-i', '--rm', '-v', '.:/work', 'mcp/example:1.0.0'],
        env: { CHECK_REPORT: report, DOCKER_HOST: `unix://${socket}` },
      },
      loose: {
        command: 'docker',
        args: ['run', '-i', '--privileged', '-v', '~/.ssh:/root/.ssh:ro', 'mcp/example'],
      },
    });
    await projectServers({});
    const { mcp } = manager();
    await mcp.start();
    const rows = Object.fromEntries(mcp.status().map((row) => [row.name, row]));
    expect(rows.box?.state).toBe('connected');
    expect(readFileSync(report, 'utf8').trim().split('\n')).toEqual([
      'run',
      '--network=none',
      '-i',
      '--rm',
      '-v',
      '.:/work',
      'mcp/example:1.0.0',
    ]);
    expect(readFileSync(`${report}.socket`, 'utf8')).toBe('data:engine');
    expect(rows.loose?.state).toBe('failed');
    expect(rows.loose?.detail).toContain(
      'it was not started, as "docker run" would give the container more than the sandbox gives a server: "--privileged" gives the container the whole machine; it mounts',
    );
    expect(rows.loose?.detail).toContain('.ssh", which the sandbox hides from servers');
    await mcp.close();
  }, 120_000);
});
