// The policies buildSandbox refuses, and how it says so. Nothing here runs bubblewrap. Checked
// with bubblewrap's plan and Linux's socket places, so Linux only (LINUX_LAYOUT).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { InvalidPolicyError } from './errors.js';
import { BWRAP, LINUX_LAYOUT, projectFolders, put, tree } from '../test/support/sandbox.js';

const { temp, setup } = projectFolders({ prefix: 'build' });
afterAll(() => temp.cleanup());

describe.runIf(LINUX_LAYOUT)('buildSandbox: policy validation', () => {
  const { root, policy } = setup();
  const file = put(path.join(root, 'a-file'), '');
  const homes = path.join(path.dirname(root), 'homes');
  const ownHome = path.join(homes, 'own');
  mkdirSync(ownHome, { recursive: true });
  const inGaruda = path.join(policy.garudaHome, 'servers');
  mkdirSync(inGaruda, { recursive: true });
  const cases: [string, () => unknown, string][] = [
    [
      'a relative root',
      () => buildSandbox(['node'], { ...policy, root: 'project' }, BWRAP),
      'root',
    ],
    [
      'a root with NUL',
      () => buildSandbox(['node'], { ...policy, root: `${root}\0x` }, BWRAP),
      'root',
    ],
    [
      'a missing root',
      () => buildSandbox(['node'], { ...policy, root: `${root}-missing` }, BWRAP),
      'root',
    ],
    [
      'a root that is a file',
      () => buildSandbox(['node'], { ...policy, root: file }, BWRAP),
      'root',
    ],
    ['/ as the root', () => buildSandbox(['node'], { ...policy, root: '/' }, BWRAP), 'root'],
    [
      'a missing write path',
      () => buildSandbox(['node'], { ...policy, writePaths: [`${root}/nope`] }, BWRAP),
      'writePaths[0]',
    ],
    [
      'a relative write path',
      () => buildSandbox(['node'], { ...policy, writePaths: [root, 'x'] }, BWRAP),
      'writePaths[1]',
    ],
    [
      '/ as a write path',
      () => buildSandbox(['node'], { ...policy, writePaths: ['/'] }, BWRAP),
      'writePaths[0]',
    ],
    [
      'write paths that are not an array',
      () => buildSandbox(['node'], { ...policy, writePaths: root as never }, BWRAP),
      'writePaths',
    ],
    [
      'a missing read path',
      () => buildSandbox(['node'], { ...policy, readPaths: [`${root}/nope`] }, BWRAP),
      'readPaths[0]',
    ],
    [
      'garudaHome as a read path',
      () => buildSandbox(['node'], { ...policy, readPaths: [root, policy.garudaHome] }, BWRAP),
      'readPaths[1]',
    ],
    [
      'a missing file in garudaHome as a read path',
      () =>
        buildSandbox(
          ['node'],
          { ...policy, readPaths: [path.join(policy.garudaHome, 'mcp-auth.json')] },
          BWRAP,
        ),
      'readPaths[0]',
    ],
    [
      'a hidden socket place as a read path',
      () => buildSandbox(['node'], { ...policy, readPaths: ['/run/user/1000/bus'] }, BWRAP),
      'readPaths[0]',
    ],
    [
      "Docker's socket as a read path",
      () => buildSandbox(['node'], { ...policy, readPaths: ['/var/run/docker.sock'] }, BWRAP),
      'readPaths[0]',
    ],
    [
      'a temp dir that is a file',
      () => buildSandbox(['node'], { ...policy, tempDirs: [file] }, BWRAP),
      'tempDirs[0]',
    ],
    ['a relative home', () => buildSandbox(['node'], { ...policy, home: '~' }, BWRAP), 'home'],
    [
      'no garudaHome',
      () => buildSandbox(['node'], { ...policy, garudaHome: undefined as never }, BWRAP),
      'garudaHome',
    ],
    [
      'a missing cwd',
      () => buildSandbox(['node'], { ...policy, cwd: `${root}/nope` }, BWRAP),
      'cwd',
    ],
    [
      'network that is not a boolean',
      () => buildSandbox(['node'], { ...policy, network: 'yes' as never }, BWRAP),
      'network',
    ],
    [
      'no baseEnv',
      () => buildSandbox(['node'], { ...policy, baseEnv: undefined as never }, BWRAP),
      'baseEnv',
    ],
    [
      'an env name with =',
      () => buildSandbox(['node'], { ...policy, env: { 'A=B': 'x' } }, BWRAP),
      'env',
    ],
    [
      'an env value with NUL',
      () => buildSandbox(['node'], { ...policy, env: { A: 'x\0y' } }, BWRAP),
      'env.A',
    ],
    [
      'a server home not inside the folder of homes',
      () =>
        buildSandbox(['node'], { ...policy, serverHome: { dir: root, homesDir: homes } }, BWRAP),
      'serverHome.dir',
    ],
    [
      'a server home that is the folder of homes',
      () =>
        buildSandbox(['node'], { ...policy, serverHome: { dir: homes, homesDir: homes } }, BWRAP),
      'serverHome.dir',
    ],
    [
      'a missing server home',
      () =>
        buildSandbox(
          ['node'],
          { ...policy, serverHome: { dir: path.join(homes, 'nope'), homesDir: homes } },
          BWRAP,
        ),
      'serverHome.dir',
    ],
    [
      'a server cache outside the server home',
      () =>
        buildSandbox(
          ['node'],
          { ...policy, serverHome: { dir: ownHome, homesDir: homes, cache: root } },
          BWRAP,
        ),
      'serverHome.cache',
    ],
    [
      "server homes inside Garuda's home",
      () =>
        buildSandbox(
          ['node'],
          { ...policy, serverHome: { dir: inGaruda, homesDir: policy.garudaHome } },
          BWRAP,
        ),
      'serverHome.homesDir',
    ],
    [
      'a server home that is not an object',
      () => buildSandbox(['node'], { ...policy, serverHome: 'x' as never }, BWRAP),
      'serverHome',
    ],
    ['an empty argv', () => buildSandbox([], policy, BWRAP), 'argv'],
    ['an empty command', () => buildSandbox([''], policy, BWRAP), 'argv[0]'],
    ['an argument with NUL', () => buildSandbox(['node', 'a\0b'], policy, BWRAP), 'argv[1]'],
    [
      'bwrap on macOS',
      () => buildSandbox(['node'], { ...policy, platform: 'darwin' }, BWRAP),
      'sandbox.kind',
    ],
    [
      'seatbelt on Linux',
      () =>
        buildSandbox(
          ['node'],
          { ...policy, platform: 'linux' },
          { kind: 'seatbelt', command: '/usr/bin/sandbox-exec' },
        ),
      'sandbox.kind',
    ],
    [
      'bwrap without its path',
      () => buildSandbox(['node'], policy, { kind: 'bwrap' }),
      'sandbox.command',
    ],
    [
      'an unknown sandbox kind',
      () => buildSandbox(['node'], policy, { kind: 'docker' as never }),
      'sandbox.kind',
    ],
  ];

  it.each(cases)('throws InvalidPolicyError for %s', (_name, build, field) => {
    let error: unknown;
    try {
      build();
    } catch (e) {
      error = e;
    }
    expect(InvalidPolicyError.isInstance(error)).toBe(true);
    expect((error as InvalidPolicyError).code).toBe('TRANSPORT_INVALID_POLICY');
    expect((error as InvalidPolicyError).field).toBe(field);
    expect((error as Error).message).toMatch(/^invalid sandbox policy: /);
  });

  it('says why garudaHome and the socket places are never shown', () => {
    expect(() =>
      buildSandbox(['node'], { ...policy, readPaths: [policy.garudaHome] }, BWRAP),
    ).toThrow(
      /^invalid sandbox policy: readPaths\[0\] ".*\.garuda" is Garuda's own folder, which holds its tokens and trust: no server may read it/,
    );
    const inside = path.join(policy.garudaHome, 'trust.json');
    expect(() => buildSandbox(['node'], { ...policy, readPaths: [inside] }, BWRAP)).toThrow(
      `readPaths[0] "${inside}" leads into "${policy.garudaHome}", Garuda's own folder`,
    );
    expect(() => buildSandbox(['node'], { ...policy, readPaths: ['/run/dbus'] }, BWRAP)).toThrow(
      /"\/run\/dbus" is a place whose sockets lead out of the sandbox/,
    );
  });

  it('quotes paths in messages, so a newline cannot start a fake line', () => {
    expect(() =>
      buildSandbox(['node'], { ...policy, root: `${root}\nNetwork: no` }, BWRAP),
    ).toThrow(/"[^"\n]*\\nNetwork: no" does not exist/);
  });

  it('does not create anything when validation fails', () => {
    const { root: fresh, home, policy: p } = setup();
    mkdirSync(path.join(fresh, '.git'));
    writeFileSync(path.join(fresh, '.git', 'config'), '');
    expect(() => buildSandbox([''], p, BWRAP)).toThrow();
    expect(existsSync(path.join(fresh, '.garuda'))).toBe(false);
    expect(existsSync(path.join(fresh, '.git', 'hooks'))).toBe(false);
    // No credential placeholders either, although the home folder would be writable.
    expect(() => buildSandbox(['garuda-no-such-server'], { ...p, root: home }, BWRAP)).toThrow(
      expect.objectContaining({ name: 'SpawnFailedError', code: 'TRANSPORT_COMMAND_NOT_FOUND' }),
    );
    expect(tree(home)).toEqual({});
  });
});
