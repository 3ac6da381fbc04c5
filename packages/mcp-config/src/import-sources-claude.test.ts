// readImportSources on Claude Code's and Claude Desktop's files, as their documentation writes them.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMachines } from '../test/import-machine.js';
import { checkInvariants, codes, importable } from '../test/import-results.js';

const { machine } = importMachines();

describe('readImportSources: each client, as its documentation writes the file', () => {
  it('Claude Desktop: claude_desktop_config.json on Linux, macOS and Windows', async () => {
    const file = {
      mcpServers: {
        filesystem: {
          command: 'npx',
          args: [
            '-y',
            '@modelcontextprotocol/server-filesystem',
            '/Users/me/Desktop',
            '/Users/me/Downloads',
          ],
        },
        'brave-search': {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-brave-search'],
          env: { BRAVE_API_KEY: 'BSAbcdefGhijk1234567890LMNOPqrstu' },
        },
      },
      globalShortcut: '',
    };
    for (const [platform, where] of [
      ['linux', '~/.config/Claude/claude_desktop_config.json'],
      ['darwin', '~/Library/Application Support/Claude/claude_desktop_config.json'],
    ] as const) {
      const m = await machine();
      const written = await m.write(where, JSON.stringify(file, null, 2));
      const result = await m.read({ clients: ['claude-desktop'], platform });
      checkInvariants(result);
      expect(result.files).toMatchObject([
        { client: 'claude-desktop', scope: 'user', file: written, status: 'found' },
      ]);
      expect(importable(result, 'filesystem').entry).toEqual(file.mcpServers.filesystem);
      const brave = importable(result, 'brave-search');
      expect(brave.entry).toEqual({
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-brave-search'],
        env: { BRAVE_API_KEY: '${BRAVE_API_KEY}' },
      });
      expect(brave.warnings).toMatchObject([
        { code: 'SECRET_REPLACED', variable: 'BRAVE_API_KEY' },
      ]);
      expect(JSON.stringify(result)).not.toContain('BSAbcdef');
    }
    // Windows: under %APPDATA% (given by the caller; the file is not there, so: missing).
    const m = await machine();
    const appData = path.join(m.userHome, 'AppData', 'Roaming');
    const written = await m.write(
      '~/AppData/Roaming/Claude/claude_desktop_config.json',
      JSON.stringify(file),
    );
    const result = await m.read({ clients: ['claude-desktop'], platform: 'win32', appData });
    // On this (POSIX) machine the Windows path is a different string; what matters is the place.
    expect(path.win32.normalize(result.files[0]?.file ?? '')).toBe(
      path.win32.join(appData, 'Claude', 'claude_desktop_config.json'),
    );
    expect(written).toContain('claude_desktop_config.json');
  });

  it('Claude Code: .mcp.json (project) and ~/.claude.json (user, and this project\'s "local" servers)', async () => {
    const m = await machine();
    await m.write(
      './.mcp.json',
      JSON.stringify(
        {
          mcpServers: {
            github: {
              type: 'stdio',
              command: 'npx',
              args: ['-y', '@modelcontextprotocol/server-github'],
              env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
            },
            'api-server': {
              type: 'http',
              url: 'https://api.example.com/mcp',
              headers: { Authorization: 'Bearer ${API_KEY}' },
            },
            logs: { command: 'logs-mcp', env: { LEVEL: '${LOG_LEVEL:-info}' } },
          },
        },
        null,
        2,
      ),
    );
    await m.write(
      '~/.claude.json',
      JSON.stringify(
        {
          numStartups: 12,
          installMethod: 'npm',
          autoUpdates: true,
          mcpServers: {
            sentry: { type: 'http', url: 'https://mcp.sentry.dev/mcp' },
            'Filesystem Tools': {
              type: 'stdio',
              command: 'npx',
              args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/docs'],
              env: {},
            },
          },
          projects: {
            [m.root]: {
              allowedTools: [],
              history: [{ display: 'hi', pastedContents: {} }],
              mcpServers: {
                db: {
                  type: 'stdio',
                  command: 'db-mcp',
                  args: [],
                  env: { DATABASE_URL: 'postgres://app:s3cr3tP4ss@localhost/app' },
                },
              },
              enabledMcpjsonServers: [],
              disabledMcpjsonServers: [],
              hasTrustDialogAccepted: true,
            },
            '/other/project': { mcpServers: { other: { command: 'other' } } },
          },
        },
        null,
        2,
      ),
    );
    const result = await m.read({ clients: ['claude'] });
    checkInvariants(result);
    expect(result.files.map((f) => [f.scope, path.basename(f.file), f.status])).toEqual([
      ['user', '.claude.json', 'found'],
      ['project', '.mcp.json', 'found'],
    ]);
    expect(result.servers.map((s) => [s.scope, s.sourceName])).toEqual([
      ['user', 'sentry'],
      ['user', 'Filesystem Tools'],
      ['user', 'db'],
      ['project', 'github'],
      ['project', 'api-server'],
      ['project', 'logs'],
    ]);
    expect(importable(result, 'sentry').entry).toEqual({ url: 'https://mcp.sentry.dev/mcp' });

    const fs = importable(result, 'Filesystem Tools');
    expect(fs.name).toBe('filesystem-tools');
    expect(fs.entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/docs'],
      env: {},
    });
    expect(fs.warnings[0]).toMatchObject({
      code: 'RENAMED',
      from: 'Filesystem Tools',
      to: 'filesystem-tools',
    });

    const db = importable(result, 'db');
    expect(db.path).toEqual(['projects', m.root, 'mcpServers', 'db']);
    expect(db.entry).toEqual({
      command: 'db-mcp',
      args: [],
      env: { DATABASE_URL: '${DATABASE_URL}' },
    });
    expect(codes(db)).toEqual(['PROJECT_LOCAL', 'SECRET_REPLACED']);
    expect(result.servers.some((s) => s.sourceName === 'other')).toBe(false);

    expect(importable(result, 'github').entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
    });
    expect(importable(result, 'github').warnings).toEqual([]);
    expect(importable(result, 'api-server').entry).toEqual({
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer ${API_KEY}' },
    });
    const logs = importable(result, 'logs');
    expect(logs.entry).toEqual({ command: 'logs-mcp', env: { LEVEL: '${LOG_LEVEL}' } });
    expect(logs.warnings).toMatchObject([
      { code: 'DEFAULT_DROPPED', field: 'env.LEVEL', variable: 'LOG_LEVEL' },
    ]);
    expect(logs.warnings[0]?.message).not.toContain('info');
    expect(importable(result, 'github').line).toBe(3);
    expect(importable(result, 'github').column).toBe(5);
    expect(JSON.stringify(result)).not.toContain('s3cr3tP4ss');
  });
});
