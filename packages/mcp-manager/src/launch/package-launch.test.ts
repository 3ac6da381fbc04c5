import { describe, expect, it } from 'vitest';
import { isOfflineMiss, packageLaunch, runnerCacheDir, runnerEnv } from './package-launch.js';

describe('packageLaunch', () => {
  it.each([
    [['npx', '-y', '@scope/server@1.2.3'], 'npx', 'npm', '@scope/server', '1.2.3', 'pinned'],
    [['/usr/bin/npx', '--yes', 'server'], 'npx', 'npm', 'server', undefined, 'unpinned'],
    [['npx', '-p', 'pkg@2.0.0', 'cmd'], 'npx', 'npm', 'pkg', '2.0.0', 'pinned'],
    [['npm', 'exec', '--', 'pkg@latest'], 'npm exec', 'npm', 'pkg', 'latest', 'unpinned'],
    [['pnpm', 'dlx', 'pkg@1.0.0'], 'pnpm dlx', 'pnpm', 'pkg', '1.0.0', 'pinned'],
    [['pnpx', 'pkg@^1'], 'pnpx', 'pnpm', 'pkg', '^1', 'unpinned'],
    [['yarn', 'dlx', 'pkg@1.0.0'], 'yarn dlx', 'yarn', 'pkg', '1.0.0', 'pinned'],
    [['bunx', 'pkg@1.0.0'], 'bunx', 'bun', 'pkg', '1.0.0', 'pinned'],
    [['bun', 'x', 'pkg'], 'bun x', 'bun', 'pkg', undefined, 'unpinned'],
    [['uvx', 'mcp-server-git==0.6.2'], 'uvx', 'uv', 'mcp-server-git', '0.6.2', 'pinned'],
    [['uvx', 'mcp-server-git@0.6.2'], 'uvx', 'uv', 'mcp-server-git', '0.6.2', 'pinned'],
    [['uvx', '--from', 'pkg[cli]==1.0', 'tool'], 'uvx', 'uv', 'pkg[cli]', '1.0', 'pinned'],
    [['uv', 'tool', 'run', 'pkg'], 'uv tool run', 'uv', 'pkg', undefined, 'unpinned'],
    [['pipx', 'run', 'pkg==3.1'], 'pipx run', 'pipx', 'pkg', '3.1', 'pinned'],
    [['npx', './local-dir'], 'npx', 'npm', './local-dir', undefined, 'local'],
    [['npx', 'github:user/repo'], 'npx', 'npm', 'github:user/repo', undefined, 'unpinned'],
  ] as const)('%j', (argv, runner, cache, name, version, pin) => {
    const launch = packageLaunch(argv);
    expect(launch?.runner).toBe(runner);
    expect(launch?.cache).toBe(cache);
    expect(launch?.packages[0]).toEqual({
      spec: argv.at(-1) === 'cmd' || argv.at(-1) === 'tool' ? argv[2] : argv.at(-1),
      name,
      ...(version === undefined ? {} : { version }),
      pin,
    });
  });

  it('lists every package, the one that runs first', () => {
    expect(
      packageLaunch(['uvx', '--with', 'extra==1.0', 'main==2.0'])?.packages.map((p) => p.spec),
    ).toEqual(['main==2.0', 'extra==1.0']);
  });

  it('is undefined for other commands, and for a runner behind a wrapper or a shell', () => {
    expect(packageLaunch(['node', 'server.js'])).toBeUndefined();
    expect(packageLaunch(['npm', 'install', 'x'])).toBeUndefined();
    expect(packageLaunch(['pnpm', 'install'])).toBeUndefined();
    expect(packageLaunch(['sh', '-c', 'npx -y x'])).toBeUndefined();
    expect(packageLaunch([])).toBeUndefined();
  });
});

describe('runnerCacheDir', () => {
  it('gives each server of each source and project its own folder', () => {
    const a = runnerCacheDir('/c', 'npm', 'fs', 'user:fs');
    expect(a).toMatch(/^\/c\/npm\/fs-[0-9a-f]{12}$/);
    expect(runnerCacheDir('/c', 'npm', 'fs', 'user:fs')).toBe(a);
    expect(runnerCacheDir('/c', 'npm', 'fs', 'project:/p:fs')).not.toBe(a);
    expect(runnerCacheDir('/c', 'npm', 'fs', 'project:/q:fs')).not.toBe(
      runnerCacheDir('/c', 'npm', 'fs', 'project:/p:fs'),
    );
    expect(runnerCacheDir('/c', 'uv', 'fs', 'user:fs')).toMatch(/^\/c\/uv\/fs-/);
  });
});

describe('runnerEnv', () => {
  const launch = (argv: string[]) => packageLaunch(argv) ?? expect.unreachable();

  it('points npm at the cache, offline without network, preferring the cache when all is pinned', () => {
    expect(runnerEnv(launch(['npx', '-y', 'a@1.0.0']), '/c', true)).toEqual({
      npm_config_cache: '/c',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_offline: 'true',
    });
    expect(runnerEnv(launch(['npx', '-y', 'a@1.0.0']), '/c', false)).toMatchObject({
      npm_config_prefer_offline: 'true',
    });
    const unpinned = runnerEnv(launch(['npx', '-y', 'a']), '/c', false);
    expect(unpinned).not.toHaveProperty('npm_config_prefer_offline');
    expect(unpinned).not.toHaveProperty('npm_config_offline');
  });

  it.each([
    [['pnpm', 'dlx', 'a@1.0.0'], { npm_config_store_dir: '/c/store', npm_config_offline: 'true' }],
    [['yarn', 'dlx', 'a@1.0.0'], { YARN_GLOBAL_FOLDER: '/c/global', YARN_ENABLE_NETWORK: '0' }],
    [['bunx', 'a@1.0.0'], { BUN_INSTALL_CACHE_DIR: '/c/install' }],
    [['uvx', 'a==1.0'], { UV_CACHE_DIR: '/c/cache', UV_TOOL_DIR: '/c/tools', UV_OFFLINE: '1' }],
    [['pipx', 'run', 'a==1.0'], { PIPX_HOME: '/c/home', PIP_NO_INDEX: '1' }],
  ])('%j offline', (argv, expected) => {
    expect(runnerEnv(launch(argv), '/c', true)).toMatchObject(expected);
  });

  it('sets no offline switch with network', () => {
    for (const argv of [
      ['uvx', 'a==1.0'],
      ['pipx', 'run', 'a==1.0'],
      ['yarn', 'dlx', 'a@1.0.0'],
    ]) {
      const env = runnerEnv(launch(argv), '/c', false);
      expect(env).not.toHaveProperty('UV_OFFLINE');
      expect(env).not.toHaveProperty('PIP_NO_INDEX');
      expect(env).not.toHaveProperty('YARN_ENABLE_NETWORK');
    }
  });
});

describe('isOfflineMiss', () => {
  it.each([
    'npm error code ENOTCACHED',
    ' ERR_PNPM_NO_OFFLINE_META  Failed to resolve x in package mirror',
    "error: Network connectivity is disabled, but the requested data wasn't found in the cache",
    'ERROR: No matching distribution found for mcp-server-x==1.0',
    'error: getaddrinfo EAI_AGAIN registry.npmjs.org',
  ])('%s', (line) => {
    expect(isOfflineMiss(['something else', line])).toBe(true);
  });

  it('is false for other failures', () => {
    expect(isOfflineMiss(['Error: Cannot find module x', 'npm error code E404'])).toBe(false);
    expect(isOfflineMiss([])).toBe(false);
  });
});
