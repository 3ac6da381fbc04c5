import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { cpuMsOf } from './cpu-time.js';
import { isProcessAlive } from './process-alive.js';
import { tempDir, tempUser } from './temp-dir.js';
import { useTempDir } from './use-temp-dir.js';
import { waitFor } from './wait-for.js';

describe('the public entry', () => {
  it('exports the fixtures and helpers', () => {
    for (const name of [
      'FIXTURE_SERVER',
      'FIXTURE_MODES',
      'fixtureCommand',
      'startHttpFixture',
      'tempDir',
      'tempUser',
      'waitFor',
      'cpuMsOf',
      'isProcessAlive',
      'HOSTILE',
      'NORMAL_TOOL_NAMES',
    ]) {
      expect(api, name).toHaveProperty(name);
    }
    expect(existsSync(api.FIXTURE_SERVER)).toBe(true);
  });
});

describe('useTempDir', () => {
  const tmp = useTempDir('garuda-use-temp-');
  const seen: string[] = [];

  it('gives a test an empty folder of its own', async () => {
    expect((await stat(tmp.path)).isDirectory()).toBe(true);
    await writeFile(join(tmp.path, 'left.txt'), 'x');
    seen.push(tmp.path);
  });

  it('gives the next test another one, the last one removed', () => {
    expect(seen).toHaveLength(1);
    expect(tmp.path).not.toBe(seen[0]);
    expect(existsSync(seen[0] as string)).toBe(false);
  });
});

describe('cpuMsOf', () => {
  it('counts the CPU time of the work, not the time spent waiting', () => {
    let sum = 0;
    const busy = cpuMsOf(() => {
      for (let i = 0; i < 30_000_000; i += 1) sum += i % 7;
    });
    expect(sum).toBeGreaterThan(0);
    expect(busy).toBeGreaterThan(0);
    // A blocking wait of 300 ms (the thread sleeps) costs next to no CPU time.
    const shared = new Int32Array(new SharedArrayBuffer(4));
    const idle = cpuMsOf(() => Atomics.wait(shared, 0, 0, 300));
    expect(idle).toBeLessThan(250);
  });

  it('refuses asynchronous work, whose CPU time it could not tell', () => {
    expect(() => cpuMsOf(async () => undefined)).toThrow(/synchronous work only/);
  });
});

describe('tempDir', () => {
  it('creates an empty folder and removes it with its content', async () => {
    const dir = await tempDir('garuda-helpers-');
    expect(dir.path).toMatch(/garuda-helpers-/);
    await writeFile(join(dir.path, 'f.txt'), 'x');
    await dir.cleanup();
    expect(existsSync(dir.path)).toBe(false);
    await dir.cleanup(); // twice is fine
  });
});

describe('tempUser', () => {
  it('makes the Garuda home inside the user home and the project beside it, all removed together', async () => {
    const user = await tempUser('garuda-helpers-user-');
    expect(user.userHome).toBe(join(user.dir.path, 'user'));
    expect(user.home).toBe(join(user.userHome, '.garuda'));
    expect(user.root).toBe(join(user.dir.path, 'project'));
    expect(existsSync(user.home)).toBe(true);
    expect(existsSync(user.root)).toBe(true);
    await user.dir.cleanup();
    expect(existsSync(user.dir.path)).toBe(false);
  });
});

describe('waitFor', () => {
  it('resolves with the first truthy value', async () => {
    let n = 0;
    const value = await waitFor(() => (++n >= 3 ? `after ${n}` : undefined), { intervalMs: 5 });
    expect(value).toBe('after 3');
  });

  it('treats a throwing or rejecting predicate as "not yet"', async () => {
    let n = 0;
    await expect(
      waitFor(
        async () => {
          if (++n < 3) throw new Error('not yet');
          return true;
        },
        { intervalMs: 5 },
      ),
    ).resolves.toBe(true);
  });

  it('times out with the last error as the cause', async () => {
    const error = await waitFor(
      () => {
        throw new Error('still failing');
      },
      { timeoutMs: 60, intervalMs: 10 },
    ).catch((e: unknown) => e as Error);
    expect(error.message).toBe('waitFor: timed out after 60 ms');
    expect((error.cause as Error).message).toBe('still failing');
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 30);
    await expect(
      waitFor(() => false, { timeoutMs: 5000, signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});

describe('isProcessAlive', () => {
  it('is true for a running process and false once it has exited', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    // Lives until the test ends it: a short life could be over before the first look.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pid = child.pid!;
    expect(isProcessAlive(pid)).toBe(true);
    child.kill('SIGTERM');
    await exited;
    await waitFor(() => !isProcessAlive(pid), { timeoutMs: 20_000 });
  });

  it('is false for ids that cannot be a process', () => {
    expect(isProcessAlive(undefined)).toBe(false);
    expect(isProcessAlive(null)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
    expect(isProcessAlive(1.5)).toBe(false);
  });
});
