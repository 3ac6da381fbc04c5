// The download step of servers started through npm's package runner, in the real sandbox: a
// stand-in `npx` (first on PATH) whose download (`… -- node -e 0`) holds until the test lets it
// go, so a download longer than the start's limit, one killed at its own limit, and a cache it
// left half-written are made on purpose, not raced; then it serves a fixture server.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mcpTrustKey } from '@garuda/mcp-trust';
import { FIXTURE_SERVER } from '@garuda/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpManager, McpManagerOptions, StartStepEvent } from '../src/index.js';
import { DOWNLOAD_MARKER } from '../src/launch/download-phase.js';
import { runnerCacheDir } from '../src/launch/package-launch.js';
import { HAS_SANDBOX, managerWithBin } from './support/e2e.js';
import { makeRunnerDirs } from './support/runner-dirs.js';

const SPEC = 'mcp-slow@1.0.0';
/** The same package with no version: npx asks the registry for the newest each time. */
const UNPINNED = 'mcp-slow';
/** Where the stand-in installs "the package", inside the server's own cache. */
const INSTALLED = '_npx/0123abcd/node_modules/mcp-slow';

/**
 * The stand-in runner. Download step: a half-installed package makes it fail as npm does (exit
 * 254, ENOENT); else it installs, holding until `$SHIM_RELEASE` exists. Server run: a package
 * not fully installed fails as npm does with `SHIM_NPM_TRIP`, else (or marked `torn`: npm would
 * not notice) as Node does (Cannot find module); `SHIM_UPSTREAM` makes it a proxy
 * whose upstream is out of reach; else it becomes the fixture server.
 */
const SHIM = `#!/bin/sh
pkg="$npm_config_cache/${INSTALLED}"
case "$*" in
*"-- node -e 0")
  echo "download $*" >> "$SHIM_LOG"
  if [ -n "$SHIM_FAIL" ]; then
    echo "npm error code E404" >&2
    echo "npm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found" >&2
    echo "npm error A complete log of this run can be found in: $npm_config_cache/_logs/debug-0.log" >&2
    exit 1
  fi
  if [ -e "$pkg/installing" ] && [ ! -e "$pkg/done" ]; then
    echo "broken" >> "$SHIM_LOG"
    echo "npm error code ENOENT" >&2
    echo "npm error enoent ENOENT: no such file or directory, open '$pkg/package.json'" >&2
    echo "npm error A complete log of this run can be found in: $npm_config_cache/_logs/debug-0.log" >&2
    exit 254
  fi
  mkdir -p "$pkg" && : > "$pkg/installing"
  while [ ! -e "$SHIM_RELEASE" ]; do sleep 0.2; done
  : > "$pkg/done"
  exit 0
  ;;
esac
echo "serve $*" >> "$SHIM_LOG"
if [ -e "$pkg/installing" ] && [ ! -e "$pkg/done" ] && [ -n "$SHIM_NPM_TRIP" ]; then
  echo "npm error code ENOENT" >&2
  echo "npm error enoent ENOENT: no such file or directory, open '$pkg/package.json'" >&2
  exit 254
fi
if [ -e "$pkg/torn" ]; then
  echo "Error: Cannot find module 'ajv'" >&2
  echo "  requireStack: [ '$pkg/dist/index.js' ]" >&2
  exit 1
fi
if [ ! -e "$pkg/done" ]; then
  echo "Error: Cannot find module '$pkg/index.js'" >&2
  exit 1
fi
if [ -n "$SHIM_UPSTREAM" ]; then
  echo "MCP server running on stdio" >&2
  echo "TypeError: fetch failed" >&2
  echo "  [cause]: Error: getaddrinfo ENOTFOUND api.payments.example" >&2
  exit 1
fi
exec node ${JSON.stringify(FIXTURE_SERVER)} normal
`;

let base: string;
let root: string;
let home: string;
let userHome: string;
let cacheDir: string;
let bin: string;
const managers: McpManager[] = [];

function manager(options: Partial<McpManagerOptions> = {}): McpManager {
  const { mcp } = managerWithBin({ root, home, userHome, bin }, options);
  managers.push(mcp);
  return mcp;
}

/** A user's server started through the stand-in, its log and release file named after it. */
function shimServer(name: string, extra: Record<string, unknown> = {}, env = {}, spec = SPEC) {
  return {
    command: 'npx',
    args: ['-y', spec],
    env: {
      SHIM_LOG: path.join(root, `${name}.log`),
      SHIM_RELEASE: path.join(root, `${name}.release`),
      ...env,
    },
    ...extra,
  };
}

async function userServers(servers: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ servers }, null, 2));
}

const release = (name: string) => writeFile(path.join(root, `${name}.release`), '');
const logOf = (name: string) =>
  readFileSync(path.join(root, `${name}.log`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ')[0]);
const cacheOf = (server: string) =>
  runnerCacheDir(cacheDir, 'npm', server, mcpTrustKey({ kind: 'user' }, server));

beforeAll(async () => {
  ({ base, root, userHome, home, cacheDir, bin } = await makeRunnerDirs('garuda-download-'));
  await writeFile(path.join(bin, 'npx'), SHIM, { mode: 0o755 });
});

afterAll(async () => {
  await Promise.all(managers.map((mcp) => mcp.close()));
  rmSync(base, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!HAS_SANDBOX)('the download step of npx servers', () => {
  it('a download longer than the start limit is its own step: the start waits for it, then connects', async () => {
    // The server's own start limit (10 s) is shorter than its download is made to last.
    await userServers({ slow: shimServer('slow', { startTimeoutMs: 10_000 }) });
    const events: StartStepEvent[] = [];
    const stepsSeen: (string | undefined)[] = [];
    let downloadStarted = 0;
    const mcp = manager({
      onStartStep: (event) => {
        events.push(event);
        stepsSeen.push(mcp.status().find((row) => row.name === event.server)?.step);
        if (event.step === 'downloading') {
          downloadStarted = Date.now();
          // Let the download finish only once it has outlasted the start limit.
          setTimeout(() => void release('slow'), 11_000);
        }
      },
    });
    await mcp.start();

    expect(mcp.status().map((row) => [row.name, row.state, row.detail, row.step])).toEqual([
      ['slow', 'connected', undefined, undefined],
    ]);
    expect(downloadStarted).toBeGreaterThan(0);
    expect(events).toEqual([
      { server: 'slow', step: 'downloading', packages: [SPEC] },
      { server: 'slow', step: 'starting', packages: [] },
    ]);
    // status() says the step while it lasts.
    expect(stepsSeen).toEqual(['downloading', 'starting']);
    // The download ran alone, in the server's own cache, before the server.
    expect(logOf('slow')).toEqual(['download', 'serve']);
    expect(readFileSync(path.join(root, 'slow.log'), 'utf8')).toContain(
      `download --yes --package=${SPEC} -- node -e 0`,
    );
    const marker = JSON.parse(readFileSync(path.join(cacheOf('slow'), DOWNLOAD_MARKER), 'utf8'));
    expect(marker.packages).toEqual([SPEC]);
    const result = await mcp.call('mcp__slow__echo', { text: 'hi' });
    expect(result.isError).toBe(false);
    await mcp.close();

    // The next start finds this exact version in the cache: no download step at all.
    const again: StartStepEvent[] = [];
    const warm = manager({ onStartStep: (event) => again.push(event) });
    await warm.start();
    expect(warm.status().map((row) => [row.name, row.state])).toEqual([['slow', 'connected']]);
    expect(again).toEqual([{ server: 'slow', step: 'starting', packages: [] }]);
    expect(logOf('slow')).toEqual(['download', 'serve', 'serve']);
    await warm.close();
  }, 180_000);

  it('a download killed at its limit leaves no marker, and the next start repairs the cache', async () => {
    await userServers({ cut: shimServer('cut') });
    // Nothing releases this download: it ends only at its limit.
    const first = manager({ timeouts: { downloadMs: 2_000 } });
    await first.start();
    const [row] = first.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain(
      `it could not start: "npx" did not finish downloading "${SPEC}" within 2 s. What it fetched stays in the server's own cache: try again, or raise the download time limit (garuda-mcp --download-timeout <seconds>`,
    );
    const cache = cacheOf('cut');
    expect(existsSync(path.join(cache, INSTALLED, 'installing'))).toBe(true);
    expect(existsSync(path.join(cache, INSTALLED, 'done'))).toBe(false);
    expect(existsSync(path.join(cache, DOWNLOAD_MARKER))).toBe(false);
    await first.close();

    await release('cut');
    const second = manager();
    await second.start();
    expect(second.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['cut', 'connected', undefined],
    ]);
    // No marker: what the killed download left was removed before the new one, which found a
    // clean cache (no "broken").
    expect(logOf('cut')).toEqual(['download', 'download', 'serve']);
    expect(existsSync(path.join(cache, DOWNLOAD_MARKER))).toBe(true);
    await second.close();
  }, 180_000);

  it('a half-written cache the runner trips on (exit 254, ENOENT) is removed and downloaded once more', async () => {
    const cache = cacheOf('torn');
    // A marker from an earlier download, and an install someone broke since.
    await mkdir(path.join(cache, INSTALLED), { recursive: true });
    await writeFile(path.join(cache, INSTALLED, 'installing'), '');
    // Not pinned: with a matching marker the step still runs (it checks for a newer version).
    await writeFile(path.join(cache, DOWNLOAD_MARKER), JSON.stringify({ packages: [UNPINNED] }));
    await userServers({ torn: shimServer('torn', {}, {}, UNPINNED) });
    await release('torn');
    const mcp = manager();
    await mcp.start();
    expect(mcp.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['torn', 'connected', undefined],
    ]);
    expect(logOf('torn')).toEqual(['download', 'broken', 'download', 'serve']);
    await mcp.close();
  }, 180_000);

  it('a warm start that npm trips on (a pinned package, half-written since) forgets its download, and the next start repairs it', async () => {
    const cache = cacheOf('trip');
    // A marker for the exact version: the start skips the download step and meets the damage.
    await mkdir(path.join(cache, INSTALLED), { recursive: true });
    await writeFile(path.join(cache, INSTALLED, 'installing'), '');
    await writeFile(path.join(cache, DOWNLOAD_MARKER), JSON.stringify({ packages: [SPEC] }));
    await userServers({ trip: shimServer('trip', {}, { SHIM_NPM_TRIP: '1' }) });
    await release('trip');
    const first = manager();
    await first.start();
    const [row] = first.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain(
      'its package in the cache is incomplete; the next start downloads it again, so try again',
    );
    expect(existsSync(path.join(cache, DOWNLOAD_MARKER))).toBe(false);
    await first.close();

    const second = manager();
    await second.start();
    expect(second.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['trip', 'connected', undefined],
    ]);
    // No marker: the half-written install was removed, then downloaded cleanly (no "broken").
    expect(logOf('trip')).toEqual(['serve', 'download', 'serve']);
    await second.close();
  }, 180_000);

  it('a server that fails on a package installed in part gets a note, and its next start downloads again', async () => {
    const cache = cacheOf('part');
    // A finished download (marker) whose package lost files since: npm does not notice.
    await mkdir(path.join(cache, INSTALLED), { recursive: true });
    for (const file of ['installing', 'done', 'torn']) {
      await writeFile(path.join(cache, INSTALLED, file), '');
    }
    await writeFile(path.join(cache, DOWNLOAD_MARKER), JSON.stringify({ packages: [SPEC] }));
    await userServers({ part: shimServer('part') });
    await release('part');
    const first = manager();
    await first.start();
    const [row] = first.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain(
      'it could not start: it exited with code 1 (note: its package in the cache is incomplete; the next start downloads it again, so try again); stderr: ',
    );
    expect(row?.detail).toContain("Cannot find module 'ajv'");
    expect(existsSync(path.join(cache, DOWNLOAD_MARKER))).toBe(false);
    await first.close();

    const second = manager();
    await second.start();
    expect(second.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['part', 'connected', undefined],
    ]);
    // The first start was warm (marker, exact version): no download; the second had none.
    expect(logOf('part')).toEqual(['serve', 'download', 'serve']);
    await second.close();
  }, 180_000);

  it('a second start of a pinned package runs no download and says nothing of one', async () => {
    await userServers({ warm: shimServer('warm') });
    await release('warm');
    const events: StartStepEvent[] = [];
    const first = manager({ onStartStep: (event) => events.push(event) });
    await first.start();
    expect(first.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['warm', 'connected', undefined],
    ]);
    await first.close();
    expect(existsSync(path.join(cacheOf('warm'), DOWNLOAD_MARKER))).toBe(true);

    const second = manager({ onStartStep: (event) => events.push(event) });
    await second.start();
    expect(second.status().map((row) => [row.name, row.state, row.detail])).toEqual([
      ['warm', 'connected', undefined],
    ]);
    expect(events).toEqual([
      { server: 'warm', step: 'downloading', packages: [SPEC] },
      { server: 'warm', step: 'starting', packages: [] },
      { server: 'warm', step: 'starting', packages: [] },
    ]);
    expect(logOf('warm')).toEqual(['download', 'serve', 'serve']);
    await second.close();
  }, 180_000);

  it('a second start of an unpinned package runs the step as a check, not a download', async () => {
    await userServers({ fresh: shimServer('fresh', {}, {}, UNPINNED) });
    await release('fresh');
    const events: StartStepEvent[] = [];
    const first = manager({ onStartStep: (event) => events.push(event) });
    await first.start();
    expect(first.status().map((row) => [row.name, row.state])).toEqual([['fresh', 'connected']]);
    await first.close();

    const second = manager({ onStartStep: (event) => events.push(event) });
    await second.start();
    expect(second.status().map((row) => [row.name, row.state])).toEqual([['fresh', 'connected']]);
    // npx would ask the registry for the newest version: the step runs, told as a check.
    expect(events).toEqual([
      { server: 'fresh', step: 'downloading', packages: [UNPINNED] },
      { server: 'fresh', step: 'starting', packages: [] },
      { server: 'fresh', step: 'downloading', packages: [UNPINNED], checking: true },
      { server: 'fresh', step: 'starting', packages: [] },
    ]);
    expect(logOf('fresh')).toEqual(['download', 'serve', 'download', 'serve']);
    await second.close();
  }, 180_000);

  it("a download that fails for good says npm's own cause, not where its log is", async () => {
    await userServers({ nope: shimServer('nope', {}, { SHIM_FAIL: '1' }) });
    const mcp = manager();
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toBe(
      `it could not start: "npx" could not download "${SPEC}" (it exited with code 1): code E404 | 404 Not Found - GET https://registry.npmjs.org/nope - Not found`,
    );
    // Not a broken cache: no second try.
    expect(logOf('nope')).toEqual(['download']);
    await mcp.close();
  }, 180_000);

  it('a proxy that started but cannot reach its upstream is told so, not blamed on the download', async () => {
    await userServers({
      proxy: shimServer('proxy', { network: true }, { SHIM_UPSTREAM: '1' }),
    });
    await release('proxy');
    const mcp = manager();
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toMatch(
      /^it started but could not reach its upstream service \(\[cause\]: Error: getaddrinfo ENOTFOUND api\.payments\.example\); it could not start: it exited with code 1/,
    );
    expect(row?.detail).not.toContain('download');
    await mcp.close();
  }, 180_000);

  it("a server's own startTimeoutMs is its start limit", async () => {
    await userServers({
      mute: {
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
        startTimeoutMs: 1_000,
      },
    });
    const mcp = manager();
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain('it did not connect and list its tools within 1 s');
    await mcp.close();
  }, 120_000);
});
