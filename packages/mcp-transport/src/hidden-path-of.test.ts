import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidPolicyError } from './errors.js';
import { hiddenPathOf } from './hidden-path-of.js';
import { TempDirs, put } from '../test/support/sandbox.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

function setup(): { home: string; garudaHome: string } {
  const home = path.join(temp.make('of'), 'home');
  mkdirSync(home);
  return { home, garudaHome: path.join(home, '.garuda') };
}

describe('hiddenPathOf', () => {
  it('names the credential path a file is at or inside, existing or not', () => {
    const options = setup();
    const { home } = options;
    expect(hiddenPathOf(path.join(home, '.kube'), options)).toEqual({
      kind: 'credential',
      path: path.join(home, '.kube'),
      name: '.kube',
    });
    expect(hiddenPathOf(path.join(home, '.kube', 'config'), options)).toMatchObject({
      name: '.kube',
    });
    expect(hiddenPathOf(path.join(home, '.config', 'gcloud', 'a', 'b'), options)).toMatchObject({
      kind: 'credential',
      name: '.config/gcloud',
    });
    expect(hiddenPathOf(path.join(home, '.netrc'), options)).toMatchObject({ name: '.netrc' });
  });

  it('is nothing for a path that holds hidden paths, or lies beside them', () => {
    const options = setup();
    const { home } = options;
    for (const file of [
      home,
      path.join(home, '.config'),
      path.join(home, '.kubeconfig'),
      path.join(home, '.netrc.bak'),
      path.join(home, 'docs', 'x.txt'),
      '/etc/passwd',
    ]) {
      expect(hiddenPathOf(file, options)).toBeUndefined();
    }
  });

  it('puts garudaHome first, then the socket places', () => {
    const { home } = setup();
    // garudaHome inside a credential folder is still garudaHome.
    const garudaHome = path.join(home, '.kube', 'garuda');
    expect(hiddenPathOf(path.join(garudaHome, 'trust.json'), { home, garudaHome })).toEqual({
      kind: 'garudaHome',
      path: garudaHome,
    });
    expect(hiddenPathOf('/run/user/1000/bus', { home, garudaHome })).toEqual({
      kind: 'system',
      path: '/run/user',
    });
  });

  it('follows symbolic links both ways', () => {
    const options = setup();
    const { home } = options;
    // A link to a credential folder, from outside the home folder.
    const outside = temp.make('outside');
    const link = path.join(outside, 'kube-link');
    symlinkSync(path.join(home, '.kube'), link);
    put(path.join(home, '.kube', 'config'), 'x');
    expect(hiddenPathOf(path.join(link, 'config'), options)).toMatchObject({ name: '.kube' });
    // A credential folder that is a link to a folder elsewhere: its target is hidden too.
    const dotfiles = temp.make('dotfiles');
    put(path.join(dotfiles, 'aws', 'credentials'), 'x');
    symlinkSync(path.join(dotfiles, 'aws'), path.join(home, '.aws'));
    expect(hiddenPathOf(path.join(dotfiles, 'aws', 'credentials'), options)).toMatchObject({
      name: '.aws',
    });
    // And a link to garudaHome.
    mkdirSync(options.garudaHome);
    symlinkSync(options.garudaHome, path.join(outside, 'g'));
    expect(hiddenPathOf(path.join(outside, 'g'), options)).toMatchObject({ kind: 'garudaHome' });
  });

  it('throws InvalidPolicyError for a path that is not absolute', () => {
    const options = setup();
    expect(() => hiddenPathOf('.kube', options)).toThrow(InvalidPolicyError);
    expect(() => hiddenPathOf('/x', { ...options, home: '~' })).toThrow(/home/);
    expect(() => hiddenPathOf('/x\0', options)).toThrow(InvalidPolicyError);
  });
});
