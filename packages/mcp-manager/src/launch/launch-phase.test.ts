// The launch phase's part in a server's home: its folder, the placeholder, the XDG variables.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchPhase, type LocalPlan } from './launch-phase.js';
import { serverPolicy } from '../start/server-policy.js';
import { localServer } from '../../test/support/servers.js';

const base = mkdtempSync(path.join(os.tmpdir(), 'garuda-launch-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const ROOT = path.join(base, 'project');
const HOMES = path.join(base, 'homes');

const launch = launchPhase({
  root: ROOT,
  home: path.join(base, 'user', '.garuda'),
  userHome: path.join(base, 'user'),
  cacheDir: path.join(base, 'cache'),
  serverHomesDir: HOMES,
  env: { PATH: '/usr/bin', HOME: path.join(base, 'user') },
  tempDirs: [],
  sandboxReadPaths: [],
});

const server = localServer({
  name: 'mem',
  source: 'user',
  file: path.join(base, 'user', '.garuda', 'mcp.json'),
  def: { command: 'mem-server', args: ['--db=${GARUDA_SERVER_HOME}/db', '${OTHER}'] },
  env: {
    MEMORY_FILE_PATH: {
      value: '${GARUDA_SERVER_HOME}/memory.jsonl',
      source: { kind: 'literal' },
    },
    XDG_CONFIG_HOME: { value: '/mine', source: { kind: 'literal' } },
  },
});

function plan(sandboxed: boolean): LocalPlan {
  const result = launch(
    server,
    serverPolicy(server, ROOT),
    sandboxed ? { kind: 'bwrap', command: '/usr/bin/bwrap' } : { kind: 'none', reason: 'x' },
  );
  if (!('kind' in result)) throw new Error(result.detail);
  return result;
}

describe('the launch phase and the server home', () => {
  it('creates the home, writable in the sandbox, with the XDG folders; the placeholder in env and args', () => {
    const home = path.join(HOMES, 'mem');
    const sandboxed = plan(true);
    expect(sandboxed.home).toBe(home);
    expect((statSync(home).mode & 0o777).toString(8)).toBe('700');
    expect(sandboxed.argv).toEqual(['mem-server', `--db=${home}/db`, '${OTHER}']);
    expect(sandboxed.policy.serverHome).toEqual({
      dir: home,
      homesDir: path.dirname(home),
      cache: path.join(home, 'cache'),
    });
    expect(sandboxed.policy.env).toMatchObject({
      MEMORY_FILE_PATH: `${home}/memory.jsonl`,
      XDG_DATA_HOME: `${home}/data`,
      XDG_CACHE_HOME: `${home}/cache`,
      XDG_STATE_HOME: `${home}/state`,
      // The server's own env wins.
      XDG_CONFIG_HOME: '/mine',
    });
  });

  it('without a sandbox: the placeholder only, the XDG variables stay the user’s', () => {
    const bare = plan(false);
    expect(bare.policy.env?.MEMORY_FILE_PATH).toBe(path.join(HOMES, 'mem', 'memory.jsonl'));
    expect(bare.policy.env).not.toHaveProperty('XDG_DATA_HOME');
  });
});
