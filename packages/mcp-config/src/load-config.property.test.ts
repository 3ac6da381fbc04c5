import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { addServer } from './add-server.js';
import { commandLine } from './command-line.js';
import { defHash } from './def-hash.js';
import { ConfigError } from './errors.js';
import { loadConfig, type LoadConfigResult } from './load-config.js';
import { removeServer } from './remove-server.js';

const dirs = tempDirs();

const KEYS = [
  'command',
  'args',
  'env',
  'cwd',
  'network',
  'writePaths',
  'readPaths',
  'timeoutMs',
  'enabled',
  'url',
  'type',
  'headers',
  'oauth',
  'extra',
  '__proto__',
] as const;

const interesting = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'x',
    '',
    'https://mcp.example.com/mcp',
    'http://localhost:3/mcp',
    'https://10.0.0.1',
    '${A}',
    '${',
    '$(id)',
    '!x',
    60_000,
    1.5,
    true,
    ['a'],
    { A: '${B}' },
    { Authorization: 'Bearer ${T}' },
    { clientId: 'c', scopes: ['s'] },
    'http',
  ),
);

const serverEntry = fc.dictionary(fc.constantFrom(...KEYS), interesting, { maxKeys: 6 });
const serverName = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,31}$/),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', '10', 'A'),
);
const configObject = fc.record(
  {
    $schema: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
    servers: fc.oneof(
      fc.dictionary(serverName, fc.oneof(serverEntry, fc.jsonValue({ maxDepth: 2 })), {
        maxKeys: 6,
      }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    other: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const indent = fc.constantFrom<string | number>(0, 2, 4, '\t');

function checkResult(result: LoadConfigResult, files: readonly string[]): void {
  for (const problem of result.problems) {
    expect(files).toContain(problem.file);
    expect(typeof problem.message).toBe('string');
    expect(problem.message.length).toBeGreaterThan(0);
    expect(problem.message).not.toMatch(
      /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/,
    );
    if (problem.line !== undefined) expect(problem.line).toBeGreaterThanOrEqual(1);
    if (problem.column !== undefined) expect(problem.column).toBeGreaterThanOrEqual(1);
  }
  for (const server of result.servers) {
    expect(server.name).toMatch(/^[a-z0-9][a-z0-9_-]{0,31}$/);
    expect(defHash(server.def)).toMatch(/^[0-9a-f]{64}$/);
    expect(commandLine(server.def)).not.toMatch(/[\n\r]/);
  }
}

async function loadBoth(dir: string, content: string | Uint8Array): Promise<void> {
  const userFile = path.join(dir, 'user.json');
  const projectFile = path.join(dir, 'project.json');
  await writeFile(userFile, content);
  await writeFile(projectFile, content);
  const result = await loadConfig({ userFile, projectFile, env: { A: 'a', T: 't\r\n' } });
  checkResult(result, [userFile, projectFile]);
}

// Hundreds of runs, each writing and loading real files: seconds here, many times that on a busy
// machine. Nothing in them depends on time, so each test's limit is simply generous.
const PROPERTY_TIMEOUT = { timeout: 240_000 };

describe('loadConfig never throws for file content (property)', PROPERTY_TIMEOUT, () => {
  it('on random JSON values', async () => {
    const dir = await dirs.create();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), indent, async (value, space) => {
        await loadBoth(dir, JSON.stringify(value, null, space) ?? '');
      }),
      { numRuns: 200 },
    );
  });

  it('on random configuration-shaped objects', async () => {
    const dir = await dirs.create();
    await fc.assert(
      fc.asyncProperty(configObject, indent, async (value, space) => {
        await loadBoth(dir, JSON.stringify(value, null, space));
      }),
      { numRuns: 400 },
    );
  });

  it('on random strings', async () => {
    const dir = await dirs.create();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: fc.constantFrom(...'{}[]":,\\ \n\t/*ae01-.$'.split('')) }),
        ),
        async (text) => {
          await loadBoth(dir, text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on random bytes', async () => {
    const dir = await dirs.create();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (bytes) => {
        await loadBoth(dir, bytes);
      }),
      { numRuns: 200 },
    );
  });
});

describe('addServer and removeServer never damage a file (property)', PROPERTY_TIMEOUT, () => {
  it('either refuse with a ConfigError or leave a file with exactly the expected servers', async () => {
    const dir = await dirs.create();
    const file = path.join(dir, 'mcp.json');
    await fc.assert(
      fc.asyncProperty(
        configObject,
        indent,
        fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
        async (value, space, name) => {
          const text = JSON.stringify(value, null, space);
          await writeFile(file, text);
          const before = await loadConfig({ userFile: file, env: {} });
          const namesBefore =
            typeof value.servers === 'object' &&
            value.servers !== null &&
            !Array.isArray(value.servers)
              ? Object.keys(value.servers)
              : undefined;
          try {
            await addServer({ file, name, def: { command: 'x' }, source: 'user', replace: true });
          } catch (error) {
            expect(ConfigError.isInstance(error)).toBe(true);
            expect(await readFile(file, 'utf8')).toBe(text);
            return;
          }
          const after = JSON.parse(await readFile(file, 'utf8')) as {
            servers: Record<string, unknown>;
          };
          expect(after.servers[name]).toEqual({ command: 'x' });
          const expected = new Set([...(namesBefore ?? []), name]);
          expect(new Set(Object.keys(after.servers))).toEqual(expected);
          const loaded = await loadConfig({ userFile: file, env: {} });
          expect(loaded.servers.map((s) => s.name)).toContain(name);
          expect(loaded.servers.length).toBeGreaterThanOrEqual(
            before.servers.filter((s) => s.name !== name).length + 1,
          );

          await removeServer({ file, name });
          const removed = JSON.parse(await readFile(file, 'utf8')) as {
            servers: Record<string, unknown>;
          };
          expected.delete(name);
          expect(new Set(Object.keys(removed.servers))).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
