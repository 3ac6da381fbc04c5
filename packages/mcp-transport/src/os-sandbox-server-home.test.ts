// Proofs, with the real OS sandbox and real processes, of `serverHome`: the server's own home is
// writable, the other servers' homes beside it are hidden, and (bubblewrap) its cache is what it
// finds at `~/.cache`, so a program that builds `~/.cache/<name>` from the home folder writes
// into its own home. Skipped loudly where detectSandbox() finds no sandbox, as the other
// os-sandbox-*.test.ts files are.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from './sandbox-policy.js';
import { list, osSandboxCases, put, read } from '../test/support/sandbox.js';

const { available, suite, is, setup, probe, probeSteps, onBwrap, onSeatbelt } =
  await osSandboxCases();

/** A project, a home folder, and two servers' homes (each with a `cache` folder) in one folder. */
function withHomes(homesBase?: (home: string) => string): {
  home: string;
  homesDir: string;
  own: string;
  other: string;
  policy: SandboxPolicy;
} {
  const { home, policy } = setup();
  const homesDir = path.join(
    homesBase?.(home) ?? path.join(home, '.local', 'share', 'garuda-mcp'),
    'servers',
  );
  const own = path.join(homesDir, 'mine');
  const other = path.join(homesDir, 'theirs');
  for (const dir of [own, other]) mkdirSync(path.join(dir, 'cache'), { recursive: true });
  put(path.join(other, 'data.json'), 'the other server’s data');
  return {
    home,
    homesDir,
    own,
    other,
    policy: { ...policy, serverHome: { dir: own, homesDir, cache: path.join(own, 'cache') } },
  };
}

describe.skipIf(!available)(`${suite}: a server's own home`, () => {
  it('lets the server write its own home and hides the other servers’ homes', async () => {
    const { homesDir, own, other, policy } = withHomes();
    const { results, expected } = await probeSteps(policy, [
      [{ op: 'write', path: path.join(own, 'state.json'), data: 'mine' }, 'ok'],
      [{ op: 'read', path: path.join(own, 'state.json') }, 'ok:mine'],
      [{ op: 'read', path: path.join(other, 'data.json') }, is.inHidden],
      [{ op: 'write', path: path.join(other, 'data.json'), data: 'x' }, is.inHidden],
      [{ op: 'mkdir', path: path.join(homesDir, 'new') }, is.readOnly],
    ]);
    expect(results).toEqual(expected);
    expect(read(path.join(own, 'state.json'))).toBe('mine');
    expect(read(path.join(other, 'data.json'))).toBe('the other server’s data');
    expect(list(homesDir)).toEqual(['mine', 'theirs']);
  });

  onBwrap('shows only the own home in the folder of all homes', async () => {
    const { homesDir, policy } = withHomes();
    expect(await probe(policy, [{ op: 'readdir', path: homesDir }])).toEqual(['ok:mine']);
  });

  onBwrap(
    'shows the own cache at ~/.cache: writes land in the server’s home, the user’s cache is not there',
    async () => {
      const { home, own, policy } = withHomes();
      put(path.join(home, '.cache', 'users-own', 'file'), 'private');
      const target = path.join(home, '.cache', 'chrome-devtools-mcp', 'profile');
      const { results, expected } = await probeSteps(policy, [
        [{ op: 'mkdir', path: path.join(home, '.cache', 'chrome-devtools-mcp') }, 'ok'],
        [{ op: 'mkdir', path: target }, 'ok'],
        [{ op: 'write', path: path.join(target, 'prefs'), data: 'p' }, 'ok'],
        [{ op: 'read', path: path.join(home, '.cache', 'users-own', 'file') }, 'ENOENT'],
        [{ op: 'readdir', path: path.join(home, '.cache') }, 'ok:chrome-devtools-mcp'],
      ]);
      expect(results).toEqual(expected);
      expect(read(path.join(own, 'cache', 'chrome-devtools-mcp', 'profile', 'prefs'))).toBe('p');
      expect(list(path.join(home, '.cache'))).toEqual(['users-own']);
    },
  );

  onBwrap('makes a missing ~/.cache as an empty private folder, its mount point', async () => {
    const { home, own, policy } = withHomes();
    expect(await probe(policy, [{ op: 'write', path: path.join(home, '.cache', 'x') }])).toEqual([
      'ok',
    ]);
    expect(statSync(path.join(home, '.cache')).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.join(home, '.cache'))).toEqual([]);
    expect(list(path.join(own, 'cache'))).toEqual(['x']);
  });

  onBwrap('lets a write path of ~/.cache given explicitly win over the own cache', async () => {
    const { home, own, policy } = withHomes();
    const cache = path.join(home, '.cache');
    mkdirSync(cache);
    await probe({ ...policy, writePaths: [cache] }, [
      { op: 'write', path: path.join(cache, 'real'), data: 'r' },
    ]);
    expect(read(path.join(cache, 'real'))).toBe('r');
    expect(list(path.join(own, 'cache'))).toEqual([]);
  });

  onBwrap('leaves ~/.cache alone when the server homes are inside it', async () => {
    const { home, own, policy } = withHomes((dir) => path.join(dir, '.cache', 'garuda-mcp'));
    const { results, expected } = await probeSteps(policy, [
      [{ op: 'write', path: path.join(own, 'cache', 'y'), data: 'y' }, 'ok'],
      [{ op: 'write', path: path.join(home, '.cache', 'z') }, is.readOnly],
    ]);
    expect(results).toEqual(expected);
    expect(read(path.join(own, 'cache', 'y'))).toBe('y');
  });

  onSeatbelt(
    'keeps ~/.cache the user’s, read-only (Seatbelt cannot show one folder at another’s place)',
    async () => {
      const { home, policy } = withHomes();
      mkdirSync(path.join(home, '.cache'));
      expect(await probe(policy, [{ op: 'write', path: path.join(home, '.cache', 'x') }])).toEqual([
        is.readOnly,
      ]);
    },
  );
});
