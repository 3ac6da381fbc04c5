// Proofs, with real bubblewrap and real processes, of what the server's process gets: no
// capabilities or user namespaces, exactly the allowed environment, and no life past bubblewrap.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { bwrapCases, processesWith, run, waitUntil } from './sandbox-test-support.js';

const { sandbox, available, skipNotice, temp, setup } = await bwrapCases();
if (skipNotice !== undefined) console.warn(skipNotice);
afterAll(() => temp.cleanup());

describe.skipIf(!available)('bubblewrap sandbox (real processes)', () => {
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
});
