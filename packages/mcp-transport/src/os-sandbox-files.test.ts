// Proofs, with the real OS sandbox and real processes, that it does what the README says of the
// file system: where a server may write, what stays read-only (.garuda, git's hooks and config),
// and its /tmp. The same tests run bubblewrap on Linux and Seatbelt on macOS (its twin); where
// the two differ, a test runs on one of them only and says so. They are skipped loudly where
// detectSandbox() finds no sandbox; GARUDA_REQUIRE_SANDBOX=1 turns the skip into a failure.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import {
  DENIED,
  NOT_THERE,
  SANDBOX_REQUIRED,
  fsProbeArgv,
  list,
  osSandboxCases,
  put,
  read,
  sandboxOfPlatform,
} from '../test/support/sandbox.js';

const { sandbox, kind, available, suite, is, temp, setup, probe, onBwrap, onSeatbelt } =
  await osSandboxCases();

/**
 * Creating a file in a protected folder that does not exist: bubblewrap made an empty read-only
 * mount point for the folder; under Seatbelt it stays missing (see NOT_THERE).
 */
const NOT_CREATED = kind === 'bwrap' ? 'EROFS' : NOT_THERE;

describe('sandbox availability', () => {
  it.runIf(SANDBOX_REQUIRED)(
    'has the OS sandbox of this platform when it is required (bubblewrap on Linux, Seatbelt on macOS)',
    () => {
      expect({ platform: process.platform, kind: sandbox.kind, reason: sandbox.reason }).toEqual({
        platform: process.platform,
        kind: sandboxOfPlatform(process.platform) ?? 'an OS sandbox, which this platform lacks',
        reason: undefined,
      });
    },
  );
});

describe.skipIf(!available)(suite, () => {
  it('writes inside the root land on this machine; writes outside it fail', async () => {
    const { root, policy } = setup();
    const outside = temp.make('outside'); // writable here, read-only inside
    const results = await probe(policy, [
      { op: 'write', path: path.join(root, 'made-inside.txt'), data: 'hello' },
      { op: 'write', path: path.join(outside, 'nope.txt') },
      { op: 'mkdir', path: path.join(outside, 'nope') },
      { op: 'write', path: '/etc/garuda-sandbox-test' },
      { op: 'append', path: path.join(os.homedir(), '.bashrc') },
    ]);
    expect(results).toEqual([
      'ok',
      is.readOnly,
      is.readOnly,
      is.readOnly,
      expect.stringMatching(/^(EROFS|ENOENT|EACCES|EPERM)$/),
    ]);
    expect(readFileSync(path.join(root, 'made-inside.txt'), 'utf8')).toBe('hello');
    expect(list(outside)).toEqual([]);
  });

  it('keeps .garuda, .git/hooks and .git/config read-only, and .git cannot be swapped', async () => {
    const { root, policy } = setup();
    const at = (...parts: string[]): string => path.join(root, ...parts);
    put(at('.garuda', 'mcp.json'), '{"servers":{}}');
    put(at('.git', 'config'), '[core]\n\tbare = false\n');
    mkdirSync(at('.git', 'hooks'));
    put(at('.git', 'HEAD'), 'ref: refs/heads/main\n');

    const results = await probe(policy, [
      { op: 'write', path: at('.garuda', 'x') },
      { op: 'append', path: at('.garuda', 'mcp.json') },
      { op: 'write', path: at('.git', 'hooks', 'pre-commit') },
      { op: 'append', path: at('.git', 'config'), data: '\n[core]\n\tfsmonitor = /bin/evil\n' },
      { op: 'rm', path: at('.git', 'config') },
      // The bypass a bare read-only mount of hooks and config would allow:
      { op: 'rename', path: at('.git'), to: at('.git-old') },
      { op: 'rename', path: at('.garuda'), to: at('.garuda-old') },
      // The rest of .git stays writable (git can still commit).
      { op: 'write', path: at('.git', 'HEAD'), data: 'ref: refs/heads/other\n' },
    ]);
    expect(results).toEqual([
      is.readOnly,
      is.readOnly,
      is.readOnly,
      is.readOnly,
      is.pinned,
      is.pinned,
      is.pinned,
      'ok',
    ]);
    expect(readFileSync(at('.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(list(at('.git', 'hooks'))).toEqual([]);
    expect(list(at('.garuda'))).toEqual(['mcp.json']);
    expect(existsSync(at('.git-old'))).toBe(false);
  });

  onBwrap('keeps a missing .garuda, .git/hooks and .git/config from being created', async () => {
    const { root, policy } = setup();
    const at = (...parts: string[]): string => path.join(root, ...parts);
    mkdirSync(at('.git'));
    const results = await probe(policy, [
      { op: 'write', path: at('.garuda', 'mcp.json') },
      { op: 'write', path: at('.git', 'hooks', 'post-checkout') },
      // A missing config becomes the null device: it reads as empty and writes vanish.
      { op: 'write', path: at('.git', 'config'), data: '[core]\n\tfsmonitor = /bin/evil\n' },
      { op: 'read', path: at('.git', 'config') },
      { op: 'rm', path: at('.git', 'config') },
      { op: 'rmdir', path: at('.garuda') },
      { op: 'write', path: at('ordinary.txt') },
    ]);
    expect(results).toEqual(['EROFS', 'EROFS', 'ok', 'ok:', 'EBUSY', 'EBUSY', 'ok']);
    // The documented side effect: empty mount points were created, and nothing is in them.
    expect(list(at('.garuda'))).toEqual([]);
    expect(list(at('.git', 'hooks'))).toEqual([]);
    expect(read(at('.git', 'config'))).toBe('');
  });

  onSeatbelt(
    'keeps a missing .garuda, .git/hooks and .git/config from being created (Seatbelt twin: path rules, no mount points)',
    async () => {
      const { root, policy } = setup();
      const at = (...parts: string[]): string => path.join(root, ...parts);
      mkdirSync(at('.git'));
      const results = await probe(policy, [
        { op: 'mkdir', path: at('.garuda') },
        { op: 'write', path: at('.garuda', 'mcp.json') },
        { op: 'mkdir', path: at('.git', 'hooks') },
        { op: 'write', path: at('.git', 'hooks', 'post-checkout') },
        { op: 'write', path: at('.git', 'config'), data: '[core]\n\tfsmonitor = /bin/evil\n' },
        { op: 'read', path: at('.git', 'config') },
        { op: 'write', path: at('ordinary.txt') },
      ]);
      expect(results).toEqual([DENIED, NOT_CREATED, DENIED, NOT_CREATED, DENIED, 'ENOENT', 'ok']);
      // Nothing was made on this machine: the rules name paths, not mounts.
      expect(list(root)).toEqual(['.git', 'ordinary.txt']);
      expect(list(at('.git'))).toEqual([]);
    },
  );

  it('keeps the hooks folder named by core.hooksPath read-only (husky)', async () => {
    const { root, policy } = setup();
    put(path.join(root, '.git', 'config'), '[core]\n\thooksPath = .husky/_\n');
    put(path.join(root, '.husky', '_', 'h'), '#!/bin/sh\n');
    const results = await probe(policy, [
      { op: 'write', path: path.join(root, '.husky', '_', 'pre-commit') },
      { op: 'write', path: path.join(root, '.husky', 'notes.txt') },
    ]);
    expect(results).toEqual([is.readOnly, 'ok']);
    expect(list(path.join(root, '.husky', '_'))).toEqual(['h']);
  });

  it('makes a write path outside the root writable, with its git hooks still protected', async () => {
    const { policy } = setup();
    const extra = temp.make('extra');
    put(path.join(extra, '.git', 'config'), '[core]\n');
    const results = await probe({ ...policy, writePaths: [extra] }, [
      { op: 'write', path: path.join(extra, 'out.txt'), data: 'written' },
      { op: 'append', path: path.join(extra, '.git', 'config') },
      { op: 'write', path: path.join(extra, '.git', 'hooks', 'pre-push') },
    ]);
    expect(results).toEqual(['ok', is.readOnly, NOT_CREATED]);
    expect(readFileSync(path.join(extra, 'out.txt'), 'utf8')).toBe('written');
    expect(readFileSync(path.join(extra, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(path.join(extra, '.git', 'hooks', 'pre-push'))).toBe(false);
  });

  onBwrap('gives the server an empty, private /tmp', async () => {
    const { policy } = setup();
    const marker = put(
      path.join(os.tmpdir(), `garuda-host-marker-${process.pid}-${Date.now()}`),
      'host',
    );
    const name = `garuda-inside-${process.pid}-${Date.now()}`;
    try {
      const first = await probe(policy, [
        { op: 'readdir', path: '/tmp' },
        { op: 'read', path: marker },
        { op: 'write', path: `/tmp/${name}`, data: 'inside' },
        { op: 'read', path: `/tmp/${name}` },
      ]);
      expect(first).toEqual(['ok:', 'ENOENT', 'ok', 'ok:inside']);
      expect(existsSync(`/tmp/${name}`)).toBe(false);
      const second = await probe(policy, [{ op: 'read', path: `/tmp/${name}` }]);
      expect(second).toEqual(['ENOENT']);
    } finally {
      unlinkSync(marker);
    }
  });

  onSeatbelt(
    "shares this machine's /tmp, writable (Seatbelt twin: macOS has no private /tmp)",
    async () => {
      const { policy } = setup();
      const mark = `${process.pid}-${Date.now()}`;
      const marker = put(`/private/tmp/garuda-host-marker-${mark}`, 'host');
      const inside = `/private/tmp/garuda-inside-${mark}`;
      try {
        const results = await probe(policy, [
          { op: 'read', path: marker },
          { op: 'write', path: `/tmp/garuda-inside-${mark}`, data: 'inside' },
        ]);
        expect(results).toEqual(['ok:host', 'ok']);
        // The weaker part the README states: what a server leaves in /tmp stays on this machine.
        expect(read(inside)).toBe('inside');
      } finally {
        rmSync(marker, { force: true });
        rmSync(inside, { force: true });
      }
    },
  );

  it('shows readPaths under the temp folder read-only (and, on Linux, nothing else of the host /tmp)', async () => {
    const { policy, home } = setup();
    const installed = temp.make('installed', os.tmpdir());
    const tool = put(path.join(installed, 'server.js'), 'installed');
    const secret = put(path.join(installed, '.ssh', 'id_rsa'), 'key');
    const withRead = await probe({ ...policy, readPaths: [installed], home: installed }, [
      { op: 'read', path: tool },
      { op: 'write', path: path.join(installed, 'new.js') },
      { op: 'read', path: secret },
    ]);
    expect(withRead[0]).toBe('ok:installed');
    expect(['EROFS', 'EACCES', 'EPERM']).toContain(withRead[1]);
    expect(withRead[2]).toEqual(is.inHidden);
    expect(existsSync(path.join(installed, 'new.js'))).toBe(false);
    const without = await probe({ ...policy, home }, [{ op: 'read', path: tool }]);
    // bubblewrap: a fresh, empty /tmp. Seatbelt: macOS's temp folders are this machine's, and
    // readable like everything else that is not hidden (the weaker part the README states).
    expect(without).toEqual([kind === 'bwrap' ? 'ENOENT' : 'ok:installed']);
  });

  it('refuses a project whose .git/hooks is a symbolic link (the link could be replaced)', () => {
    const { root, policy } = setup();
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'hooks-elsewhere'));
    symlinkSync(path.join(root, 'hooks-elsewhere'), path.join(root, '.git', 'hooks'));
    writeFileSync(path.join(root, '.git', 'config'), '');
    expect(() => buildSandbox(fsProbeArgv([]), policy, sandbox)).toThrow(/symbolic link/);
  });
});
