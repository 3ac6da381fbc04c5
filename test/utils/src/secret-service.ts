// A private, headless Secret Service for the keychain tests: Debian's dbus-daemon on a socket in
// a temporary folder (its own config, no service activation) and gnome-keyring-daemon with only
// its secrets component, unlocked with a password on stdin. Both run as our own children and
// are killed by stop(): nothing is left behind, and the user's own keychain is never touched
// (the bus address goes only into the environment handed to what a test runs).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { tempDir } from './temp-dir.js';

const DBUS_DAEMON = '/usr/bin/dbus-daemon';
const GNOME_KEYRING = '/usr/bin/gnome-keyring-daemon';
const SECRET_TOOL = '/usr/bin/secret-tool';

/** A running private Secret Service. */
export interface SecretService {
  /**
   * The environment to give what a test runs: `DBUS_SESSION_BUS_ADDRESS` of the private bus and
   * XDG folders in the temporary folder.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Reads a secret straight from the Secret Service with `secret-tool` (a process of its own,
   * not our code): the value, or `undefined` when there is none.
   */
  lookup(service: string, account: string): Promise<string | undefined>;
  /** Every account of `service` the Secret Service holds (through `secret-tool search`). */
  accounts(service: string): Promise<string[]>;
  /** Removes a secret behind the back of the code under test (through `secret-tool clear`). */
  clear(service: string, account: string): Promise<void>;
  /** The process ids of the two daemons (for a check that none is left after `stop`). */
  readonly pids: readonly number[];
  /** Kills both daemons and removes the temporary folder. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Why a Secret Service cannot be started here (a missing program, not Linux), or `undefined`
 * when it can.
 */
export function secretServiceMissing(): string | undefined {
  if (process.platform !== 'linux') return 'the Secret Service tests run on Linux only';
  for (const [file, pkg] of [
    [DBUS_DAEMON, 'dbus-daemon'],
    [GNOME_KEYRING, 'gnome-keyring'],
    [SECRET_TOOL, 'libsecret-tools'],
  ] as const) {
    if (!existsSync(file)) return `${file} is missing (apt-get install ${pkg})`;
  }
  return undefined;
}

/**
 * Starts a private session bus and gnome-keyring's Secret Service on it, within `timeoutMs`.
 * @throws when a daemon does not start in time (both are stopped then)
 */
export async function startSecretService(timeoutMs = 15_000): Promise<SecretService> {
  const dir = await tempDir('garuda-secret-service-');
  const children: ChildProcess[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(children.map(killAndWait));
    await dir.cleanup();
  };
  try {
    const xdg = {
      HOME: path.join(dir.path, 'home'),
      XDG_RUNTIME_DIR: path.join(dir.path, 'runtime'),
      XDG_DATA_HOME: path.join(dir.path, 'data'),
      XDG_CONFIG_HOME: path.join(dir.path, 'config'),
      XDG_CACHE_HOME: path.join(dir.path, 'cache'),
    };
    for (const folder of Object.values(xdg)) await mkdir(folder, { recursive: true, mode: 0o700 });
    const socket = path.join(dir.path, 'bus');
    const config = path.join(dir.path, 'bus.conf');
    await writeFile(
      config,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
    );
    const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...xdg };
    const bus = spawn(DBUS_DAEMON, ['--config-file', config, '--nofork', '--print-address=1'], {
      env: base,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(bus);
    const address = (await firstLine(bus, timeoutMs, 'dbus-daemon')).trim();
    const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
    const keyring = spawn(GNOME_KEYRING, ['--foreground', '--unlock', '--components=secrets'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(keyring);
    // The password of the (new) login keyring, then end of input.
    keyring.stdin?.end('garuda-test-keyring');
    await waitForSecrets(env, keyring, timeoutMs);
    return {
      env,
      pids: children.map((child) => child.pid as number),
      lookup: async (service, account) => {
        const result = await run(
          SECRET_TOOL,
          ['lookup', 'service', service, 'username', account],
          env,
        );
        return result.code === 0 ? result.stdout : undefined;
      },
      accounts: async (service) => {
        const result = await run(SECRET_TOOL, ['search', '--all', 'service', service], env);
        return [
          ...`${result.stdout}\n${result.stderr}`.matchAll(/^attribute\.username = (.*)$/gm),
        ].map((m) => m[1] as string);
      },
      clear: async (service, account) => {
        await run(SECRET_TOOL, ['clear', 'service', service, 'username', account], env);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

// The Secret Service answers once `secret-tool` can store and read back a probe.
async function waitForSecrets(
  env: Record<string, string>,
  keyring: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (keyring.exitCode !== null) throw new Error('gnome-keyring-daemon exited at start');
    const stored = await run(
      SECRET_TOOL,
      ['store', '--label=probe', 'service', 'garuda-test-probe', 'username', 'probe'],
      env,
      'probe',
    );
    if (stored.code === 0) {
      await run(SECRET_TOOL, ['clear', 'service', 'garuda-test-probe', 'username', 'probe'], env);
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`the Secret Service did not answer within ${timeoutMs} ms: ${stored.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function firstLine(child: ChildProcess, timeoutMs: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end !== -1) {
        clearTimeout(timer);
        resolve(text.slice(0, end));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${String(code)} at start`));
    });
  });
}

function run(
  file: string,
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

function killAndWait(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
