import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { clearSandboxCache, detectSandbox } from './detect-sandbox.js';
import { TransportOptionsError } from './errors.js';
import { TempDirs, script } from '../test/support/sandbox.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());
beforeEach(() => clearSandboxCache());

/**
 * A fake bwrap: prints `stderr` and exits with `code`; answers `--version` with `version`;
 * appends one line per run to `<dir>/runs`.
 */
function fakeBwrap(options: { stderr?: string; code?: number; version?: string; sleep?: number }): {
  file: string;
  runs: () => number;
} {
  const dir = temp.make('fake', '/tmp');
  const log = path.join(dir, 'runs');
  const quoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
  const file = script(
    path.join(dir, 'bwrap'),
    [
      `echo "$*" >> ${quoted(log)}`,
      `if [ "$1" = "--version" ]; then echo ${quoted(`bubblewrap ${options.version ?? '0.8.0'}`)}; exit 0; fi`,
      // exec: the probe's SIGKILL then reaches sleep itself, and nothing is left running.
      options.sleep ? `exec sleep ${options.sleep}` : '',
      options.stderr === undefined ? '' : `printf '%s\\n' ${quoted(options.stderr)} >&2`,
      `exit ${options.code ?? 1}`,
    ].join('\n'),
  );
  const runs = (): number =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== '' && !line.startsWith('--version')).length
      : 0;
  return { file, runs };
}

describe('detectSandbox on this machine', () => {
  it("finds this platform's sandbox with the real probe when it is installed (bubblewrap, Seatbelt)", async () => {
    const info = await detectSandbox({ searchPath: process.env.PATH });
    const installed = [
      '/usr/bin/bwrap',
      '/usr/local/bin/bwrap',
      ...(process.env.PATH ?? '').split(':').map((dir) => path.join(dir, 'bwrap')),
    ].some((file) => existsSync(file));
    if (process.platform === 'linux' && installed) {
      // Our machines and CI: bubblewrap 0.8.0 works here (security notes §2.1).
      expect(info).toEqual({
        kind: 'bwrap',
        command: expect.stringMatching(/\/bwrap$/),
        version: expect.stringMatching(/^\d+\.\d+/),
      });
    } else if (process.platform === 'darwin' && existsSync('/usr/bin/sandbox-exec')) {
      // macOS (CI's macOS job): sandbox-exec ships with the system.
      expect(info).toEqual({ kind: 'seatbelt', command: '/usr/bin/sandbox-exec' });
    } else {
      expect(info.kind).toBe('none');
    }
  });
});

describe('detectSandbox on Linux without a working bubblewrap', () => {
  it('says to install bubblewrap when the configured bwrap does not exist', async () => {
    const info = await detectSandbox({ platform: 'linux', bwrapPath: '/nonexistent/garuda/bwrap' });
    expect(info.kind).toBe('none');
    expect(info.reason).toContain('install bubblewrap');
    expect(info.reason).toContain('apt-get install bubblewrap');
    expect(info.reason).toContain('/nonexistent/garuda/bwrap');
  });

  it('says to install bubblewrap when a file that is not executable is configured', async () => {
    const dir = temp.make('noexec', '/tmp');
    const file = path.join(dir, 'bwrap');
    script(file, 'exit 0');
    chmodSync(file, 0o644);
    const info = await detectSandbox({ platform: 'linux', bwrapPath: file });
    expect(info).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('install bubblewrap'),
    });
  });

  it('searches the caller’s PATH before the usual places, and only absolute entries', async () => {
    const fake = fakeBwrap({ code: 0 });
    const dir = path.dirname(fake.file);
    const info = await detectSandbox({
      platform: 'linux',
      searchPath: `relative/dir::${dir}:/usr/bin`,
    });
    expect(info).toEqual({ kind: 'bwrap', command: fake.file, version: '0.8.0' });
    expect(fake.runs()).toBe(1);
  });

  const cases: [stderr: string, advice: string | RegExp][] = [
    [
      "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
      'user namespaces are disabled: sysctl kernel.unprivileged_userns_clone=1',
    ],
    [
      'bwrap: No permissions to creating new namespace',
      'user namespaces are disabled: sysctl kernel.unprivileged_userns_clone=1',
    ],
    [
      'bwrap: setting up uid map: Permission denied',
      'AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+)',
    ],
    [
      'bwrap: Creating new namespace failed, likely because the kernel does not support user namespaces. bwrap must be installed setuid on such systems.',
      'this kernel does not allow unprivileged user namespaces',
    ],
    [
      'bwrap: Creating new namespace failed: Operation not permitted',
      'new namespaces are not permitted here, probably inside a container',
    ],
    [
      'bwrap: Creating new namespace failed: Function not implemented',
      'this kernel has no user namespace support',
    ],
    ['bwrap: Creating new namespace failed: No space left on device', 'user.max_user_namespaces'],
    [
      'bwrap: Unknown option --disable-userns',
      'bubblewrap is too old for --disable-userns (needs 0.8.0',
    ],
    [
      'bwrap: something nobody has seen before',
      'bubblewrap cannot create a sandbox here (exit code 1)',
    ],
  ];

  it.each(cases)('maps %j to advice a person can act on', async (stderr, advice) => {
    const fake = fakeBwrap({ stderr });
    const info = await detectSandbox({ platform: 'linux', bwrapPath: fake.file });
    expect(info.kind).toBe('none');
    expect(info.command).toBe(fake.file);
    expect(info.reason).toContain(advice);
    // Always with bubblewrap's own first line (cut at 200 characters).
    const shown = stderr.length > 200 ? `${stderr.slice(0, 200)}…` : stderr;
    expect(info.reason).toContain(`(bwrap said: ${JSON.stringify(shown)})`);
  });

  it('names the installed version when bubblewrap is too old', async () => {
    const fake = fakeBwrap({ stderr: 'bwrap: Unknown option --disable-userns', version: '0.6.2' });
    const info = await detectSandbox({ platform: 'linux', bwrapPath: fake.file });
    expect(info).toMatchObject({ kind: 'none', version: '0.6.2' });
    expect(info.reason).toContain('needs 0.8.0, this is 0.6.2');
  });

  it('shows only the first line of bubblewrap’s output, without control characters', async () => {
    const fake = fakeBwrap({
      stderr: '\x1b[31mbwrap:\x1b[0m setting up\u202e uid map: Permission denied\x07\nsecond line',
    });
    const info = await detectSandbox({ platform: 'linux', bwrapPath: fake.file });
    expect(info.reason).toContain('(bwrap said: "bwrap: setting up uid map: Permission denied")');
    expect(info.reason).not.toContain('second line');
    expect(info.reason).not.toMatch(/[\x00-\x1f\x7f\u202e]/);
  });

  it('gives up after timeoutMs, and tries again next time', async () => {
    // The fake outlives the test: a check that waited for it (or for its output to close)
    // would fail the test by its timeout, however busy the machine, and never pass by luck.
    const fake = fakeBwrap({ sleep: 600, code: 0 });
    const info = await detectSandbox({ platform: 'linux', bwrapPath: fake.file, timeoutMs: 300 });
    expect(info).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('did not finish within 300 ms'),
    });
    await detectSandbox({ platform: 'linux', bwrapPath: fake.file, timeoutMs: 300 });
    expect(fake.runs()).toBe(2);
  });
});

describe('detectSandbox cache', () => {
  it('probes once per process for the same options, until cleared', async () => {
    const fake = fakeBwrap({ code: 0 });
    const options = { platform: 'linux' as const, bwrapPath: fake.file };
    const [a, b] = await Promise.all([detectSandbox(options), detectSandbox(options)]);
    const c = await detectSandbox(options);
    expect(a).toEqual({ kind: 'bwrap', command: fake.file, version: '0.8.0' });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(fake.runs()).toBe(1);

    // Callers get their own copy: changing one does not change what others get.
    (c as { kind: string }).kind = 'none';
    expect((await detectSandbox(options)).kind).toBe('bwrap');

    clearSandboxCache();
    await detectSandbox(options);
    expect(fake.runs()).toBe(2);
  });

  it('keeps separate results for separate bwrap paths', async () => {
    const good = fakeBwrap({ code: 0 });
    const bad = fakeBwrap({ stderr: 'bwrap: setting up uid map: Permission denied' });
    expect((await detectSandbox({ platform: 'linux', bwrapPath: good.file })).kind).toBe('bwrap');
    expect((await detectSandbox({ platform: 'linux', bwrapPath: bad.file })).kind).toBe('none');
  });
});

describe('detectSandbox on other platforms', () => {
  it.each(['win32', 'freebsd', 'aix'] as const)(
    'reports no OS sandbox on %s without running anything',
    async (platform) => {
      const fake = fakeBwrap({ code: 0 });
      const info = await detectSandbox({ platform, bwrapPath: fake.file });
      expect(info).toEqual({ kind: 'none', reason: `no OS sandbox on ${platform} yet` });
      expect(fake.runs()).toBe(0);
    },
  );

  it('reports none on macOS when sandbox-exec is missing', async () => {
    const info = await detectSandbox({
      platform: 'darwin',
      sandboxExecPath: '/nonexistent/sandbox-exec',
    });
    expect(info).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('sandbox-exec was not found'),
    });
  });

  it('finds Seatbelt on macOS when the sandbox-exec probe exits 0', async () => {
    const dir = temp.make('darwin', '/tmp');
    const log = path.join(dir, 'args');
    const fake = script(path.join(dir, 'sandbox-exec'), `printf '%s\\n' "$@" > '${log}'\nexit 0`);
    const info = await detectSandbox({ platform: 'darwin', sandboxExecPath: fake });
    expect(info).toEqual({ kind: 'seatbelt', command: fake });
    expect(readFileSync(log, 'utf8')).toBe('-p\n(version 1)(allow default)\n/usr/bin/true\n');
  });

  it('explains a nested macOS sandbox', async () => {
    const dir = temp.make('darwin', '/tmp');
    const fake = script(
      path.join(dir, 'sandbox-exec'),
      `echo 'sandbox-exec: sandbox_apply: Operation not permitted' >&2\nexit 71`,
    );
    const info = await detectSandbox({ platform: 'darwin', sandboxExecPath: fake });
    expect(info.kind).toBe('none');
    expect(info.reason).toContain('already running inside a macOS sandbox');
    expect(info.reason).toContain('sandbox_apply: Operation not permitted');
  });
});

describe('detectSandbox options', () => {
  it('rejects with the signal’s reason when aborted, and the check still completes for others', async () => {
    const fake = fakeBwrap({ sleep: 1, code: 0 });
    const controller = new AbortController();
    const waiting = detectSandbox({
      platform: 'linux',
      bwrapPath: fake.file,
      signal: controller.signal,
    });
    controller.abort(new Error('stop waiting'));
    await expect(waiting).rejects.toThrow('stop waiting');
    expect((await detectSandbox({ platform: 'linux', bwrapPath: fake.file })).kind).toBe('bwrap');
    expect(fake.runs()).toBe(1);
  });

  it('rejects at once for an already aborted signal', async () => {
    const fake = fakeBwrap({ code: 0 });
    await expect(
      detectSandbox({
        platform: 'linux',
        bwrapPath: fake.file,
        signal: AbortSignal.abort(new Error('already')),
      }),
    ).rejects.toThrow('already');
    expect(fake.runs()).toBe(0);
  });

  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ timeoutMs: 1.5 }, 'timeoutMs'],
    [{ timeoutMs: Number.NaN }, 'timeoutMs'],
    [{ bwrapPath: 'bin/bwrap' }, 'bwrapPath'],
    [{ bwrapPath: '/usr/bin/bw\0rap' }, 'bwrapPath'],
    [{ sandboxExecPath: 'sandbox-exec' }, 'sandboxExecPath'],
    [{ searchPath: '/bin\0' }, 'searchPath'],
  ])('throws TransportOptionsError for %j', async (options, option) => {
    const error = await detectSandbox(options).catch((e: unknown) => e);
    expect(TransportOptionsError.isInstance(error)).toBe(true);
    expect((error as TransportOptionsError).option).toBe(option);
  });
});
