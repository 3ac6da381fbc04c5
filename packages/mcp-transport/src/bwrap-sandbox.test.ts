// Proofs, with real bubblewrap and real processes, that the sandbox does what the README says.
// They run wherever detectSandbox() finds bubblewrap (our machines and CI install it) and are
// skipped loudly elsewhere; GARUDA_REQUIRE_SANDBOX=1 turns the skip into a failure.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { detectSandbox } from './detect-sandbox.js';
import { InvalidPolicyError } from './errors.js';
import { HIDDEN_HOME_PATHS } from './hidden-paths.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import {
  TempDirs,
  fsProbeArgv,
  fsResults,
  list,
  processesWith,
  projectWithHome,
  put,
  read,
  run,
  tree,
  waitUntil,
  CREDENTIAL_FILES,
  CREDENTIAL_FOLDERS,
} from './sandbox-test-support.js';

/**
 * What a sandbox whose server may write an empty home folder leaves in it, and nothing else: an
 * empty placeholder (folders 0700, files 0600) per missing credential path, the folder of a file
 * whose folder is missing too (`.docker`, `.cargo`, `.cursor`, `.config/git`,
 * `.local/share/fish`), and the ordinary folders above them (`.config`, `.local`, `.local/share`).
 */
const EMPTY_HOME_PLACEHOLDERS: Record<string, string> = Object.fromEntries([
  ...[
    '.garuda',
    ...CREDENTIAL_FOLDERS,
    '.config',
    '.config/git',
    '.config/Claude',
    '.config/Code',
    '.config/Code/User',
    '.docker',
    '.cargo',
    '.cursor',
    '.gemini',
    '.codex',
    '.claude',
    '.local',
    '.local/share',
    '.local/share/fish',
  ].map((folder) => [folder, 'folder 700']),
  ...CREDENTIAL_FILES.filter((file) => !file.includes('/')).map((file) => [file, 'file 600 ']),
]);

const sandbox = await detectSandbox({ searchPath: process.env.PATH });
const available = sandbox.kind === 'bwrap';
if (!available) {
  console.warn(
    `\n*** no OS sandbox here: ${sandbox.reason ?? sandbox.kind}; install bubblewrap ***\n` +
      '*** the bubblewrap sandbox tests are SKIPPED on this machine ***\n',
  );
}

describe('sandbox availability', () => {
  it.runIf(process.env.GARUDA_REQUIRE_SANDBOX === '1')('has bubblewrap when it is required', () => {
    expect(sandbox).toMatchObject({ kind: 'bwrap' });
  });
});

describe.skipIf(!available)('bubblewrap sandbox (real processes)', () => {
  const temp = new TempDirs();
  afterAll(() => temp.cleanup());

  /** A project with a home folder next to it, both outside /tmp. */
  function setup(): { root: string; home: string; policy: SandboxPolicy } {
    return projectWithHome(temp, { prefix: 'case', path: process.env.PATH ?? '/usr/bin:/bin' });
  }

  async function probe(
    policy: SandboxPolicy,
    ops: Parameters<typeof fsProbeArgv>[0],
  ): Promise<string[]> {
    return fsResults(await run(buildSandbox(fsProbeArgv(ops), policy, sandbox)));
  }

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
      'EROFS',
      'EROFS',
      'EROFS',
      expect.stringMatching(/^(EROFS|ENOENT|EACCES)$/),
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
    expect(results).toEqual(['EROFS', 'EROFS', 'EROFS', 'EROFS', 'EBUSY', 'EBUSY', 'EBUSY', 'ok']);
    expect(readFileSync(at('.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(list(at('.git', 'hooks'))).toEqual([]);
    expect(list(at('.garuda'))).toEqual(['mcp.json']);
    expect(existsSync(at('.git-old'))).toBe(false);
  });

  it('keeps a missing .garuda, .git/hooks and .git/config from being created', async () => {
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

  it('keeps the hooks folder named by core.hooksPath read-only (husky)', async () => {
    const { root, policy } = setup();
    put(path.join(root, '.git', 'config'), '[core]\n\thooksPath = .husky/_\n');
    put(path.join(root, '.husky', '_', 'h'), '#!/bin/sh\n');
    const results = await probe(policy, [
      { op: 'write', path: path.join(root, '.husky', '_', 'pre-commit') },
      { op: 'write', path: path.join(root, '.husky', 'notes.txt') },
    ]);
    expect(results).toEqual(['EROFS', 'ok']);
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
    expect(results).toEqual(['ok', 'EROFS', 'EROFS']);
    expect(readFileSync(path.join(extra, 'out.txt'), 'utf8')).toBe('written');
    expect(readFileSync(path.join(extra, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('gives the server an empty, private /tmp', async () => {
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

  it('shows readPaths under /tmp read-only, and nothing else of the host /tmp', async () => {
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
    expect(['EROFS', 'EACCES']).toContain(withRead[1]);
    expect(withRead[2]).toBe('ENOENT');
    expect(existsSync(path.join(installed, 'new.js'))).toBe(false);
    const without = await probe({ ...policy, home }, [{ op: 'read', path: tool }]);
    expect(without).toEqual(['ENOENT']);
  });

  it('hides garudaHome and credential files', async () => {
    const { home, policy } = setup();
    put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    put(path.join(home, '.garuda', 'trust.json'), '{"secret":true}');
    put(path.join(home, '.netrc'), 'machine example.com password hunter2');
    put(path.join(home, '.docker', 'config.json'), '{"auths":{}}');
    put(path.join(home, 'notes.txt'), 'not secret');
    const results = await probe(policy, [
      { op: 'read', path: path.join(home, '.ssh', 'id_rsa') },
      { op: 'readdir', path: path.join(home, '.ssh') },
      { op: 'read', path: path.join(home, '.garuda', 'trust.json') },
      { op: 'readdir', path: path.join(home, '.garuda') },
      { op: 'read', path: path.join(home, '.netrc') },
      { op: 'read', path: path.join(home, '.docker', 'config.json') },
      { op: 'read', path: path.join(home, 'notes.txt') },
    ]);
    expect(results).toEqual(['ENOENT', 'ok:', 'ENOENT', 'ok:', 'ok:', 'ok:', 'ok:not secret']);
  });

  it('hides them also when the root is the home folder itself, and they cannot be written', async () => {
    const { home, policy } = setup();
    put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    put(path.join(home, '.garuda', 'trust.json'), '{"secret":true}');
    const results = await probe({ ...policy, root: home }, [
      { op: 'read', path: path.join(home, '.ssh', 'id_rsa') },
      { op: 'readdir', path: path.join(home, '.ssh') },
      { op: 'write', path: path.join(home, '.ssh', 'authorized_keys') },
      { op: 'readdir', path: path.join(home, '.garuda') },
      { op: 'write', path: path.join(home, '.garuda', 'trust.json') },
      { op: 'rename', path: path.join(home, '.ssh'), to: path.join(home, 'ssh-moved') },
      { op: 'write', path: path.join(home, 'project-file.txt'), data: 'ok' },
    ]);
    expect(results).toEqual(['ENOENT', 'ok:', 'EROFS', 'ok:', 'EROFS', 'EBUSY', 'ok']);
    expect(list(path.join(home, '.ssh'))).toEqual(['id_rsa']);
    expect(read(path.join(home, '.garuda', 'trust.json'))).toBe('{"secret":true}');
    expect(read(path.join(home, 'project-file.txt'))).toBe('ok');
  });

  describe('read paths that reveal a hidden credential path', () => {
    it('shows a revealed ~/.kube read-only; its sibling ~/.ssh stays hidden', async () => {
      const { home, policy } = setup();
      const kube = put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      const key = put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
      const results = await probe({ ...policy, readPaths: [path.join(home, '.kube')] }, [
        { op: 'read', path: kube },
        { op: 'readdir', path: path.join(home, '.kube') },
        { op: 'read', path: key },
        { op: 'readdir', path: path.join(home, '.ssh') },
        { op: 'write', path: kube, data: 'apiVersion: evil' },
        { op: 'write', path: path.join(home, '.kube', 'new'), data: 'x' },
        { op: 'rm', path: kube },
      ]);
      expect(results).toEqual([
        'ok:apiVersion: v1',
        'ok:config',
        'ENOENT',
        'ok:',
        'EROFS',
        'EROFS',
        'EROFS',
      ]);
      expect(read(kube)).toBe('apiVersion: v1');
      expect(list(path.join(home, '.kube'))).toEqual(['config']);
    });

    it('keeps a revealed folder read-only where the root or a write path holds it', async () => {
      const { home, policy } = setup();
      const kube = put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
      // Renaming it needs the home folder writable: a mount point then (EBUSY).
      for (const [widened, rename] of [
        [{ ...policy, root: home }, 'EBUSY'],
        [{ ...policy, writePaths: [home] }, 'EBUSY'],
        [{ ...policy, writePaths: [path.join(home, '.kube')] }, 'EROFS'],
      ] as const) {
        const results = await probe({ ...widened, readPaths: [path.join(home, '.kube')] }, [
          { op: 'read', path: kube },
          { op: 'write', path: kube, data: 'apiVersion: evil' },
          { op: 'write', path: path.join(home, '.kube', 'cache'), data: 'x' },
          { op: 'rename', path: path.join(home, '.kube'), to: path.join(home, 'kube-moved') },
          { op: 'read', path: path.join(home, '.ssh', 'id_rsa') },
        ]);
        expect(results).toEqual(['ok:apiVersion: v1', 'EROFS', 'EROFS', rename, 'ENOENT']);
      }
      expect(read(kube)).toBe('apiVersion: v1');
      expect(list(path.join(home, '.kube'))).toEqual(['config']);
      expect(existsSync(path.join(home, 'kube-moved'))).toBe(false);
    });

    it('shows one file of a hidden folder and nothing else of it, also a deep one', async () => {
      const { home, policy } = setup();
      const kube = put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      put(path.join(home, '.kube', 'other-cluster'), 'token: x');
      const gcloud = path.join(home, '.config', 'gcloud');
      const active = put(path.join(gcloud, 'configurations', 'config_default'), '[core]');
      put(path.join(gcloud, 'credentials.db'), 'refresh token');
      const before = tree(home);
      const results = await probe({ ...policy, readPaths: [kube, active] }, [
        { op: 'read', path: kube },
        { op: 'readdir', path: path.join(home, '.kube') },
        { op: 'read', path: path.join(home, '.kube', 'other-cluster') },
        { op: 'read', path: active },
        { op: 'readdir', path: gcloud },
        { op: 'read', path: path.join(gcloud, 'credentials.db') },
        // The hidden folders around them are still read-only (made so after the mount points).
        { op: 'write', path: path.join(home, '.kube', 'planted'), data: 'x' },
        { op: 'mkdir', path: path.join(gcloud, 'legacy_credentials') },
        { op: 'write', path: kube, data: 'evil' },
      ]);
      expect(results).toEqual([
        'ok:apiVersion: v1',
        'ok:config',
        'ENOENT',
        'ok:[core]',
        'ok:configurations',
        'ENOENT',
        'EROFS',
        'EROFS',
        'EROFS',
      ]);
      // The mount points were made in the sandbox's in-memory folders, not here.
      expect(tree(home)).toEqual(before);
    });

    it('shows a hidden file (otherwise the null device), read-only', async () => {
      const { home, policy } = setup();
      const netrc = put(path.join(home, '.netrc'), 'machine example.com password hunter2');
      put(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_x');
      const results = await probe({ ...policy, root: home, readPaths: [netrc] }, [
        { op: 'read', path: netrc },
        { op: 'append', path: netrc, data: 'more' },
        { op: 'rm', path: netrc },
        { op: 'read', path: path.join(home, '.npmrc') },
      ]);
      expect(results).toEqual([
        'ok:machine example.com password hunter2',
        'EROFS',
        'EBUSY',
        'ok:', // another hidden file: still the null device
      ]);
      expect(read(netrc)).toBe('machine example.com password hunter2');
    });

    it('shows nothing hidden through a read path that holds hidden paths (the home folder)', async () => {
      const { home, policy } = setup();
      put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
      put(path.join(home, '.garuda', 'trust.json'), '{"secret":true}');
      put(path.join(home, 'notes.txt'), 'not secret');
      const results = await probe({ ...policy, readPaths: [home] }, [
        { op: 'read', path: path.join(home, '.kube', 'config') },
        { op: 'read', path: path.join(home, '.ssh', 'id_rsa') },
        { op: 'read', path: path.join(home, '.garuda', 'trust.json') },
        { op: 'read', path: path.join(home, 'notes.txt') },
      ]);
      expect(results).toEqual(['ENOENT', 'ENOENT', 'ENOENT', 'ok:not secret']);
    });

    it('hides again what is hidden inside a revealed folder (a linked ~/.ssh, garudaHome)', async () => {
      const { home, policy } = setup();
      const kube = path.join(home, '.kube');
      put(path.join(kube, 'config'), 'apiVersion: v1');
      put(path.join(kube, 'ssh', 'id_rsa'), 'PRIVATE KEY');
      symlinkSync(path.join(kube, 'ssh'), path.join(home, '.ssh'));
      put(path.join(kube, 'garuda', 'trust.json'), '{"secret":true}');
      const results = await probe(
        { ...policy, garudaHome: path.join(kube, 'garuda'), readPaths: [kube] },
        [
          { op: 'read', path: path.join(kube, 'config') },
          { op: 'read', path: path.join(kube, 'ssh', 'id_rsa') },
          { op: 'read', path: path.join(home, '.ssh', 'id_rsa') },
          { op: 'read', path: path.join(kube, 'garuda', 'trust.json') },
          { op: 'readdir', path: kube },
        ],
      );
      expect(results).toEqual([
        'ok:apiVersion: v1',
        'ENOENT',
        'ENOENT',
        'ENOENT',
        'ok:config,garuda,ssh',
      ]);
    });

    it('reveals nothing through a link that leads into a credential path from elsewhere', async () => {
      const { root, home, policy } = setup();
      const aws = put(path.join(home, '.aws', 'credentials'), '[default] secret');
      const key = put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
      put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      // A repository's folder that became a link to ~/.aws after it was trusted, and a link in
      // one credential folder to another.
      mkdirSync(path.join(root, 'vendor'));
      symlinkSync(path.join(home, '.aws'), path.join(root, 'vendor', 'data'));
      symlinkSync(path.join(home, '.ssh'), path.join(home, '.kube', 'ssh'));
      const results = await probe(
        {
          ...policy,
          readPaths: [path.join(root, 'vendor', 'data'), path.join(home, '.kube', 'ssh')],
        },
        [
          { op: 'read', path: path.join(root, 'vendor', 'data', 'credentials') },
          { op: 'read', path: aws },
          { op: 'read', path: key },
          { op: 'read', path: path.join(home, '.kube', 'config') },
        ],
      );
      expect(results).toEqual(['ENOENT', 'ENOENT', 'ENOENT', 'ENOENT']);
    });

    it('refuses garudaHome, a path inside it or a link to it, before anything runs', () => {
      const { home, policy } = setup();
      const garuda = path.join(home, '.garuda');
      put(path.join(garuda, 'trust.json'), '{}');
      const link = path.join(temp.make('links'), 'garuda-link');
      symlinkSync(garuda, link);
      for (const readPath of [garuda, path.join(garuda, 'trust.json'), link]) {
        const attempt = () =>
          buildSandbox(fsProbeArgv([]), { ...policy, readPaths: [readPath] }, sandbox);
        expect(attempt).toThrow(InvalidPolicyError);
        expect(attempt).toThrow(/readPaths\[0\].*Garuda's own folder/);
      }
    });
  });

  it('knows every credential path this test checks', () => {
    expect([...HIDDEN_HOME_PATHS].sort()).toEqual(
      [...CREDENTIAL_FOLDERS, ...CREDENTIAL_FILES].sort(),
    );
  });

  it('hides every credential path that exists, and keeps it from being written with root = home', async () => {
    const { home, policy } = setup();
    for (const folder of CREDENTIAL_FOLDERS) put(path.join(home, folder, 'secret'), `in ${folder}`);
    for (const file of CREDENTIAL_FILES) put(path.join(home, file), `secret ${file}`);
    const before = tree(home);

    const reads = await probe(policy, [
      ...CREDENTIAL_FOLDERS.flatMap((folder) => [
        { op: 'readdir' as const, path: path.join(home, folder) },
        { op: 'read' as const, path: path.join(home, folder, 'secret') },
      ]),
      ...CREDENTIAL_FILES.map((file) => ({ op: 'read' as const, path: path.join(home, file) })),
    ]);
    expect(reads).toEqual([
      ...CREDENTIAL_FOLDERS.flatMap(() => ['ok:', 'ENOENT']),
      ...CREDENTIAL_FILES.map(() => 'ok:'),
    ]);

    const writes = await probe({ ...policy, root: home }, [
      ...CREDENTIAL_FOLDERS.map((folder) => ({
        op: 'write' as const,
        path: path.join(home, folder, 'secret'),
        data: 'planted',
      })),
      ...CREDENTIAL_FILES.map((file) => ({
        op: 'write' as const,
        path: path.join(home, file),
        data: 'planted',
      })),
      ...CREDENTIAL_FILES.map((file) => ({ op: 'read' as const, path: path.join(home, file) })),
    ]);
    expect(writes).toEqual([
      ...CREDENTIAL_FOLDERS.map(() => 'EROFS'),
      ...CREDENTIAL_FILES.map(() => 'ok'), // the null device: the write vanishes
      ...CREDENTIAL_FILES.map(() => 'ok:'),
    ]);
    // Every credential is there as it was; the only addition is the placeholder for the missing
    // garudaHome.
    expect(tree(home)).toEqual({ ...before, '.garuda': 'folder 700' });
  });

  it.each([
    ['the root is the home folder', (p: SandboxPolicy, home: string) => ({ ...p, root: home })],
    [
      'a write path is the home folder',
      (p: SandboxPolicy, home: string) => ({ ...p, writePaths: [home] }),
    ],
  ])(
    'keeps a missing credential path from being created when %s, and leaves only empty placeholders',
    async (_name, widen) => {
      const { home, policy } = setup();
      const at = (name: string): string => path.join(home, name);
      const results = await probe(widen(policy, home), [
        { op: 'write', path: at('.ssh/authorized_keys'), data: 'ssh-ed25519 AAAA attacker' },
        { op: 'mkdir', path: at('.ssh/keys') },
        { op: 'write', path: at('.kube/config'), data: 'apiVersion: v1' },
        { op: 'write', path: at('.aws/credentials'), data: '[default]' },
        { op: 'write', path: at('.git-credentials'), data: 'https://x:token@example.com' },
        { op: 'read', path: at('.git-credentials') },
        { op: 'write', path: at('.docker/config.json'), data: '{"credsStore":"evil"}' },
        { op: 'write', path: at('.local/share/fish/fish_history'), data: '- cmd: evil' },
        { op: 'write', path: at('.config/gh/hosts.yml'), data: 'github.com:' },
        // The placeholders and the folders above them cannot be removed or swapped.
        { op: 'rmdir', path: at('.ssh') },
        { op: 'rm', path: at('.git-credentials') },
        { op: 'rename', path: at('.aws'), to: at('aws-moved') },
        { op: 'rename', path: at('.config'), to: at('config-moved') },
        // Everything else in the home folder stays writable.
        { op: 'write', path: at('.config/other.yml'), data: 'fine' },
        { op: 'write', path: at('ordinary.txt'), data: 'fine' },
      ]);
      expect(results).toEqual([
        'EROFS',
        'EROFS',
        'EROFS',
        'EROFS',
        'ok', // into the null device
        'ok:',
        'EROFS',
        'EROFS',
        'EROFS',
        'EBUSY',
        'EBUSY',
        'EBUSY',
        'EBUSY',
        'ok',
        'ok',
      ]);
      const { '.config/other.yml': other, 'ordinary.txt': ordinary, ...left } = tree(home);
      expect(left).toEqual(EMPTY_HOME_PLACEHOLDERS);
      // The server's own files (their mode follows the umask).
      expect([other, ordinary]).toEqual([
        expect.stringMatching(/^file \d+ fine$/),
        expect.stringMatching(/^file \d+ fine$/),
      ]);
    },
  );

  it('keeps the folders above a hidden path from being swapped (root = home)', async () => {
    const { home, policy } = setup();
    const docker = put(path.join(home, '.docker', 'config.json'), '{"auths":{"r":{"auth":"x"}}}');
    const gh = put(path.join(home, '.config', 'gh', 'hosts.yml'), 'oauth_token: gho_x');
    const results = await probe({ ...policy, root: home }, [
      // The bypass a mount at the hidden path alone would allow: move its folder away (the
      // mount goes along), then write a new one.
      { op: 'rename', path: path.join(home, '.docker'), to: path.join(home, 'docker-old') },
      { op: 'rename', path: path.join(home, '.config'), to: path.join(home, 'config-old') },
      { op: 'read', path: docker },
      // The folders themselves stay usable.
      { op: 'write', path: path.join(home, '.docker', 'buildx.json'), data: '{}' },
      { op: 'write', path: path.join(home, '.config', 'tool.yml'), data: 'x' },
    ]);
    expect(results).toEqual(['EBUSY', 'EBUSY', 'ok:', 'ok', 'ok']);
    expect(read(docker)).toBe('{"auths":{"r":{"auth":"x"}}}');
    expect(read(gh)).toBe('oauth_token: gho_x');
    expect(existsSync(path.join(home, 'docker-old'))).toBe(false);
    expect(list(path.join(home, '.docker'))).toEqual(['buildx.json', 'config.json']);
  });

  it('keeps git hooks read-only in a write path inside a pinned folder', async () => {
    const { home, policy } = setup();
    const tool = path.join(home, '.config', 'tool');
    put(path.join(tool, '.git', 'config'), '[core]\n');
    mkdirSync(path.join(tool, '.git', 'hooks'));
    put(path.join(home, '.config', 'gh', 'hosts.yml'), 'token');
    const results = await probe({ ...policy, root: home, writePaths: [tool] }, [
      { op: 'write', path: path.join(tool, '.git', 'hooks', 'pre-commit') },
      { op: 'write', path: path.join(tool, 'notes.txt') },
      { op: 'read', path: path.join(home, '.config', 'gh', 'hosts.yml') },
    ]);
    expect(results).toEqual(['EROFS', 'ok', 'ENOENT']);
    expect(list(path.join(tool, '.git', 'hooks'))).toEqual([]);
  });

  it('reaches a Unix socket on the file system unless it is hidden (a read-only mount does not stop connect)', async () => {
    const { home, policy } = setup();
    const open = path.join(temp.make('sock'), 'open.sock');
    const hidden = path.join(home, '.netrc'); // a hidden name, as a socket
    const connect = `
      const net = require('node:net');
      const tryOne = (p) => new Promise((r) => net.connect(p).on('data', (d) => r('data:' + d)).on('error', (e) => r(e.code)));
      Promise.all(process.argv.slice(1).map(tryOne)).then((r) => process.stdout.write(JSON.stringify(r)));`;
    const servers = [open, hidden].map((p) => net.createServer((c) => c.end('hi')).listen(p));
    try {
      await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
      const result = await run(
        buildSandbox([process.execPath, '-e', connect, open, hidden], policy, sandbox),
      );
      expect(JSON.parse(result.stdout)).toEqual(['data:hi', 'ECONNREFUSED']);
    } finally {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    }
  });

  // /run/user is one of the hidden socket places (it holds the session's D-Bus and agents).
  it.runIf(existsSync('/run/user'))(
    "reaches a container engine's socket in a hidden socket place only as engineSocket, without network",
    async () => {
      const { home, policy } = setup();
      const mark = `${process.pid}-${Date.now()}`;
      const engine = `/run/user/garuda-test-engine-${mark}.sock`;
      const other = `/run/user/garuda-test-other-${mark}.sock`;
      const connect = `
        const net = require('node:net');
        const tryOne = (p) => new Promise((r) => net.connect(p).on('data', (d) => r('data:' + d)).on('error', (e) => r(e.code)));
        Promise.all(process.argv.slice(1).map(tryOne)).then((r) => process.stdout.write(JSON.stringify(r)));`;
      const servers = [engine, other].map((p) => net.createServer((c) => c.end('pong')).listen(p));
      try {
        await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
        const argv = [process.execPath, '-e', connect, engine, other];
        const without = await run(buildSandbox(argv, policy, sandbox));
        expect(JSON.parse(without.stdout)).toEqual(['ENOENT', 'ENOENT']);
        const given = await run(
          buildSandbox(argv, { ...policy, network: false, engineSocket: engine }, sandbox),
        );
        expect(JSON.parse(given.stdout)).toEqual(['data:pong', 'ENOENT']);
        // A credential path or Garuda's home is never handed out as a socket.
        const fake = path.join(home, '.ssh', 'agent.sock');
        mkdirSync(path.dirname(fake));
        const agent = net.createServer().listen(fake);
        await new Promise((r) => agent.once('listening', r));
        try {
          expect(() => buildSandbox(argv, { ...policy, engineSocket: fake }, sandbox)).toThrow(
            /engineSocket.*hidden credential path/,
          );
        } finally {
          await new Promise((r) => agent.close(r));
        }
        // Nothing there: nothing to show, no error (the engine's own command says it is down).
        expect(() =>
          buildSandbox(argv, { ...policy, engineSocket: '/run/garuda-no-such.sock' }, sandbox),
        ).not.toThrow();
        expect(() =>
          buildSandbox(argv, { ...policy, engineSocket: path.join(home) }, sandbox),
        ).toThrow(/not a Unix socket/);
      } finally {
        await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      }
    },
  );

  describe('network', () => {
    let server: net.Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      server = undefined;
    });

    async function listen(): Promise<{ port: number; connections: () => number }> {
      let count = 0;
      server = net.createServer((socket) => {
        count += 1;
        socket.end('pong');
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      return { port, connections: () => count };
    }

    const client = (port: number): string[] => [
      process.execPath,
      '-e',
      `require('node:net').connect(${port}, '127.0.0.1')
         .on('data', (d) => { process.stdout.write('data:' + d); process.exit(0); })
         .on('error', (e) => { process.stdout.write(e.code); process.exit(0); });`,
    ];

    it('cannot reach a server on this machine without network', async () => {
      const { policy } = setup();
      const { port, connections } = await listen();
      const result = await run(buildSandbox(client(port), policy, sandbox));
      expect(result.stdout).toBe('ECONNREFUSED');
      expect(connections()).toBe(0);
    });

    it('reaches it with network: true', async () => {
      const { policy } = setup();
      const { port, connections } = await listen();
      const result = await run(buildSandbox(client(port), { ...policy, network: true }, sandbox));
      expect(result.stdout).toBe('data:pong');
      expect(connections()).toBe(1);
    });
  });

  it('allows no new user namespaces and no capabilities (unlike outside the sandbox)', async () => {
    const { policy } = setup();
    const unshare = ['/usr/bin/unshare', '/bin/unshare'].find((file) => existsSync(file));
    const capEff = [
      process.execPath,
      '-e',
      `process.stdout.write(/CapEff:\\s*(\\w+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))[1])`,
    ];
    const inside = await run(buildSandbox(capEff, policy, sandbox));
    expect(inside.stdout).toBe('0000000000000000');
    if (unshare) {
      const nested = await run(buildSandbox([unshare, '--user', 'true'], policy, sandbox));
      expect(nested.code).not.toBe(0);
      expect(nested.stderr).toMatch(/unshare/);
    }
    // The same checks without a sandbox, so this test can tell the difference (as root here).
    if (process.getuid?.() === 0) {
      const none = { kind: 'none' } as const;
      expect((await run(buildSandbox(capEff, policy, none))).stdout).not.toBe('0000000000000000');
      if (unshare)
        expect((await run(buildSandbox([unshare, '--user', 'true'], policy, none))).code).toBe(0);
    }
  });

  it('passes exactly the allowlist and the server env (plus PWD, set by bubblewrap), off the command line', async () => {
    const { root, home, policy } = setup();
    const printEnv = [process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.env))'];
    const cmd = buildSandbox(
      printEnv,
      {
        ...policy,
        baseEnv: {
          PATH: '/usr/local/bin:/usr/bin:/bin',
          HOME: home,
          LANG: 'C.UTF-8',
          SHELL: '() { :; }; echo exported-function',
          AWS_SECRET_ACCESS_KEY: 'do-not-leak',
          NODE_OPTIONS: '--require /tmp/evil.js',
          LD_PRELOAD: '/tmp/evil.so',
        },
        env: { SERVER_SETTING: 'on', LANG: 'en_GB.UTF-8', GITHUB_TOKEN: 'ghp_example' },
      },
      sandbox,
    );
    // The token reaches the server through the environment, never the command line.
    expect(cmd.args.join('\0')).not.toContain('ghp_example');
    const result = await run(cmd);
    expect(JSON.parse(result.stdout)).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: home,
      LANG: 'en_GB.UTF-8',
      SERVER_SETTING: 'on',
      GITHUB_TOKEN: 'ghp_example',
      PWD: root,
    });
  });

  it('points TMPDIR at the private /tmp when the host folder it names is not there', async () => {
    const { policy } = setup();
    const result = await run(
      buildSandbox(
        [
          process.execPath,
          '-e',
          `const f = require('os').tmpdir() + '/t'; require('fs').writeFileSync(f, 'x'); process.stdout.write(process.env.TMPDIR)`,
        ],
        {
          ...policy,
          baseEnv: {
            ...policy.baseEnv,
            TMPDIR: os.tmpdir() === '/tmp' ? '/tmp/garuda-user-tmp' : os.tmpdir(),
          },
        },
        sandbox,
      ),
    );
    expect(result.stdout).toBe('/tmp');
  });

  it('stops the server when the bubblewrap process is killed (--die-with-parent)', async () => {
    const { policy } = setup();
    const marker = `garuda-die-with-parent-${process.pid}-${Date.now()}`;
    const cmd = buildSandbox(
      [process.execPath, '-e', 'setInterval(() => {}, 1000)', marker],
      policy,
      sandbox,
    );
    const child = spawn(cmd.command, cmd.args, { env: cmd.env, cwd: cmd.cwd, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // The node payload itself (bwrap's own command line also holds the marker, after `--`).
    const payload = (): number[] => processesWith(marker, `${process.execPath}\0-e\0`);
    try {
      await waitUntil(() => payload().length === 1, 20_000, 'the payload to start');
      child.kill('SIGKILL');
      await exited;
      await waitUntil(() => payload().length === 0, 20_000, 'the payload to stop');
      expect(payload()).toEqual([]);
    } finally {
      for (const pid of processesWith(marker)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
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
