// How an import names servers, which transports it takes, and which entries it refuses.

import { describe, expect, it } from 'vitest';
import { importMachines } from '../test/import-machine.js';
import { expectFirstProblems, importable, refused } from '../test/import-results.js';
import { put } from '../test/temp-dir.js';
import { freeName, garudaName } from './import-name.js';

const { machine, importOne } = importMachines();

describe('names', () => {
  it('become lower-case a-z0-9_-, at most 32 characters', () => {
    expect(garudaName('GitHub')).toBe('github');
    expect(garudaName('My Server (prod)')).toBe('my-server-prod');
    expect(garudaName('Café déjà vu')).toBe('cafe-deja-vu');
    expect(garudaName('__hidden__')).toBe('hidden');
    expect(garudaName('a.b/c')).toBe('a-b-c');
    expect(garudaName('x'.repeat(40))).toBe('x'.repeat(32));
    expect(garudaName('服务器')).toBe('server');
    expect(garudaName('')).toBe('server');
    expect(garudaName(`${'a'.repeat(31)}-b`)).toBe('a'.repeat(31));
    expect(freeName('github', new Set(['github']))).toBe('github-2');
    expect(freeName('github', new Set(['github', 'github-2']))).toBe('github-3');
    expect(freeName('x'.repeat(32), new Set(['x'.repeat(32)]))).toBe(`${'x'.repeat(30)}-2`);
  });

  it('never keep a "__" that would make a server\'s tools read as another server\'s (tool name spoofing)', async () => {
    expect(garudaName('mcp__other__search')).toBe('mcp_other_search');
    expect(garudaName('other__search')).toBe('other_search');
    expect(garudaName('a-_b--c')).toBe('a-b-c');
    const result = await importOne('claude', {
      mcp__other__search: { command: 'x' },
      Upper_Case: { command: 'y' },
      ['long-'.repeat(10)]: { command: 'z' },
      plain: { command: 'w' },
    });
    const spoof = importable(result, 'mcp__other__search');
    expect(spoof.name).toBe('mcp_other_search');
    expect(spoof.warnings[0]).toMatchObject({ code: 'RENAMED', to: 'mcp_other_search' });
    expect(spoof.warnings[0]?.message).toContain("read like another server's");
    expect(importable(result, 'Upper_Case').name).toBe('upper_case');
    expect(importable(result, 'long-'.repeat(10)).name).toBe('long-long-long-long-long-long-lo');
    expect(importable(result, 'plain').warnings).toEqual([]);
  });

  it('get a suffix on a clash with another imported server or an existing Garuda name, with a warning', async () => {
    const s = await machine();
    await put(
      s.file('cursor', 'user'),
      JSON.stringify({ mcpServers: { github: { command: 'gh-a' }, docs: { command: 'd' } } }),
    );
    await put(
      s.file('vscode', 'user'),
      JSON.stringify({ servers: { GitHub: { command: 'gh-b' } } }),
    );
    const result = await s.read({ existingNames: ['docs'] });
    const names = result.servers.map((x) => (x.importable ? x.name : undefined));
    expect(names).toEqual(['github', 'docs-2', 'github-2']);
    const docs = importable(result, 'docs');
    expect(docs.warnings[0]).toMatchObject({ code: 'RENAMED', from: 'docs', to: 'docs-2' });
    expect(docs.warnings[0]?.message).toContain('in your Garuda configuration');
    const second = importable(result, 'GitHub');
    expect(second.warnings[0]).toMatchObject({ code: 'RENAMED', from: 'GitHub', to: 'github-2' });
    expect(second.warnings[0]?.message).toContain('imported before it');
    expect(importable(result, 'github').warnings).toEqual([]);
  });

  it('the same server in two clients of one scope is listed once; a refused server takes no name', async () => {
    const s = await machine();
    const same = { command: 'npx', args: ['-y', 'pkg@1.0.0'] };
    await put(
      s.file('claude', 'user'),
      JSON.stringify({
        mcpServers: { pkg: same, bad: { type: 'sse', url: 'https://x.example/sse' } },
      }),
    );
    await put(
      s.file('cursor', 'user'),
      JSON.stringify({ mcpServers: { pkg: same, bad: { command: 'good' } } }),
    );
    await put(s.file('cursor', 'project'), JSON.stringify({ mcpServers: { pkg: same } }));
    const result = await s.read();
    expect(
      result.servers.map((x) => [x.client, x.scope, x.importable ? x.name : x.problems[0]?.code]),
    ).toEqual([
      ['claude', 'user', 'pkg'],
      ['claude', 'user', 'LEGACY_SSE'],
      ['cursor', 'user', 'SAME_AS_EARLIER'],
      ['cursor', 'user', 'bad'],
      // The project's copy belongs in the project file: listed, with a name of its own.
      ['cursor', 'project', 'pkg-2'],
    ]);
  });
});

describe('transports', () => {
  it('refuses the legacy SSE transport in every spelling, with what to do', async () => {
    const claude = await importOne('claude', {
      typed: { type: 'sse', url: 'https://a.example/sse' },
      untyped: { url: 'https://a.example/v1/sse' },
      slash: { url: 'https://a.example/sse/' },
      explicitHttp: { type: 'http', url: 'https://a.example/sse' },
      upper: { type: 'SSE', url: 'https://a.example/events' },
    });
    for (const name of ['typed', 'untyped', 'slash', 'upper']) {
      const problem = refused(claude, name).problems[0];
      expect(problem?.code).toBe('LEGACY_SSE');
      expect(problem?.message).toContain('garuda-mcp add');
    }
    // An explicit "type": "http" is believed.
    expect(importable(claude, 'explicitHttp').entry).toEqual({ url: 'https://a.example/sse' });

    const gemini = await importOne('gemini', {
      sse: { url: 'https://a.example/mcp' },
      typedHttp: { url: 'https://a.example/mcp', type: 'http' },
      both: { httpUrl: 'https://a.example/mcp', url: 'https://a.example/sse' },
      ws: { tcp: 'ws://localhost:9000' },
    });
    expect(refused(gemini, 'sse').problems[0]?.code).toBe('LEGACY_SSE');
    expect(importable(gemini, 'typedHttp').entry).toEqual({ url: 'https://a.example/mcp' });
    const both = importable(gemini, 'both');
    expect(both.entry).toEqual({ url: 'https://a.example/mcp' });
    expect(both.warnings[0]).toMatchObject({ code: 'NOT_CARRIED_OVER', keys: ['url'] });
    expect(refused(gemini, 'ws').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');

    const ownFields = await importOne('claude', {
      fs: { command: 'fs', writePaths: ['/data'], network: true, weird: 1 },
    });
    expect(importable(ownFields, 'fs').entry).toEqual({ command: 'fs' });
    expect(importable(ownFields, 'fs').warnings).toMatchObject([
      {
        code: 'NOT_CARRIED_OVER',
        keys: ['writePaths', 'network'],
        message:
          '"writePaths", "network" are not part of Claude Code\'s format, so they were left out: set them in Garuda\'s file (garuda-mcp add --write, --read, --network, --timeout)',
      },
      { code: 'NOT_CARRIED_OVER', keys: ['weird'] },
    ]);

    const other = await importOne('claude', {
      ws: { type: 'ws', url: 'wss://a.example' },
      ide: { type: 'sse-ide', url: 'http://127.0.0.1:1234/sse' },
      weird: { type: 3, command: 'x' },
      httpNoUrl: { type: 'http', command: 'x' },
      stdioNoCommand: { type: 'stdio', url: 'https://a.example/mcp' },
    });
    expect(refused(other, 'ws').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');
    expect(refused(other, 'ide').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');
    expect(refused(other, 'weird').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');
    expect(refused(other, 'httpNoUrl').problems[0]).toMatchObject({
      code: 'INVALID_ENTRY',
      field: 'url',
    });
    expect(refused(other, 'stdioNoCommand').problems[0]).toMatchObject({
      code: 'INVALID_ENTRY',
      field: 'command',
    });
  });

  it('takes Codex URLs as Streamable HTTP, whatever their path', async () => {
    const s = await machine();
    await put(s.file('codex', 'user'), '[mcp_servers.events]\nurl = "https://a.example/sse"\n');
    const result = await s.read({ clients: ['codex'] });
    expect(importable(result, 'events').entry).toEqual({ url: 'https://a.example/sse' });
  });
});

describe('validation', () => {
  it('an entry this package refuses is reported with the validation message, not returned', async () => {
    const result = await importOne('claude', {
      badEnv: { command: 'x', env: { 'MY-VAR': 'v' } },
      local: { type: 'http', url: 'http://localhost:3000/mcp' },
      private: { type: 'http', url: 'https://10.0.0.5/mcp' },
      reserved: { type: 'http', url: 'https://a.example/mcp', headers: { Host: 'evil.example' } },
      argsNumber: { command: 'x', args: [1] },
      proto: { command: 'x', env: JSON.parse('{"__proto__": "x"}') as Record<string, string> },
    });
    expectFirstProblems(result, {
      badEnv: { code: 'INVALID_ENTRY', configProblemCode: 'INVALID_VALUE' },
      // A project's server on localhost: not in the project file.
      local: { code: 'INVALID_ENTRY', configProblemCode: 'URL_SCHEME' },
      private: { configProblemCode: 'URL_NOT_PUBLIC' },
      reserved: { field: 'headers.Host' },
      argsNumber: { field: 'args[0]' },
      proto: { code: 'INVALID_ENTRY' },
    });
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    // The user's own localhost server is fine.
    const user = await importOne(
      'claude',
      { local: { type: 'http', url: 'http://localhost:3000/mcp' } },
      { scope: 'user' },
    );
    expect(importable(user, 'local').entry).toEqual({ url: 'http://localhost:3000/mcp' });
  });
});
