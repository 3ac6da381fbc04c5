// Proofs, with the real OS sandbox and real processes, that the credential paths of the home
// folder are hidden and can be neither written nor planted, also where the server may write the
// home folder. The same tests run bubblewrap on Linux and Seatbelt on macOS (its twin); where the
// two differ (bubblewrap hides with mounts and placeholders, Seatbelt with path rules), a test
// runs on one of them only and says so.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HIDDEN_HOME_PATHS, HIDDEN_MACOS_HOME_PATHS } from './hidden-paths.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import {
  DENIED,
  NOT_THERE,
  list,
  osSandboxCases,
  put,
  read,
  tree,
  CREDENTIAL_FILES,
  CREDENTIAL_FOLDERS,
} from '../test/support/sandbox.js';

const { kind, available, suite, is, setup, probe, probeSteps, onBwrap, onSeatbelt } =
  await osSandboxCases();

/**
 * What bubblewrap, where the server may write an empty home folder, leaves in it, and nothing else: an
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

describe('the credential paths the sandbox tests check', () => {
  it('are every credential path the sandbox hides', () => {
    expect([...HIDDEN_HOME_PATHS].sort()).toEqual(
      [...CREDENTIAL_FOLDERS, ...CREDENTIAL_FILES].sort(),
    );
  });
});

describe.skipIf(!available)(suite, () => {
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
    expect(results).toEqual([
      is.inHidden,
      is.listHidden(),
      is.inHidden,
      is.listHidden(),
      is.hiddenFile,
      is.hiddenFile,
      'ok:not secret',
    ]);
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
    expect(results).toEqual([
      is.inHidden,
      is.listHidden(),
      is.readOnly,
      is.listHidden(),
      is.readOnly,
      is.pinned,
      'ok',
    ]);
    expect(list(path.join(home, '.ssh'))).toEqual(['id_rsa']);
    expect(read(path.join(home, '.garuda', 'trust.json'))).toBe('{"secret":true}');
    expect(read(path.join(home, 'project-file.txt'))).toBe('ok');
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
      ...CREDENTIAL_FOLDERS.flatMap(() => [is.listHidden(), is.inHidden]),
      ...CREDENTIAL_FILES.map(() => is.hiddenFile),
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
      ...CREDENTIAL_FOLDERS.map(() => is.readOnly),
      ...CREDENTIAL_FILES.map(() => is.writeHiddenFile),
      ...CREDENTIAL_FILES.map(() => is.hiddenFile),
    ]);
    // Every credential is there as it was; the only addition (bubblewrap) is the placeholder for
    // the missing garudaHome.
    expect(tree(home)).toEqual({
      ...before,
      ...(kind === 'bwrap' ? { '.garuda': 'folder 700' } : {}),
    });
  });

  const widenings: [string, (p: SandboxPolicy, home: string) => SandboxPolicy][] = [
    ['the root is the home folder', (p, home) => ({ ...p, root: home })],
    ['a write path is the home folder', (p, home) => ({ ...p, writePaths: [home] })],
  ];

  onBwrap.each(widenings)(
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

  onSeatbelt.each(widenings)(
    'keeps a missing credential path from being created when %s, and leaves nothing behind (Seatbelt twin: path rules, no placeholders)',
    async (_name, widen) => {
      const { home, policy } = setup();
      const at = (name: string): string => path.join(home, name);
      // A missing credential folder cannot be made; a missing file cannot be made even where
      // the server may make its folder (.docker, .local/share/fish, .config).
      const { results, expected } = await probeSteps(widen(policy, home), [
        [{ op: 'mkdir', path: at('.garuda') }, DENIED],
        [{ op: 'mkdir', path: at('.ssh') }, DENIED],
        [{ op: 'write', path: at('.ssh/authorized_keys'), data: 'ssh-ed25519 AAAA x' }, NOT_THERE],
        [{ op: 'mkdir', path: at('.kube') }, DENIED],
        [{ op: 'mkdir', path: at('.aws') }, DENIED],
        [{ op: 'write', path: at('.git-credentials'), data: 'https://x:t@example.com' }, DENIED],
        [{ op: 'read', path: at('.git-credentials') }, NOT_THERE],
        [{ op: 'mkdir', path: at('.docker') }, 'ok'],
        [{ op: 'write', path: at('.docker/config.json'), data: '{"credsStore":"x"}' }, DENIED],
        [{ op: 'mkdir', path: at('.local') }, 'ok'],
        [{ op: 'mkdir', path: at('.local/share') }, 'ok'],
        [{ op: 'mkdir', path: at('.local/share/fish') }, 'ok'],
        [{ op: 'write', path: at('.local/share/fish/fish_history'), data: '- cmd: x' }, DENIED],
        [{ op: 'mkdir', path: at('.config') }, 'ok'],
        [{ op: 'mkdir', path: at('.config/gh') }, DENIED],
        [{ op: 'mkdir', path: at('.codex') }, 'ok'],
        [{ op: 'write', path: at('.codex/auth.json'), data: '{}' }, DENIED],
        // Everything else in the home folder stays writable.
        [{ op: 'write', path: at('.config/other.yml'), data: 'fine' }, 'ok'],
        [{ op: 'write', path: at('ordinary.txt'), data: 'fine' }, 'ok'],
      ]);
      expect(results).toEqual(expected);
      // Only what the server may make: ordinary folders and files (modes follow the umask).
      const folder = expect.stringMatching(/^folder \d+$/);
      const fine = expect.stringMatching(/^file \d+ fine$/);
      expect(tree(home)).toEqual({
        '.codex': folder,
        '.config': folder,
        '.config/other.yml': fine,
        '.docker': folder,
        '.local': folder,
        '.local/share': folder,
        '.local/share/fish': folder,
        'ordinary.txt': fine,
      });
    },
  );

  onSeatbelt(
    "hides the macOS places of other MCP clients' server lists (Seatbelt only: ~/Library)",
    async () => {
      const { home, policy } = setup();
      const files = HIDDEN_MACOS_HOME_PATHS.map((entry) =>
        put(path.join(home, entry), '{"mcpServers":{"x":{"env":{"TOKEN":"secret"}}}}'),
      );
      const notes = put(path.join(home, 'Library', 'Application Support', 'notes.txt'), 'fine');
      const results = await probe({ ...policy, root: home }, [
        ...files.map((file) => ({ op: 'read' as const, path: file })),
        ...files.map((file) => ({ op: 'write' as const, path: file, data: '{}' })),
        { op: 'read', path: notes },
      ]);
      expect(results).toEqual([...files.map(() => DENIED), ...files.map(() => DENIED), 'ok:fine']);
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
    expect(results).toEqual([is.pinned, is.pinned, is.hiddenFile, 'ok', 'ok']);
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
    expect(results).toEqual([is.readOnly, 'ok', is.inHidden]);
    expect(list(path.join(tool, '.git', 'hooks'))).toEqual([]);
  });
});
