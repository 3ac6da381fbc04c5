// Proofs, with the real OS sandbox and real processes, of what the server's process gets: no way
// to widen its sandbox, exactly the allowed environment, and no life past the process Garuda
// started. The same tests run bubblewrap on Linux and Seatbelt on macOS (its twin); where the two
// differ (Linux namespaces and capabilities, /proc), a test runs on one of them only and says so.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { osSandboxCases, processesWith, run, waitUntil } from '../test/support/sandbox.js';

const { sandbox, kind, available, suite, temp, setup, onBwrap, onSeatbelt } =
  await osSandboxCases();

describe.skipIf(!available)(suite, () => {
  onBwrap(
    'allows no new user namespaces and no capabilities (unlike outside the sandbox)',
    async () => {
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
    },
  );

  onSeatbelt(
    'cannot put itself in a looser sandbox (Seatbelt twin of "no new user namespaces")',
    async () => {
      const { policy } = setup();
      const outside = path.join(temp.make('outside'), 'escaped.txt');
      const argv = [
        '/usr/bin/sandbox-exec',
        '-p',
        '(version 1)(allow default)',
        '/usr/bin/touch',
        outside,
      ];
      const nested = await run(buildSandbox(argv, policy, sandbox));
      expect(nested.code).not.toBe(0);
      expect(existsSync(outside)).toBe(false);
      // The same command without a sandbox works, so this test can tell the difference.
      const plain = await run(buildSandbox(argv, policy, { kind: 'none' }));
      expect(plain.code).toBe(0);
      expect(existsSync(outside)).toBe(true);
    },
  );

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
      // bubblewrap sets PWD after its --chdir; sandbox-exec execs the server as it is.
      ...(kind === 'bwrap' ? { PWD: root } : {}),
    });
  });

  it("points TMPDIR at the sandbox's /tmp when the host folder it names is not writable inside", async () => {
    const { policy } = setup();
    const result = await run(
      buildSandbox(
        [
          process.execPath,
          '-e',
          // On macOS the file lands in this machine's /private/tmp: removed again.
          `const f = require('os').tmpdir() + '/garuda-tmpdir-' + process.pid; require('fs').writeFileSync(f, 'x'); require('fs').unlinkSync(f); process.stdout.write(process.env.TMPDIR)`,
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
    expect(result.stdout).toBe(kind === 'bwrap' ? '/tmp' : '/private/tmp');
  });

  onBwrap(
    'stops the server when the bubblewrap process is killed (--die-with-parent)',
    async () => {
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
    },
  );

  onSeatbelt(
    'runs the server as the process it starts, so killing that process stops the server (Seatbelt twin of --die-with-parent: sandbox-exec execs the server)',
    async () => {
      const { policy } = setup();
      const cmd = buildSandbox(
        [
          process.execPath,
          '-e',
          'process.stdout.write(String(process.pid)); setInterval(() => {}, 1000)',
        ],
        policy,
        sandbox,
      );
      const child = spawn(cmd.command, cmd.args, {
        env: cmd.env,
        cwd: cmd.cwd,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let printed = '';
      child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
      const alive = (pid: number): boolean => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      try {
        await waitUntil(() => printed !== '', 20_000, 'the payload to start');
        expect(Number(printed)).toBe(child.pid);
        child.kill('SIGKILL');
        await exited;
        await waitUntil(() => !alive(Number(printed)), 20_000, 'the payload to stop');
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});
