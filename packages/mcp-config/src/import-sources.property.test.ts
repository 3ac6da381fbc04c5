import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { stringify as toToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { importSourceFiles } from './import-paths.js';
import { readImportSources } from './import-sources.js';
import type { ImportSourcesResult } from './import-types.js';
import { validateServer } from './validate-server.js';

const dirs = tempDirs();

// A secret: a known prefix and a random core, which must never appear in what comes back.
const secret = fc
  .tuple(
    fc.constantFrom('ghp_', 'github_pat_', 'sk-', 'xoxb-', 'glpat-', 'hf_', ''),
    fc.stringMatching(/^[A-Za-z]{6}[0-9]{4}[A-Za-z0-9]{14}$/),
  )
  .map(([prefix, core]) => ({ prefix, core }));

const text = fc.oneof(
  fc.constantFrom(
    'x',
    '',
    'npx',
    '${A}',
    '${env:B}',
    '${C:-dflt}',
    '$D',
    '${input:tok}',
    '${workspaceFolder}/x',
    '${userHome}',
    '${HOME}/bin',
    '${command:pick}',
    '${',
    '$(id)',
    '`id`',
    '!x',
    'true',
    '/usr/bin/x',
  ),
  fc.string({ maxLength: 12 }),
);
const valueWith = (s: { prefix: string; core: string }): fc.Arbitrary<unknown> =>
  fc.oneof(
    text,
    fc.constant(`${s.prefix}${s.core}`),
    fc.constant(`Bearer ${s.prefix}${s.core}`),
    fc.constant(`--token=${s.prefix}${s.core}`),
    fc.integer(),
    fc.boolean(),
  );
const url = (s: { prefix: string; core: string }): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(
      'https://a.example/mcp',
      'https://a.example/sse',
      'http://localhost:3000/mcp',
      'https://10.0.0.1/mcp',
      '${BASE}/mcp',
      'not a url',
      'https://a.example/mcp#x',
    ),
    fc.constant(`https://a.example/mcp?api_key=${s.prefix}${s.core}`),
    fc.constant(`https://user:${s.core}@a.example/mcp`),
    fc.constant(`https://a.example/${s.prefix}${s.core}/mcp`),
    fc.string({ maxLength: 20 }),
  );
const names = fc.constantFrom(
  'API_KEY',
  'GITHUB_TOKEN',
  'PATH',
  'LEVEL',
  'Authorization',
  'X-Api-Key',
  'Accept',
  'MY-VAR',
  '__proto__',
  'Host',
);

function server(s: { prefix: string; core: string }): fc.Arbitrary<Record<string, unknown>> {
  const v = valueWith(s);
  return fc.record(
    {
      type: fc.constantFrom('stdio', 'http', 'sse', 'streamable-http', 'ws', 'SSE', 3),
      command: fc.oneof(text, fc.constant(s.core)),
      args: fc.array(fc.oneof(v, fc.constantFrom('--api-key', '-e', '--port')), { maxLength: 4 }),
      env: fc.dictionary(names, v, { maxKeys: 4 }),
      env_vars: fc.array(names, { maxLength: 2 }),
      cwd: fc.oneof(text, fc.constant(s.core)),
      url: url(s),
      httpUrl: url(s),
      headers: fc.dictionary(names, v, { maxKeys: 3 }),
      http_headers: fc.dictionary(names, v, { maxKeys: 2 }),
      env_http_headers: fc.dictionary(names, fc.oneof(names, text), { maxKeys: 2 }),
      bearer_token: v,
      bearer_token_env_var: names,
      timeout: fc.oneof(fc.integer(), fc.double()),
      tool_timeout_sec: fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.double()),
      startup_timeout_sec: fc.integer(),
      enabled: fc.oneof(fc.boolean(), text),
      disabled: fc.oneof(fc.boolean(), text),
      trust: fc.boolean(),
      autoApprove: fc.array(text, { maxLength: 2 }),
      includeTools: fc.array(text, { maxLength: 2 }),
      oauth: fc.record(
        {
          clientId: text,
          clientSecret: fc.constant(s.core),
          scopes: fc.array(text, { maxLength: 2 }),
        },
        { requiredKeys: [] },
      ),
      envFile: text,
      headersHelper: text,
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  );
}

/** Servers most clients would take, so that many are importable and carry secrets through. */
function plausible(s: { prefix: string; core: string }): fc.Arbitrary<Record<string, unknown>> {
  const v = valueWith(s);
  return fc.oneof(
    fc.record(
      {
        command: fc.constantFrom('npx', 'node', 'uvx'),
        args: fc.array(fc.oneof(fc.constantFrom('-y', 'pkg@1.0.0', '--port', '8080'), v), {
          maxLength: 3,
        }),
        env: fc.dictionary(names, v, { maxKeys: 4 }),
        disabled: fc.boolean(),
      },
      { requiredKeys: ['command'] },
    ),
    fc.record(
      {
        url: fc.constantFrom('https://a.example/mcp', 'https://b.example/v1/mcp'),
        httpUrl: fc.constantFrom('https://a.example/mcp'),
        headers: fc.dictionary(names, v, { maxKeys: 3 }),
        http_headers: fc.dictionary(names, v, { maxKeys: 2 }),
        bearer_token: v,
        timeout: fc.integer({ min: 0, max: 700_000 }),
      },
      { requiredKeys: ['url'] },
    ),
  );
}

const serverName = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('__proto__', 'constructor', 'GitHub', 'github', 'My Server', 'a'.repeat(40)),
);

const document = secret.chain((s) =>
  fc.tuple(
    fc.constant(s),
    fc.dictionary(
      serverName,
      fc.oneof(server(s), plausible(s), plausible(s), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 5 },
    ),
    fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
  ),
);

function check(result: ImportSourcesResult, core: string | undefined): void {
  const seen = new Set<string>();
  for (const server of result.servers) {
    const notes = [...server.warnings, ...(server.importable ? [] : server.problems)];
    for (const note of notes) {
      expect(typeof note.message).toBe('string');
      expect(note.message).not.toMatch(
        /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/,
      );
    }
    if (!server.importable) {
      expect(server.problems.length).toBeGreaterThan(0);
      continue;
    }
    expect(server.name).toMatch(/^[a-z0-9][a-z0-9_-]{0,31}$/);
    expect(seen.has(server.name)).toBe(false);
    seen.add(server.name);
    const { def, issues } = validateServer(server.name, server.entry, server.scope);
    expect(issues).toEqual([]);
    expect(def).toBeDefined();
    // Plain data only: what the CLI writes is what was checked.
    expect(JSON.parse(JSON.stringify(server.entry))).toEqual(server.entry);
  }
  if (core !== undefined) expect(JSON.stringify(result)).not.toContain(core);
}

const PROPERTY_TIMEOUT = { timeout: 240_000 };

describe(
  'readImportSources never throws, and returns only valid entries (property)',
  PROPERTY_TIMEOUT,
  () => {
    it('on configuration-shaped files of every client, with secrets in them', async () => {
      const dir = await dirs.create();
      const userHome = path.join(dir, 'home');
      const root = path.join(dir, 'repo');
      const targets = importSourceFiles({ userHome, root, platform: 'linux' });
      await fc.assert(
        fc.asyncProperty(document, fc.constantFrom(0, 2), async ([s, servers, other], space) => {
          await rm(dir, { recursive: true, force: true });
          for (const target of targets) {
            await mkdir(path.dirname(target.file), { recursive: true });
            let content: string;
            if (target.client === 'codex') {
              try {
                content = toToml({ mcp_servers: servers });
              } catch {
                content = '[mcp_servers.x]\ncommand = "x"\n';
              }
            } else {
              const key = target.client === 'vscode' ? 'servers' : 'mcpServers';
              const data: Record<string, unknown> = { [key]: servers, other };
              if (target.client === 'claude' && target.scope === 'user') {
                data.projects = { [root]: { mcpServers: servers } };
              }
              if (target.client === 'vscode') data.inputs = [{ id: 'tok', password: true }, other];
              content = JSON.stringify(data, null, space);
            }
            await writeFile(target.file, content);
          }
          const result = await readImportSources({
            userHome,
            root,
            platform: 'linux',
            existingNames: ['github'],
          });
          check(result, s.core);
        }),
        { numRuns: 150 },
      );
    });

    it('on random text and bytes', async () => {
      const dir = await dirs.create();
      const userHome = path.join(dir, 'home');
      const root = path.join(dir, 'repo');
      const targets = importSourceFiles({ userHome, root, platform: 'linux' });
      for (const target of targets) await mkdir(path.dirname(target.file), { recursive: true });
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: 'binary' }),
            fc.string({ unit: fc.constantFrom(...'{}[]":,=\\ \n\t/*#ae01-.$'.split('')) }),
            fc.uint8Array({ maxLength: 256 }),
            fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
          ),
          async (content) => {
            for (const target of targets) await writeFile(target.file, content);
            const result = await readImportSources({ userHome, root, platform: 'linux' });
            check(result, undefined);
            for (const file of result.files) expect(['found', 'unusable']).toContain(file.status);
          },
        ),
        { numRuns: 200 },
      );
    });
  },
);
