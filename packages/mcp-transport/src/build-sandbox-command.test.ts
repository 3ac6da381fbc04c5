// What buildSandbox makes of the command, TMPDIR and the working folder. Nothing here runs
// bubblewrap (the os-sandbox-*.test.ts files do). Built for bubblewrap from this machine's
// folders, so Linux only (LINUX_LAYOUT); seatbelt-profile.test.ts covers macOS.
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { InvalidPolicyError } from './errors.js';
import {
  BWRAP,
  LINUX_LAYOUT,
  NODE_DIR,
  at,
  projectFolders,
  put,
  script,
} from '../test/support/sandbox.js';

const { temp, setup } = projectFolders({ prefix: 'build' });
afterAll(() => temp.cleanup());

describe.runIf(LINUX_LAYOUT)('buildSandbox: the command', () => {
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
      expect.objectContaining({ name: 'SpawnFailedError', code: 'TRANSPORT_COMMAND_NOT_FOUND' }),
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

describe.runIf(LINUX_LAYOUT)('buildSandbox: TMPDIR and the working folder', () => {
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
