// Real processes against one real auth file: the lock and the atomic writes themselves are
// tested in @garuda/mcp-trust; these check that the store uses them for every change.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthStore } from '../src/auth-store.js';
import { buildForChildren, CHILD_SCRIPT } from './build-for-children.js';
import { tempDir, type TempDir } from './helpers.js';

let built: { entry: string; cleanup: () => Promise<void> };
let home: TempDir;
const children = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  built = await buildForChildren();
}, 120_000);
afterAll(async () => {
  await built?.cleanup();
});
beforeEach(async () => {
  home = await tempDir('garuda-auth-procs-');
});
afterEach(async () => {
  // Only the processes this file started, by their own handles.
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  await home.cleanup();
});

/** Starts the child script; `until(re)` waits for its first stdout line matching `re`. */
function startChild(args: string[]) {
  const proc = spawn(process.execPath, [CHILD_SCRIPT, built.entry, ...args]);
  children.add(proc);
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(proc, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const lines = createInterface({ input: proc.stdout });
  return {
    proc,
    stderr: () => stderr,
    exit: exited.then(([code, signal]) => ({ code, signal })),
    async until(match: RegExp): Promise<void> {
      for await (const line of lines) {
        if (!match.test(line)) continue;
        // Reading stops with the loop: let the rest flow away, so the child never blocks on it.
        proc.stdout.resume();
        return;
      }
      throw new Error(`the child ended before printing ${match}; stderr: ${stderr}`);
    },
  };
}

describe('two processes signing in at once', () => {
  it('keeps every entry both processes wrote', async () => {
    const file = path.join(home.path, 'home', 'mcp-auth.json');
    const a = startChild(['writer', file, 'a', '60']);
    const b = startChild(['writer', file, 'b', '60']);
    await Promise.all([a.until(/^ready$/), b.until(/^ready$/)]);
    a.proc.stdin.write('go\n');
    b.proc.stdin.write('go\n');
    const [ea, eb] = await Promise.all([a.exit, b.exit]);
    expect({ code: ea.code, stderr: a.stderr() }).toEqual({ code: 0, stderr: '' });
    expect({ code: eb.code, stderr: b.stderr() }).toEqual({ code: 0, stderr: '' });

    const rows = await new AuthStore(file).list();
    expect(rows).toHaveLength(120);
    for (const prefix of ['a', 'b']) {
      for (let i = 0; i < 60; i++) {
        const entry = await new AuthStore(file).get({
          scope: 'user',
          name: `${prefix}${i}`,
          url: `https://${prefix}${i}.example/mcp`,
        });
        expect(entry?.tokens?.access_token).toMatch(new RegExp(`^at-${prefix}-${i}-\\d+$`));
      }
    }
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe('a process killed while writing', () => {
  it('leaves the old or the new file, never half of one', async () => {
    const file = path.join(home.path, 'mcp-auth.json');
    const store = new AuthStore(file, { lockTimeoutMs: 30_000, lockStaleMs: 2_000 });
    await store.update({ scope: 'user', name: 'seed', url: 'https://seed.example/mcp' }, () => ({
      port: 1,
    }));
    for (let round = 0; round < 2; round++) {
      const child = startChild(['hammer', file, String(256 * 1024)]);
      await child.until(/^wrote \d+$/);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 80)));
      child.proc.kill('SIGKILL');
      await child.exit;
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as {
        entries: Record<string, { tokens?: { access_token: string } }>;
      };
      expect(data.entries['user::seed::https://seed.example/mcp']).toBeDefined();
      expect(data.entries['user::big::https://big.example/mcp']?.tokens?.access_token).toHaveLength(
        256 * 1024,
      );
    }
    // A lock the dead child may have left is taken over once stale.
    await store.update({ scope: 'user', name: 'after', url: 'https://after.example/mcp' }, () => ({
      port: 2,
    }));
    expect((await store.list()).map((r) => r.name)).toEqual(['after', 'big', 'seed']);
  }, 60_000);
});
