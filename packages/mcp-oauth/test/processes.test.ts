// Real processes against one real auth file: what the lock and the atomic writes are for.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
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

interface Child {
  proc: ChildProcessWithoutNullStreams;
  line(match: RegExp, timeoutMs?: number): Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

function startChild(args: string[]): Child {
  const proc = spawn(process.execPath, [CHILD_SCRIPT, built.entry, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(proc);
  let out = '';
  let err = '';
  const waiters: { match: RegExp; resolve: (l: string) => void }[] = [];
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    out += chunk;
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const l = out.slice(0, nl);
      out = out.slice(nl + 1);
      for (const w of [...waiters]) {
        if (w.match.test(l)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(l);
        }
      }
    }
  });
  proc.stderr.on('data', (chunk: string) => (err += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    exit,
    stderr: () => err,
    line: (match, timeoutMs = 30_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line ${match} within ${timeoutMs} ms; stderr: ${err}`)),
          timeoutMs,
        );
        waiters.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) });
        void exit.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`child exited (${code ?? signal}) before ${match}; stderr: ${err}`));
        });
      }),
  };
}

describe('two processes signing in at once', () => {
  it('keeps every entry both processes wrote', async () => {
    const file = path.join(home.path, 'home', 'mcp-auth.json');
    const a = startChild(['writer', file, 'a', '60']);
    const b = startChild(['writer', file, 'b', '60']);
    await Promise.all([a.line(/^ready$/), b.line(/^ready$/)]);
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
      await child.line(/^wrote \d+$/);
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
