import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import type { SandboxInfo } from './detect-sandbox.js';
import { InvalidPolicyError, TransportErrorCode, UnprotectablePathError } from './errors.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { TempDirs, projectWithHome, put, script, tree } from './sandbox-test-support.js';

// Structure only: nothing here runs bubblewrap (bwrap-sandbox.test.ts does).
const BWRAP: SandboxInfo = { kind: 'bwrap', command: '/usr/bin/bwrap', version: '0.8.0' };
const NODE_DIR = path.dirname(process.execPath);

const temp = new TempDirs();
afterAll(() => temp.cleanup());

function setup(base = '/var/tmp'): { root: string; home: string; policy: SandboxPolicy } {
  return projectWithHome(temp, { prefix: 'build', base });
}

/** Index of the option `flag` followed by `values` in `args` (-1 when absent). */
function at(args: readonly string[], flag: string, ...values: string[]): number {
  return args.findIndex(
    (arg, i) => arg === flag && values.every((value, j) => args[i + 1 + j] === value),
  );
}

describe('buildSandbox with bubblewrap: the command line', () => {
  it('starts with the hardened flags and shares the network only when allowed', () => {
    const { policy } = setup();
    const off = buildSandbox(['node', '-v'], policy, BWRAP);
    expect(off.command).toBe('/usr/bin/bwrap');
    expect(off.args.slice(0, 8)).toEqual([
      '--die-with-parent',
      '--new-session',
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      '--ro-bind',
    ]);
    expect(off.args).not.toContain('--share-net');

    const on = buildSandbox(['node', '-v'], { ...policy, network: true }, BWRAP);
    expect(on.args.slice(0, 4)).toEqual([
      '--die-with-parent',
      '--new-session',
      '--unshare-all',
      '--share-net',
    ]);
    expect(on.args.filter((arg) => arg === '--share-net')).toHaveLength(1);
  });

  it('orders the mounts: / read-only, /dev, /proc, /tmp, binds, protections, hides; then chdir, argv', () => {
    const { root, home, policy } = setup();
    const extra = temp.make('extra');
    put(path.join(root, '.git', 'config'), '[core]\n');
    mkdirSync(path.join(root, '.git', 'hooks'));
    put(path.join(home, '.ssh', 'id_rsa'), 'key');
    put(path.join(home, '.netrc'), 'secret');
    mkdirSync(path.join(home, '.garuda'));

    const { args, env, cwd } = buildSandbox(
      ['node', 'server.js', '--flag'],
      { ...policy, writePaths: [extra], env: { TOKEN: 'ghp_secret' } },
      BWRAP,
    );
    const positions = [
      at(args, '--ro-bind', '/', '/'),
      at(args, '--dev', '/dev'),
      at(args, '--proc', '/proc'),
      at(args, '--tmpfs', '/tmp'),
      // Binds go parents first (by depth), so the root and a write path may come in either order.
      Math.min(at(args, '--bind', root, root), at(args, '--bind', extra, extra)),
      Math.max(at(args, '--bind', root, root), at(args, '--bind', extra, extra)),
      at(args, '--tmpfs', path.join(root, '.garuda')),
      at(args, '--remount-ro', path.join(root, '.garuda')),
      at(args, '--bind', path.join(root, '.git'), path.join(root, '.git')),
      at(args, '--ro-bind', path.join(root, '.git', 'hooks'), path.join(root, '.git', 'hooks')),
      at(args, '--ro-bind', path.join(root, '.git', 'config'), path.join(root, '.git', 'config')),
      at(args, '--tmpfs', path.join(home, '.garuda')),
      at(args, '--tmpfs', path.join(home, '.ssh')),
      at(args, '--dev-bind', '/dev/null', path.join(home, '.netrc')),
      at(args, '--chdir', root),
      at(args, '--', process.execPath, 'server.js', '--flag'),
    ];
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The argv ends the command line.
    expect(args.slice(-4)).toEqual(['--', process.execPath, 'server.js', '--flag']);
    expect(env).toEqual({ PATH: `${NODE_DIR}:/usr/bin:/bin`, HOME: home, TOKEN: 'ghp_secret' });
    // The environment travels as spawn's env: any user can read a command line (ps).
    expect(args.join('\0')).not.toContain('ghp_secret');
    expect(args).not.toContain('--setenv');
    expect(cwd).toBe(root);
    // Hidden folders are read-only empty folders.
    expect(at(args, '--remount-ro', path.join(home, '.ssh'))).toBeGreaterThan(
      at(args, '--tmpfs', path.join(home, '.ssh')),
    );
  });

  it('hides only credential paths that exist (bubblewrap cannot make mount points in a read-only /)', () => {
    const { home, policy } = setup();
    put(path.join(home, '.aws', 'credentials'), 'x');
    const { args } = buildSandbox(['node'], policy, BWRAP);
    expect(at(args, '--tmpfs', path.join(home, '.aws'))).toBeGreaterThan(0);
    for (const missing of ['.ssh', '.gnupg', '.kube', '.npmrc', '.garuda']) {
      expect(args).not.toContain(path.join(home, missing));
    }
  });

  it('puts the hides after the binds when the root is the home folder', () => {
    const { home, policy } = setup();
    put(path.join(home, '.ssh', 'id_rsa'), 'key');
    put(path.join(home, '.garuda', 'trust.json'), '{}');
    const { args } = buildSandbox(['node'], { ...policy, root: home }, BWRAP);
    const bind = at(args, '--bind', home, home);
    // <root>/.garuda is garudaHome here: protected read-only, then hidden on top.
    const protect = at(args, '--ro-bind', path.join(home, '.garuda'), path.join(home, '.garuda'));
    const hide = at(args, '--tmpfs', path.join(home, '.garuda'));
    expect(bind).toBeGreaterThan(0);
    expect(protect).toBeGreaterThan(bind);
    expect(hide).toBeGreaterThan(protect);
    expect(at(args, '--tmpfs', path.join(home, '.ssh'))).toBeGreaterThan(bind);
  });

  it('keeps missing credential paths from being created only where the home folder is writable', () => {
    const { home, policy } = setup();
    const project = buildSandbox(['node'], policy, BWRAP).args;
    expect(project.join('\0')).not.toContain(home);
    expect(tree(home)).toEqual({}); // nothing made where the server cannot write anyway

    const { args } = buildSandbox(['node'], { ...policy, root: home }, BWRAP);
    const bind = at(args, '--bind', home, home);
    const config = path.join(home, '.config');
    // A folder above a credential path is pinned (it cannot be renamed) before anything is
    // mounted inside it, and the placeholders come last.
    expect(at(args, '--bind', config, config)).toBeGreaterThan(bind);
    expect(at(args, '--tmpfs', path.join(config, 'gh'))).toBeGreaterThan(
      at(args, '--bind', config, config),
    );
    expect(at(args, '--remount-ro', path.join(config, 'gh'))).toBeGreaterThan(0);
    expect(at(args, '--tmpfs', path.join(home, '.ssh'))).toBeGreaterThan(bind);
    expect(
      at(args, '--dev-bind', '/dev/null', path.join(home, '.git-credentials')),
    ).toBeGreaterThan(bind);
    // A file whose folder is missing too: only the folder, empty and read-only.
    expect(at(args, '--tmpfs', path.join(home, '.docker'))).toBeGreaterThan(bind);
    expect(args).not.toContain(path.join(home, '.docker', 'config.json'));
    // Made here, before bubblewrap runs, with the permissions the tools would use.
    expect(tree(home)).toMatchObject({
      '.ssh': 'folder 700',
      '.config': 'folder 700',
      '.config/gh': 'folder 700',
      '.docker': 'folder 700',
      '.git-credentials': 'file 600 ',
    });
  });

  it('pins the folders above a hidden path before a write path inside them is bound', () => {
    const { home, policy } = setup();
    const tool = path.join(home, '.config', 'tool');
    put(path.join(tool, '.git', 'config'), '');
    mkdirSync(path.join(tool, '.git', 'hooks'));
    put(path.join(home, '.config', 'gh', 'hosts.yml'), 'token');
    const { args } = buildSandbox(['node'], { ...policy, root: home, writePaths: [tool] }, BWRAP);
    const config = path.join(home, '.config');
    const hooks = path.join(tool, '.git', 'hooks');
    const positions = [
      at(args, '--bind', home, home),
      at(args, '--bind', config, config),
      at(args, '--bind', tool, tool),
      at(args, '--ro-bind', hooks, hooks),
      at(args, '--tmpfs', path.join(config, 'gh')),
    ];
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('refuses a credential path, or a folder above one, that is a link the server could replace', () => {
    const { home, policy } = setup();
    const dotfiles = temp.make('dotfiles');
    put(path.join(dotfiles, 'npmrc'), '//registry.npmjs.org/:_authToken=x');
    symlinkSync(path.join(dotfiles, 'npmrc'), path.join(home, '.npmrc'));
    // The project cannot touch the home folder: the link is fine, hidden at its target.
    expect(
      at(
        buildSandbox(['node'], policy, BWRAP).args,
        '--dev-bind',
        '/dev/null',
        path.join(dotfiles, 'npmrc'),
      ),
    ).toBeGreaterThan(0);
    const refused = (p: SandboxPolicy): unknown => {
      try {
        buildSandbox(['node'], p, BWRAP);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const widened of [
      { ...policy, root: home },
      { ...policy, writePaths: [home] },
    ]) {
      const error = refused(widened);
      expect(UnprotectablePathError.isInstance(error)).toBe(true);
      expect((error as UnprotectablePathError).path).toBe(path.join(home, '.npmrc'));
    }
    // A link to a folder above a credential path, e.g. a dotfiles manager's ~/.config.
    rmSync(path.join(home, '.npmrc'));
    mkdirSync(path.join(dotfiles, 'config'));
    symlinkSync(path.join(dotfiles, 'config'), path.join(home, '.config'));
    const error = refused({ ...policy, root: home });
    expect((error as UnprotectablePathError).path).toBe(path.join(home, '.config'));
    // Refused before anything was made.
    expect(Object.keys(tree(home))).toEqual(['.config']);
    expect(Object.keys(tree(dotfiles))).toEqual(['config', 'npmrc']);
  });

  it('binds a root under /tmp on top of the fresh /tmp, and a temp dir inside the root after the root', () => {
    const { root, policy } = setup('/tmp');
    const inner = path.join(root, 'scratch');
    mkdirSync(inner);
    const { args } = buildSandbox(['node'], { ...policy, tempDirs: [inner] }, BWRAP);
    expect(at(args, '--tmpfs', '/tmp')).toBeLessThan(at(args, '--bind', root, root));
    expect(at(args, '--bind', root, root)).toBeLessThan(at(args, '--tmpfs', inner));
  });

  it('uses real paths, so a root reached through a symbolic link is still mounted', () => {
    const { root, policy } = setup();
    const link = path.join(temp.make('link'), 'to-project');
    symlinkSync(root, link);
    const { args, cwd } = buildSandbox(['node'], { ...policy, root: link }, BWRAP);
    expect(at(args, '--bind', root, root)).toBeGreaterThan(0);
    expect(args).not.toContain(link);
    expect(cwd).toBe(root);
  });

  it('hides a linked credential folder at its target', () => {
    const { home, policy } = setup();
    const keys = temp.make('keys');
    put(path.join(keys, 'id_ed25519'), 'key');
    symlinkSync(keys, path.join(home, '.ssh'));
    const { args } = buildSandbox(['node'], policy, BWRAP);
    expect(at(args, '--tmpfs', keys)).toBeGreaterThan(0);
  });

  it('binds a revealed credential path read-only after its hiding, and a file inside before the remount', () => {
    const { home, policy } = setup();
    const kube = path.join(home, '.kube');
    const config = put(path.join(kube, 'config'), 'apiVersion: v1');
    put(path.join(home, '.ssh', 'id_rsa'), 'key');

    const folder = buildSandbox(['node'], { ...policy, readPaths: [kube] }, BWRAP).args;
    const hide = at(folder, '--tmpfs', kube);
    expect(hide).toBeGreaterThan(0);
    expect(at(folder, '--remount-ro', kube)).toBe(hide + 2);
    expect(at(folder, '--ro-bind', kube, kube)).toBeGreaterThan(hide);
    expect(at(folder, '--tmpfs', path.join(home, '.ssh'))).toBeGreaterThan(0);

    // A file inside a hidden folder needs its mount point made in the fresh tmpfs first.
    const file = buildSandbox(['node'], { ...policy, readPaths: [config] }, BWRAP).args;
    const order = [
      at(file, '--tmpfs', kube),
      at(file, '--ro-bind', config, config),
      at(file, '--remount-ro', kube),
      at(file, '--chdir', policy.root),
    ];
    expect(order.every((p) => p > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Never a writable bind.
    expect(at(file, '--bind', config, config)).toBe(-1);
    expect(at(folder, '--bind', kube, kube)).toBe(-1);
  });

  it('reveals nothing through a read path that holds hidden paths, and binds files under /tmp', () => {
    const { home, policy } = setup();
    put(path.join(home, '.kube', 'config'), 'x');
    const installed = put(path.join(temp.make('installed', '/tmp'), 'server.js'), '');
    const { args } = buildSandbox(['node'], { ...policy, readPaths: [home, installed] }, BWRAP);
    expect(args).not.toContain(home);
    expect(at(args, '--tmpfs', path.join(home, '.kube'))).toBeGreaterThan(0);
    expect(args.filter((arg) => arg === path.join(home, '.kube'))).toHaveLength(2); // tmpfs, remount
    expect(at(args, '--ro-bind', installed, installed)).toBeGreaterThan(
      at(args, '--tmpfs', '/tmp'),
    );
  });

  it('protects .git as a file (worktree, submodule) and the paths .git/config names inside the project', () => {
    const { root, home, policy } = setup();
    put(path.join(root, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    const a = buildSandbox(['node'], policy, BWRAP).args;
    expect(at(a, '--ro-bind', path.join(root, '.git'), path.join(root, '.git'))).toBeGreaterThan(0);

    const other = setup();
    put(
      path.join(other.root, '.git', 'config'),
      [
        '[core]',
        '\thooksPath = .githooks',
        '[include]',
        '\tpath = ../shared.gitconfig',
        '[includeIf "gitdir:~/work/"]',
        '\tpath = ~/.gitconfig-work',
        '[include]',
        `\tpath = ${home}/outside-the-project`,
      ].join('\n'),
    );
    put(path.join(other.root, 'shared.gitconfig'), '[alias]\n');
    const b = buildSandbox(['node'], other.policy, BWRAP).args;
    // Missing hooks folder: kept from being created. Existing include: read-only.
    expect(at(b, '--tmpfs', path.join(other.root, '.githooks'))).toBeGreaterThan(0);
    expect(
      at(
        b,
        '--ro-bind',
        path.join(other.root, 'shared.gitconfig'),
        path.join(other.root, 'shared.gitconfig'),
      ),
    ).toBeGreaterThan(0);
    // Outside every writable folder: already read-only, nothing to add.
    expect(b).not.toContain(path.join(other.home, '.gitconfig-work'));
    expect(b).not.toContain(`${home}/outside-the-project`);

    // The same include, with the home folder as the root: now protected.
    const c = buildSandbox(['node'], { ...other.policy, root: other.home }, BWRAP).args;
    expect(c).not.toContain(path.join(other.home, '.gitconfig-work')); // no .git in the home folder
  });

  it('also protects .git in a write path, but creates no .garuda there', () => {
    const { policy } = setup();
    const extra = temp.make('extra');
    put(path.join(extra, '.git', 'config'), '');
    const { args } = buildSandbox(['node'], { ...policy, writePaths: [extra] }, BWRAP);
    expect(at(args, '--bind', path.join(extra, '.git'), path.join(extra, '.git'))).toBeGreaterThan(
      0,
    );
    expect(at(args, '--tmpfs', path.join(extra, '.git', 'hooks'))).toBeGreaterThan(0);
    expect(args).not.toContain(path.join(extra, '.garuda'));
  });

  it.each(['.garuda', '.git', '.git/hooks', '.git/config'])(
    'refuses a symbolic link at %s',
    (name) => {
      const { root, policy } = setup();
      mkdirSync(path.join(root, '.git'), { recursive: true });
      const target = temp.make('target');
      const link = path.join(root, name);
      if (name === '.git') {
        // Replace the folder with a link.
        rmSync(link, { recursive: true });
      }
      symlinkSync(target, link);
      const error = (() => {
        try {
          buildSandbox(['node'], policy, BWRAP);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(UnprotectablePathError.isInstance(error)).toBe(true);
      expect((error as UnprotectablePathError).code).toBe(TransportErrorCode.UNPROTECTABLE_PATH);
      expect((error as UnprotectablePathError).path).toBe(link);
    },
  );
});

describe('buildSandbox: the command', () => {
  it('resolves a bare command through the final environment’s PATH', () => {
    const { root, policy } = setup();
    const bin = path.join(root, 'bin');
    script(path.join(bin, 'my-server'), 'exit 0');
    const { args } = buildSandbox(
      ['my-server', 'stdio'],
      { ...policy, env: { PATH: `${bin}:/usr/bin` } },
      BWRAP,
    );
    expect(args.slice(-3)).toEqual(['--', path.join(bin, 'my-server'), 'stdio']);
  });

  it('resolves a relative command against the working folder', () => {
    const { root, policy } = setup();
    script(path.join(root, 'tools', 'serve'), 'exit 0');
    const { args } = buildSandbox(['./tools/serve'], policy, BWRAP);
    expect(args.at(-1)).toBe(path.join(root, 'tools', 'serve'));
  });

  it('throws COMMAND_NOT_FOUND for a command on no PATH folder', () => {
    const { policy } = setup();
    expect(() => buildSandbox(['garuda-no-such-server'], policy, BWRAP)).toThrow(
      expect.objectContaining({ name: 'SpawnFailedError', code: 'COMMAND_NOT_FOUND' }),
    );
    expect(() => buildSandbox(['garuda-no-such-server'], policy, BWRAP)).toThrow(
      /command not found: "garuda-no-such-server"/,
    );
  });

  it('throws COMMAND_NOT_FOUND for a command the sandbox would not show (under /tmp)', () => {
    const { policy } = setup();
    const dir = temp.make('bin', '/tmp');
    const file = path.join(dir, 'node-copy');
    copyFileSync(process.execPath, file);
    chmodSync(file, 0o755);
    expect(() => buildSandbox([file], policy, BWRAP)).toThrow(/not visible inside the sandbox/);
    // Inside a root under /tmp it is visible (the root is bound on top).
    expect(() => buildSandbox([file], { ...policy, root: dir }, BWRAP)).not.toThrow();
  });

  it('leaves the argv alone without a sandbox (the transport reports a missing command)', () => {
    const { root, home, policy } = setup();
    const result = buildSandbox(
      ['garuda-no-such-server', '--x'],
      { ...policy, baseEnv: { ...policy.baseEnv, SECRET: 's', TERM: 'xterm' }, env: { A: '1' } },
      { kind: 'none', reason: 'no OS sandbox on win32 yet' },
    );
    expect(result).toEqual({
      command: 'garuda-no-such-server',
      args: ['--x'],
      env: { PATH: `${NODE_DIR}:/usr/bin:/bin`, HOME: home, TERM: 'xterm', A: '1' },
      cwd: root,
      // Said, never silent: the caller learns it is not sandboxed, and why.
      sandboxed: { kind: 'none', reason: 'no OS sandbox on win32 yet' },
    });
  });

  it('says which sandbox the command runs in', () => {
    const { policy } = setup();
    expect(buildSandbox(['node'], { ...policy, platform: 'linux' }, BWRAP).sandboxed).toEqual({
      kind: 'bwrap',
    });
    const seatbelt = buildSandbox(
      ['/bin/sh'],
      { ...policy, platform: 'darwin' },
      {
        kind: 'seatbelt',
        command: '/usr/bin/sandbox-exec',
      },
    );
    expect(seatbelt.sandboxed).toEqual({ kind: 'seatbelt' });
    expect(buildSandbox(['node'], policy, { kind: 'none' }).sandboxed).toEqual({
      kind: 'none',
      reason: 'no OS sandbox on this system',
    });
  });
});

describe('buildSandbox: TMPDIR and the working folder', () => {
  it('points TMPDIR at /tmp when the folder it names is not writable inside', () => {
    const { policy } = setup();
    const hostTmp = temp.make('usertmp', '/tmp');
    const { env, args } = buildSandbox(
      ['node'],
      { ...policy, baseEnv: { ...policy.baseEnv, TMPDIR: hostTmp } },
      BWRAP,
    );
    expect(env.TMPDIR).toBe('/tmp');
    expect(args).not.toContain(hostTmp);
  });

  it('keeps TMPDIR when it is a given temp dir or inside the root', () => {
    const { root, policy } = setup();
    const scratch = temp.make('scratch');
    const a = buildSandbox(
      ['node'],
      { ...policy, tempDirs: [scratch], env: { TMPDIR: scratch } },
      BWRAP,
    );
    expect(a.env.TMPDIR).toBe(scratch);
    mkdirSync(path.join(root, 'tmp'));
    const b = buildSandbox(['node'], { ...policy, env: { TMPDIR: path.join(root, 'tmp') } }, BWRAP);
    expect(b.env.TMPDIR).toBe(path.join(root, 'tmp'));
  });

  it('changes to cwd inside the sandbox, and refuses a cwd that would be hidden', () => {
    const { root, home, policy } = setup();
    mkdirSync(path.join(root, 'sub'));
    const { args, cwd } = buildSandbox(['node'], { ...policy, cwd: path.join(root, 'sub') }, BWRAP);
    expect(at(args, '--chdir', path.join(root, 'sub'))).toBeGreaterThan(0);
    expect(cwd).toBe(path.join(root, 'sub'));
    put(path.join(home, '.ssh', 'config'), '');
    expect(() =>
      buildSandbox(['node'], { ...policy, cwd: path.join(home, '.ssh') }, BWRAP),
    ).toThrow(InvalidPolicyError);
    const tmpDir = temp.make('cwd', '/tmp');
    expect(() => buildSandbox(['node'], { ...policy, cwd: tmpDir }, BWRAP)).toThrow(
      /would not be visible inside the sandbox/,
    );
  });
});

describe('buildSandbox: policy validation', () => {
  const { root, policy } = setup();
  const file = put(path.join(root, 'a-file'), '');
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
    expect((error as InvalidPolicyError).code).toBe('INVALID_POLICY');
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
      expect.objectContaining({ name: 'SpawnFailedError', code: 'COMMAND_NOT_FOUND' }),
    );
    expect(tree(home)).toEqual({});
  });
});
