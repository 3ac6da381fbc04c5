import { NodeChildren, runTogether, type NodeChild } from '@garuda/test-utils';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { addServer } from './add-server.js';
import { ConfigProblemCode } from './config-problem.js';
import { loadConfig } from './load-config.js';
import type { ServerConfig } from './server-types.js';

// These tests run the built package (see test/global-setup.ts) in separate Node processes.
const distEntry = inject('distEntry');
const dirs = tempDirs();

const children = new NodeChildren();
afterEach(() => children.killAll());

function runChild(script: string, args: readonly string[]): NodeChild {
  return children.start([script, distEntry, ...args]);
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
const [entry, file, user] = process.argv.slice(2);
const { loadConfig } = await import(pathToFileURL(entry).href);
// Drops to another user after loading the build, which may sit in a folder that user cannot enter.
if (user) { process.setgroups([]); process.setgid(Number(user)); process.setuid(Number(user)); }
process.stdout.write('ready\\n');
const result = await loadConfig({ userFile: file, env: {} });
process.stdout.write(JSON.stringify(result) + '\\n');
`;

/** A user file in a new folder holding one server, "seed", and the child scripts beside it. */
async function seeded(): Promise<{ file: string; adder: string; toggler: string }> {
  const dir = await dirs.create();
  const adder = path.join(dir, 'adder.mjs');
  const toggler = path.join(dir, 'toggler.mjs');
  await writeFile(adder, ADDER);
  await writeFile(toggler, TOGGLER);
  const file = path.join(dir, 'home', 'mcp.json');
  await addServer({ file, name: 'seed', def: { command: 'seed' }, source: 'user' });
  return { file, adder, toggler };
}

/** Lets the children race (see runTogether); each must end cleanly, having done its work. */
async function runCleanly(started: readonly NodeChild[]): Promise<void> {
  for (const r of await runTogether(started)) {
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: 'ready\ndone\n' });
  }
}

/** The servers of the user file, which must load without problems. */
async function loadWithoutProblems(file: string): Promise<readonly ServerConfig[]> {
  const { servers, problems } = await loadConfig({ userFile: file, env: {} });
  expect(problems).toEqual([]);
  return servers;
}

describe('addServer across processes', () => {
  it('keeps the servers of two processes adding to one file at once', async () => {
    const { file, adder } = await seeded();
    const count = 20;
    await runCleanly([
      runChild(adder, [file, 'a', String(count)]),
      runChild(adder, [file, 'b', String(count)]),
    ]);

    const names = (await loadWithoutProblems(file)).map((s) => s.name);
    expect(names).toHaveLength(2 * count + 1);
    for (let i = 0; i < count; i++)
      expect(names).toEqual(expect.arrayContaining([`a${i}`, `b${i}`]));
    expect(names[0]).toBe('seed');
  });
});

describe('setServerEnabled across processes', () => {
  it('loses no server another process adds while it toggles one', async () => {
    const { file, adder, toggler } = await seeded();
    const count = 20;
    // An odd number of toggles ends disabled.
    await runCleanly([
      runChild(adder, [file, 'a', String(count)]),
      runChild(toggler, [file, 'seed', String(count + 1)]),
    ]);

    const servers = await loadWithoutProblems(file);
    expect(servers.map((s) => s.name).sort()).toEqual(
      ['seed', ...Array.from({ length: count }, (_, i) => `a${i}`)].sort(),
    );
    expect(servers.find((s) => s.name === 'seed')?.def.enabled).toBe(false);
  });
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
    const child = runChild(script, root ? [file, '65534'] : [file]);
    const { code } = await child.exit;
    expect(code, child.stderr()).toBe(0);
    const loaded = JSON.parse(child.stdout().split('\n')[1] ?? '') as Awaited<
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
