import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ensureServerHome,
  prepareServerHome,
  serverHomeEnv,
  serverHomeOf,
  withServerHome,
} from './server-home.js';

describe('serverHomeOf', () => {
  it("is <dir>/<name> for a user's server, <dir>/<name>.<hash12> per project", () => {
    expect(serverHomeOf('/d', { name: 'mem', source: 'user' }, '/p/a')).toBe('/d/mem');
    const a = serverHomeOf('/d', { name: 'mem', source: 'project' }, '/p/a');
    const b = serverHomeOf('/d', { name: 'mem', source: 'project' }, '/p/b');
    expect(a).toMatch(/^\/d\/mem\.[0-9a-f]{12}$/);
    expect(b).toMatch(/^\/d\/mem\.[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(serverHomeOf('/d', { name: 'mem', source: 'project' }, '/p/a/')).toBe(a);
  });

  it('refuses a name that would lead out of the folder', () => {
    for (const name of ['..', '.', '', 'a/b', '../x', 'a\\b', 'a\0b']) {
      expect(() => serverHomeOf('/d', { name, source: 'user' }, '/p')).toThrow(
        /cannot name a folder/,
      );
    }
  });
});

describe('the placeholder and the XDG variables', () => {
  it('replaces every ${GARUDA_SERVER_HOME}, and nothing else', () => {
    expect(withServerHome('${GARUDA_SERVER_HOME}/m.jsonl', '/h')).toBe('/h/m.jsonl');
    expect(withServerHome('--db=${GARUDA_SERVER_HOME}/a:${GARUDA_SERVER_HOME}', '/h')).toBe(
      '--db=/h/a:/h',
    );
    expect(withServerHome('$GARUDA_SERVER_HOME ${OTHER}', '/h')).toBe(
      '$GARUDA_SERVER_HOME ${OTHER}',
    );
    expect(serverHomeEnv('/h')).toEqual({
      XDG_CACHE_HOME: '/h/cache',
      XDG_DATA_HOME: '/h/data',
      XDG_CONFIG_HOME: '/h/config',
      XDG_STATE_HOME: '/h/state',
    });
  });
});

describe('ensureServerHome', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'garuda-server-home-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('makes the folders it creates 0700, whatever the umask, and is idempotent', async () => {
    const old = process.umask(0o022);
    try {
      const dir = path.join(base, 'a', 'b', 'srv');
      ensureServerHome(dir);
      ensureServerHome(dir);
      for (const at of [
        path.join(base, 'a'),
        path.join(base, 'a', 'b'),
        dir,
        path.join(dir, 'state'),
      ]) {
        expect(((await stat(at)).mode & 0o777).toString(8)).toBe('700');
      }
    } finally {
      process.umask(old);
    }
  });

  it('sets the XDG variables only in the sandbox', () => {
    const where = { serverHomesDir: base, root: '/p' };
    expect(prepareServerHome({ name: 's', source: 'user' }, where, false)).toEqual({
      dir: path.join(base, 's'),
      cache: path.join(base, 's', 'cache'),
      env: {},
    });
    expect(prepareServerHome({ name: 's', source: 'user' }, where, true).env.XDG_DATA_HOME).toBe(
      path.join(base, 's', 'data'),
    );
  });
});
