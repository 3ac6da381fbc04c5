// Proofs, with the real OS sandbox and real processes, that a read path shows a hidden credential
// path read-only, and nothing more of it or of the others. The same tests run bubblewrap on Linux
// and Seatbelt on macOS (its twin).
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { InvalidPolicyError } from './errors.js';
import { fsProbeArgv, list, osSandboxCases, put, read, tree } from '../test/support/sandbox.js';

const { sandbox, available, suite, is, temp, setup, probe, probeSteps } = await osSandboxCases();

describe.skipIf(!available)(suite, () => {
  describe('read paths that reveal a hidden credential path', () => {
    it('shows a revealed ~/.kube read-only; its sibling ~/.ssh stays hidden', async () => {
      const { home, policy } = setup();
      const kube = put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      const key = put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
      const { results, expected } = await probeSteps(
        { ...policy, readPaths: [path.join(home, '.kube')] },
        [
          [{ op: 'read', path: kube }, 'ok:apiVersion: v1'],
          [{ op: 'readdir', path: path.join(home, '.kube') }, 'ok:config'],
          [{ op: 'read', path: key }, is.inHidden],
          [{ op: 'readdir', path: path.join(home, '.ssh') }, is.listHidden()],
          [{ op: 'write', path: kube, data: 'apiVersion: evil' }, is.readOnly],
          [{ op: 'write', path: path.join(home, '.kube', 'new'), data: 'x' }, is.readOnly],
          [{ op: 'rm', path: kube }, is.readOnly],
        ],
      );
      expect(results).toEqual(expected);
      expect(read(kube)).toBe('apiVersion: v1');
      expect(list(path.join(home, '.kube'))).toEqual(['config']);
    });

    it('keeps a revealed folder read-only where the root or a write path holds it', async () => {
      const { home, policy } = setup();
      const kube = put(path.join(home, '.kube', 'config'), 'apiVersion: v1');
      put(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
      // Renaming it needs the home folder writable: a mount point then (bubblewrap: EBUSY).
      for (const [widened, rename] of [
        [{ ...policy, root: home }, is.pinned],
        [{ ...policy, writePaths: [home] }, is.pinned],
        [{ ...policy, writePaths: [path.join(home, '.kube')] }, is.readOnly],
      ] as const) {
        const results = await probe({ ...widened, readPaths: [path.join(home, '.kube')] }, [
          { op: 'read', path: kube },
          { op: 'write', path: kube, data: 'apiVersion: evil' },
          { op: 'write', path: path.join(home, '.kube', 'cache'), data: 'x' },
          { op: 'rename', path: path.join(home, '.kube'), to: path.join(home, 'kube-moved') },
          { op: 'read', path: path.join(home, '.ssh', 'id_rsa') },
        ]);
        expect(results).toEqual([
          'ok:apiVersion: v1',
          is.readOnly,
          is.readOnly,
          rename,
          is.inHidden,
        ]);
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
      const { results, expected } = await probeSteps({ ...policy, readPaths: [kube, active] }, [
        [{ op: 'read', path: kube }, 'ok:apiVersion: v1'],
        [{ op: 'readdir', path: path.join(home, '.kube') }, is.listHidden('config')],
        [{ op: 'read', path: path.join(home, '.kube', 'other-cluster') }, is.inHidden],
        [{ op: 'read', path: active }, 'ok:[core]'],
        [{ op: 'readdir', path: gcloud }, is.listHidden('configurations')],
        [{ op: 'read', path: path.join(gcloud, 'credentials.db') }, is.inHidden],
        // The hidden folders around them are still read-only (made so after the mount points).
        [{ op: 'write', path: path.join(home, '.kube', 'planted'), data: 'x' }, is.readOnly],
        [{ op: 'mkdir', path: path.join(gcloud, 'legacy_credentials') }, is.readOnly],
        [{ op: 'write', path: kube, data: 'evil' }, is.readOnly],
      ]);
      expect(results).toEqual(expected);
      // The mount points were made in the sandbox's in-memory folders, not here.
      expect(tree(home)).toEqual(before);
    });

    it('shows a hidden file (otherwise the null device), read-only', async () => {
      const { home, policy } = setup();
      const netrc = put(path.join(home, '.netrc'), 'machine example.com password hunter2');
      put(path.join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_x');
      const { results, expected } = await probeSteps(
        { ...policy, root: home, readPaths: [netrc] },
        [
          [{ op: 'read', path: netrc }, 'ok:machine example.com password hunter2'],
          [{ op: 'append', path: netrc, data: 'more' }, is.readOnly],
          [{ op: 'rm', path: netrc }, is.pinned],
          // Another hidden file: still hidden (bubblewrap: the null device).
          [{ op: 'read', path: path.join(home, '.npmrc') }, is.hiddenFile],
        ],
      );
      expect(results).toEqual(expected);
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
      expect(results).toEqual([is.inHidden, is.inHidden, is.inHidden, 'ok:not secret']);
    });

    it('hides again what is hidden inside a revealed folder (a linked ~/.ssh, garudaHome)', async () => {
      const { home, policy } = setup();
      const kube = path.join(home, '.kube');
      put(path.join(kube, 'config'), 'apiVersion: v1');
      put(path.join(kube, 'ssh', 'id_rsa'), 'PRIVATE KEY');
      symlinkSync(path.join(kube, 'ssh'), path.join(home, '.ssh'));
      put(path.join(kube, 'garuda', 'trust.json'), '{"secret":true}');
      const { results, expected } = await probeSteps(
        { ...policy, garudaHome: path.join(kube, 'garuda'), readPaths: [kube] },
        [
          [{ op: 'read', path: path.join(kube, 'config') }, 'ok:apiVersion: v1'],
          [{ op: 'read', path: path.join(kube, 'ssh', 'id_rsa') }, is.inHidden],
          [{ op: 'read', path: path.join(home, '.ssh', 'id_rsa') }, is.inHidden],
          [{ op: 'read', path: path.join(kube, 'garuda', 'trust.json') }, is.inHidden],
          [{ op: 'readdir', path: kube }, 'ok:config,garuda,ssh'],
        ],
      );
      expect(results).toEqual(expected);
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
      expect(results).toEqual([is.inHidden, is.inHidden, is.inHidden, is.inHidden]);
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
});
