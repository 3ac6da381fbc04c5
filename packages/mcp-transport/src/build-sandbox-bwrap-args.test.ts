// The command line buildSandbox writes for bubblewrap, as structure: nothing here runs bubblewrap
// (the os-sandbox-*.test.ts files do). Built from this machine's folders, so Linux only
// (LINUX_LAYOUT): macOS's /tmp and /var are links, and its profile has seatbelt-profile.test.ts.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { TransportErrorCode, UnprotectablePathError } from './errors.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import {
  BWRAP,
  LINUX_LAYOUT,
  NODE_DIR,
  at,
  projectFolders,
  put,
  tree,
} from '../test/support/sandbox.js';

const { temp, setup } = projectFolders({ prefix: 'build' });
afterAll(() => temp.cleanup());

describe.runIf(LINUX_LAYOUT)('buildSandbox with bubblewrap: the command line', () => {
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

  it("binds the server's own cache over ~/.cache, screens the folder of homes, then binds its home on top", () => {
    const { root, home, policy } = setup();
    const homes = path.join(home, '.local', 'share', 'garuda-mcp', 'servers');
    const own = path.join(homes, 'mine');
    mkdirSync(path.join(own, 'cache'), { recursive: true });
    mkdirSync(path.join(home, '.cache'));
    const serverHome = { dir: own, homesDir: homes, cache: path.join(own, 'cache') };
    const { args } = buildSandbox(['node'], { ...policy, serverHome }, BWRAP);
    const positions = [
      at(args, '--bind', root, root),
      at(args, '--bind', path.join(own, 'cache'), path.join(home, '.cache')),
      at(args, '--tmpfs', homes),
      at(args, '--bind', own, own),
      at(args, '--remount-ro', homes),
    ];
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The own home is a write path without being named one.
    expect(args.filter((arg) => arg === own)).toHaveLength(2);
    // Without a cache, ~/.cache stays the user's (read-only through /).
    const { args: noCache } = buildSandbox(
      ['node'],
      { ...policy, serverHome: { dir: own, homesDir: homes } },
      BWRAP,
    );
    expect(noCache).not.toContain(path.join(home, '.cache'));
    expect(at(noCache, '--tmpfs', homes)).toBeGreaterThan(0);
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
