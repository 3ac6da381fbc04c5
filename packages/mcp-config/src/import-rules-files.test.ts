// Which files an import reads, for which scope, and what it says about files it cannot use.

import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { cpuMsOf } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { importMachines } from '../test/import-machine.js';
import { importable, refused } from '../test/import-results.js';
import { put } from '../test/temp-dir.js';
import { importSourceFiles } from './import-paths.js';
import { claudeProjectKey, readImportSources } from './import-sources.js';
import type { ImportClient } from './import-types.js';
import { MAX_IMPORT_FILE_BYTES } from './read-source-file.js';

const { machine, importOne } = importMachines();
const run = promisify(execFile);

describe('files', () => {
  it('a missing file is "missing"; a broken one is reported with line and column and the others still load', async () => {
    const s = await machine();
    await put(
      s.file('cursor', 'user'),
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n',
    );
    await put(s.file('vscode', 'user'), JSON.stringify({ servers: { good: { command: 'good' } } }));
    await put(s.file('codex', 'user'), '[mcp_servers.x]\ncommand = \n');
    const result = await s.read();
    const status = Object.fromEntries(
      result.files.map((f) => [`${f.client}:${f.scope}`, f.status]),
    );
    expect(status).toEqual({
      'claude:user': 'missing',
      'claude-desktop:user': 'missing',
      'cursor:user': 'unusable',
      'vscode:user': 'found',
      'gemini:user': 'missing',
      'codex:user': 'unusable',
      'claude:project': 'missing',
      'cursor:project': 'missing',
      'vscode:project': 'missing',
      'gemini:project': 'missing',
    });
    const cursor = result.files.find((f) => f.client === 'cursor');
    expect(cursor?.problems[0]).toMatchObject({ code: 'INVALID_SYNTAX', line: 4, column: 5 });
    expect(cursor?.problems[0]?.message).toContain('a "," was expected');
    const codex = result.files.find((f) => f.client === 'codex');
    expect(codex?.problems[0]).toMatchObject({ code: 'INVALID_SYNTAX', line: 2 });
    expect(codex?.problems[0]?.message).not.toContain('\n');
    expect(result.servers.map((x) => x.sourceName)).toEqual(['good']);
  });

  it('reports unreadable, too large, non-UTF-8, empty, odd-shaped and deep files', async () => {
    const s = await machine();
    await mkdir(s.file('cursor', 'user'), { recursive: true }); // a folder at the path
    await put(s.file('vscode', 'user'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    await put(s.file('gemini', 'user'), '   ');
    await put(s.file('claude-desktop', 'user'), '[1, 2]');
    await put(s.file('cursor', 'project'), '['.repeat(100) + ']'.repeat(100));
    await put(s.file('claude', 'project'), JSON.stringify({ mcpServers: ['a'] }));
    await put(s.file('vscode', 'project'), '{"servers": {"a": {"command": "x"}}, "servers": {}}');
    await put(s.file('claude', 'user'), Buffer.alloc(MAX_IMPORT_FILE_BYTES + 1, 0x20));
    await run(
      'mkfifo',
      [s.file('gemini', 'project')].map((f) => f),
    ).catch(async () => {
      await mkdir(path.dirname(s.file('gemini', 'project')), { recursive: true });
      await run('mkfifo', [s.file('gemini', 'project')]);
    });
    const result = await s.read();
    const firstProblems = Object.fromEntries(
      result.files.map((f) => [`${f.client}:${f.scope}`, f.problems[0]?.code]),
    );
    expect(firstProblems).toEqual({
      'claude:user': 'FILE_TOO_LARGE',
      'claude-desktop:user': 'NOT_AN_OBJECT',
      'cursor:user': 'FILE_UNREADABLE',
      'vscode:user': 'FILE_NOT_TEXT',
      'gemini:user': 'INVALID_SYNTAX',
      'codex:user': undefined,
      'claude:project': 'NOT_AN_OBJECT',
      'cursor:project': 'TOO_DEEP',
      'vscode:project': 'DUPLICATE_KEY',
      'gemini:project': 'FILE_UNREADABLE',
    });
    expect(result.servers).toEqual([]);
  });

  it('a server or a field written twice is not imported; other servers are', async () => {
    const s = await machine();
    await put(
      s.file('cursor', 'project'),
      '{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y", "command": "z"}, "a": {"command": "w"}, "c": {"command": "c"}}}',
    );
    const result = await s.read({ clients: ['cursor'] });
    expect(refused(result, 'a').problems[0]?.code).toBe('DUPLICATE_KEY');
    expect(refused(result, 'b').problems[0]).toMatchObject({
      code: 'DUPLICATE_KEY',
      field: 'mcpServers.b.command',
    });
    expect(importable(result, 'c').entry).toEqual({ command: 'c' });
  });

  it('keeps __proto__ keys harmless and cleans names from the file', async () => {
    const result = await importOne('cursor', {
      ['__proto__']: { command: 'x' },
      'evil\u001b[31m\u202ename': { command: 'y' },
    });
    expect(({} as Record<string, unknown>).command).toBeUndefined();
    const proto = importable(result, '__proto__');
    expect(proto.name).toBe('proto');
    const evil = result.servers[1];
    // The escape sequence and the bidi control are removed whole, in both names.
    expect(evil?.sourceName).toBe('evilname');
    expect(evil?.importable && evil.name).toBe('evilname');
  });
});

describe('scope', () => {
  it("a repository's files are project servers, the user's own files user servers; scopes and clients narrow the list", async () => {
    const s = await machine();
    for (const client of ['claude', 'cursor', 'vscode', 'gemini'] as const) {
      const key = client === 'vscode' ? 'servers' : 'mcpServers';
      await put(
        s.file(client, 'project'),
        JSON.stringify({ [key]: { [`${client}-p`]: { command: 'p' } } }),
      );
      await put(
        s.file(client, 'user'),
        JSON.stringify({ [key]: { [`${client}-u`]: { command: 'u' } } }),
      );
    }
    const all = await s.read();
    for (const server of all.servers) {
      expect(server.scope).toBe(server.sourceName.endsWith('-p') ? 'project' : 'user');
    }
    // User files first.
    expect(all.servers.map((x) => x.sourceName)).toEqual([
      'claude-u',
      'cursor-u',
      'vscode-u',
      'gemini-u',
      'claude-p',
      'cursor-p',
      'vscode-p',
      'gemini-p',
    ]);
    const userOnly = await s.read({ scopes: ['user'], clients: ['cursor', 'gemini'] });
    expect(userOnly.servers.map((x) => x.sourceName)).toEqual(['cursor-u', 'gemini-u']);
    expect(userOnly.files.map((f) => f.client)).toEqual(['cursor', 'gemini']);
  });

  it("a project whose root is the home folder reads the shared files once, as the user's", async () => {
    const s = await machine();
    await put(
      path.join(s.userHome, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'a' } } }),
    );
    const result = await s.read({ root: s.userHome, clients: ['cursor'] });
    expect(result.files).toMatchObject([{ scope: 'user', status: 'found' }]);
    expect(result.servers.map((x) => x.scope)).toEqual(['user']);
  });
});

describe('importSourceFiles', () => {
  it("lists each client's files for Linux, macOS and Windows", () => {
    const linux = importSourceFiles({
      userHome: '/home/me',
      root: '/work/repo',
      platform: 'linux',
    });
    expect(linux.map((f) => `${f.client} ${f.scope} ${f.file}`)).toEqual([
      'claude user /home/me/.claude.json',
      'claude-desktop user /home/me/.config/Claude/claude_desktop_config.json',
      'cursor user /home/me/.cursor/mcp.json',
      'vscode user /home/me/.config/Code/User/mcp.json',
      'gemini user /home/me/.gemini/settings.json',
      'codex user /home/me/.codex/config.toml',
      'claude project /work/repo/.mcp.json',
      'cursor project /work/repo/.cursor/mcp.json',
      'vscode project /work/repo/.vscode/mcp.json',
      'gemini project /work/repo/.gemini/settings.json',
    ]);
    const xdg = importSourceFiles({
      userHome: '/home/me',
      root: '/r',
      platform: 'freebsd',
      configHome: '/cfg',
      clients: ['vscode'],
      scopes: ['user'],
    });
    expect(xdg.map((f) => f.file)).toEqual(['/cfg/Code/User/mcp.json']);
    const mac = importSourceFiles({
      userHome: '/Users/me',
      root: '/r',
      platform: 'darwin',
      clients: ['claude-desktop', 'vscode'],
      scopes: ['user'],
    });
    expect(mac.map((f) => f.file)).toEqual([
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
      '/Users/me/Library/Application Support/Code/User/mcp.json',
    ]);
    const win = importSourceFiles({
      userHome: 'C:\\Users\\me',
      root: 'D:\\src\\repo',
      platform: 'win32',
      appData: 'C:\\Users\\me\\AppData\\Roaming',
      clients: ['claude-desktop', 'vscode', 'codex'],
    });
    expect(win.map((f) => f.file)).toEqual([
      'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json',
      'C:\\Users\\me\\.codex\\config.toml',
      'D:\\src\\repo\\.vscode\\mcp.json',
    ]);
    const winDefault = importSourceFiles({
      userHome: 'C:\\Users\\me',
      root: 'D:\\r',
      platform: 'win32',
      clients: ['claude-desktop'],
    });
    expect(winDefault[0]?.file).toBe(
      'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
  });

  it('refuses wrong options with INVALID_ARGUMENT (a programming error)', async () => {
    const base = { userHome: '/home/me', root: '/r', platform: 'linux' };
    expect(() => importSourceFiles({ ...base, userHome: 'relative' })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles({ ...base, platform: '' })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles({ ...base, clients: ['emacs' as ImportClient] })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles({ ...base, scopes: ['global' as 'user'] })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles(null as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    await expect(readImportSources({ ...base, existingNames: 5 as never })).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
  });
});

describe("Claude Code's projects", () => {
  it('finds this project in ~/.claude.json whatever the slashes (and, on Windows, the case)', () => {
    const projects = { '/work/repo': {}, 'C:/Users/Me/Repo': {}, '/srv/app/': {} };
    expect(claudeProjectKey(projects, '/work/repo', 'linux')).toBe('/work/repo');
    expect(claudeProjectKey(projects, '/srv/app', 'linux')).toBe('/srv/app/');
    expect(claudeProjectKey(projects, '/WORK/repo', 'linux')).toBeUndefined();
    expect(claudeProjectKey(projects, 'c:\\users\\me\\repo', 'win32')).toBe('C:/Users/Me/Repo');
    expect(claudeProjectKey([], '/work/repo', 'linux')).toBeUndefined();
  });

  // A guard against quadratic time, not a speed test (the bound only catches a hang).
  it(
    'ReDoS: keys of ~/.claude.json made of 50 000 separators are compared in linear time',
    { timeout: 300_000 },
    () => {
      const projects: Record<string, unknown> = {};
      for (let i = 0; i < 20; i += 1) projects[`${'/\\'.repeat(25_000)}${i}`] = {};
      projects['/work/repo//'] = {};
      const found: unknown[] = [];
      const cpuMs = cpuMsOf(() => {
        found.push(claudeProjectKey(projects, '/work/repo', 'linux'));
        found.push(claudeProjectKey(projects, '/', 'linux'));
      });
      expect(found).toEqual(['/work/repo//', undefined]);
      expect(cpuMs).toBeLessThan(20_000);
    },
  );
});
