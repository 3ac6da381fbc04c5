import { spawn } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { addServer } from './add-server.js';
import { ConfigProblemCode } from './config-problem.js';
import { loadConfig } from './load-config.js';

// These tests run the built package (see test/global-setup.ts) in separate Node processes.
const distEntry = inject('distEntry');
const dirs = tempDirs();

interface Child {
  readonly ready: Promise<void>;
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  go(): void;
}

function runChild(
  script: string,
  args: readonly string[],
  options: { uid?: number; gid?: number } = {},
): Child {
  const child = spawn(process.execPath, [script, distEntry, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...options,
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('ready\n')) markReady();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => {
      markReady();
      resolve({ code, stdout, stderr });
    });
  });
  return { ready, done, go: () => child.stdin.end('go\n') };
}

const ADDER = `
import { pathToFileURL } from 'node:url';
const [entry, file, prefix, count] = process.argv.slice(2);
const { addServer } = await import(pathToFileURL(entry).href);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 0; i < Number(count); i++) {
  await addServer({
    file,
    name: prefix + i,
    def: { command: prefix, args: [String(i)] },
    source: 'user',
    lockTimeoutMs: 60000,
  });
}
process.stdout.write('done\\n');
`;

const TOGGLER = `
import { pathToFileURL } from 'node:url';
const [entry, file, name, count] = process.argv.slice(2);
const { setServerEnabled } = await import(pathToFileURL(entry).href);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 1; i <= Number(count); i++) {
  await setServerEnabled({ file, name, enabled: i % 2 === 0, lockTimeoutMs: 60000 });
}
process.stdout.write('done\\n');
`;

const LOADER = `
import { pathToFileURL } from 'node:url';
const [entry, file] = process.argv.slice(2);
const { loadConfig } = await import(pathToFileURL(entry).href);
process.stdout.write('ready\\n');
const result = await loadConfig({ userFile: file, env: {} });
process.stdout.write(JSON.stringify(result) + '\\n');
`;

describe('addServer across processes', () => {
  it('keeps the servers of two processes adding to one file at once', async () => {
    const dir = await dirs.create();
    const script = path.join(dir, 'adder.mjs');
    await writeFile(script, ADDER);
    const file = path.join(dir, 'home', 'mcp.json');
    await addServer({ file, name: 'seed', def: { command: 'seed' }, source: 'user' });
    const count = 20;
    const children = [
      runChild(script, [file, 'a', String(count)]),
      runChild(script, [file, 'b', String(count)]),
    ];
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.go();
    const results = await Promise.all(children.map((c) => c.done));
    for (const r of results)
      expect(r, r.stderr).toMatchObject({ code: 0, stdout: 'ready\ndone\n' });

    const { servers, problems } = await loadConfig({ userFile: file, env: {} });
    expect(problems).toEqual([]);
    const names = servers.map((s) => s.name);
    expect(names).toHaveLength(2 * count + 1);
    for (let i = 0; i < count; i++)
      expect(names).toEqual(expect.arrayContaining([`a${i}`, `b${i}`]));
    expect(names[0]).toBe('seed');
  }, 60_000);
});

describe('setServerEnabled across processes', () => {
  it('loses no server another process adds while it toggles one', async () => {
    const dir = await dirs.create();
    const adder = path.join(dir, 'adder.mjs');
    const toggler = path.join(dir, 'toggler.mjs');
    await writeFile(adder, ADDER);
    await writeFile(toggler, TOGGLER);
    const file = path.join(dir, 'home', 'mcp.json');
    await addServer({ file, name: 'seed', def: { command: 'seed' }, source: 'user' });
    const count = 20;
    // An odd number of toggles ends disabled.
    const children = [
      runChild(adder, [file, 'a', String(count)]),
      runChild(toggler, [file, 'seed', String(count + 1)]),
    ];
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.go();
    const results = await Promise.all(children.map((c) => c.done));
    for (const r of results)
      expect(r, r.stderr).toMatchObject({ code: 0, stdout: 'ready\ndone\n' });

    const { servers, problems } = await loadConfig({ userFile: file, env: {} });
    expect(problems).toEqual([]);
    expect(servers.map((s) => s.name).sort()).toEqual(
      ['seed', ...Array.from({ length: count }, (_, i) => `a${i}`)].sort(),
    );
    expect(servers.find((s) => s.name === 'seed')?.def.enabled).toBe(false);
  }, 60_000);
});

describe('loadConfig on a file it may not read', () => {
  it('reports EACCES as a problem (run as another user when this is root)', async () => {
    const dir = await dirs.create();
    await chmod(dir, 0o755);
    const script = path.join(dir, 'loader.mjs');
    await writeFile(script, LOADER);
    await chmod(script, 0o644);
    const file = path.join(dir, 'mcp.json');
    await writeFile(file, '{"servers": {"a": {"command": "x"}}}');
    const root = process.getuid?.() === 0;
    await chmod(file, root ? 0o600 : 0o000);
    const child = runChild(script, [file], root ? { uid: 65534, gid: 65534 } : {});
    const result = await child.done;
    expect(result.code, result.stderr).toBe(0);
    const loaded = JSON.parse(result.stdout.split('\n')[1] ?? '') as Awaited<
      ReturnType<typeof loadConfig>
    >;
    expect(loaded.servers).toEqual([]);
    expect(loaded.problems).toEqual([
      {
        code: ConfigProblemCode.FILE_UNREADABLE,
        file,
        message: expect.stringContaining('cannot be read (EACCES)'),
      },
    ]);
  });
});
