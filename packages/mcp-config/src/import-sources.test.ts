import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import {
  type ImportableServer,
  type ImportClient,
  type ImportServer,
  type ImportSourcesResult,
  type NotImportableServer,
} from './import-types.js';
import { readImportSources } from './import-sources.js';
import { validateServer } from './validate-server.js';

const dirs = tempDirs();

interface Machine {
  readonly userHome: string;
  readonly root: string;
  /** Writes a file under the home folder (`~/…`) or the project root (`./…`). */
  readonly write: (where: string, content: string | Buffer) => Promise<string>;
  readonly read: (
    options?: Partial<Parameters<typeof readImportSources>[0]>,
  ) => Promise<ImportSourcesResult>;
}

async function machine(): Promise<Machine> {
  const dir = await dirs.create();
  const userHome = path.join(dir, 'home');
  const root = path.join(dir, 'work', 'repo');
  await mkdir(userHome, { recursive: true });
  await mkdir(root, { recursive: true });
  return {
    userHome,
    root,
    write: async (where, content) => {
      const file = where.startsWith('~/')
        ? path.join(userHome, where.slice(2))
        : path.join(root, where.replace(/^\.\//, ''));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    read: (options = {}) => readImportSources({ userHome, root, platform: 'linux', ...options }),
  };
}

function byName(
  result: ImportSourcesResult,
  sourceName: string,
  client?: ImportClient,
): ImportServer {
  const found = result.servers.find(
    (s) => s.sourceName === sourceName && (client === undefined || s.client === client),
  );
  if (found === undefined) throw new Error(`no server ${sourceName} in the result`);
  return found;
}

function importable(
  result: ImportSourcesResult,
  sourceName: string,
  client?: ImportClient,
): ImportableServer {
  const server = byName(result, sourceName, client);
  if (!server.importable) {
    throw new Error(
      `${sourceName} is not importable: ${server.problems.map((p) => p.message).join(' | ')}`,
    );
  }
  return server;
}

function refused(
  result: ImportSourcesResult,
  sourceName: string,
  client?: ImportClient,
): NotImportableServer {
  const server = byName(result, sourceName, client);
  if (server.importable) throw new Error(`${sourceName} is importable`);
  return server;
}

const codes = (server: ImportServer): string[] => server.warnings.map((w) => w.code);

/** Every entry returned passes validation; every note is one clean line. */
function checkInvariants(result: ImportSourcesResult): void {
  const names = new Set<string>();
  for (const server of result.servers) {
    for (const note of [...server.warnings, ...(server.importable ? [] : server.problems)]) {
      expect(note.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e]/);
      expect(note.message.length).toBeGreaterThan(0);
    }
    if (!server.importable) {
      expect(server.problems.length).toBeGreaterThan(0);
      continue;
    }
    expect(names.has(server.name)).toBe(false);
    names.add(server.name);
    const { def, issues } = validateServer(server.name, server.entry, server.scope);
    expect(issues).toEqual([]);
    expect(def).toBeDefined();
  }
  for (const file of result.files) {
    for (const note of file.problems) expect(note.message).not.toMatch(/[\u0000-\u001f]/);
  }
}

describe('readImportSources: each client, as its documentation writes the file', () => {
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

  it('Cursor: ~/.cursor/mcp.json and .cursor/mcp.json', async () => {
    const m = await machine();
    await m.write(
      '~/.cursor/mcp.json',
      `{
  "mcpServers": {
    "linear": { "url": "https://mcp.linear.app/mcp" },
    "stripe": {
      "command": "npx",
      "args": ["-y", "@stripe/mcp", "--tools=all"],
      "env": { "STRIPE_SECRET_KEY": "sk_test_51Habcdefghijklmnopqrstuvwx" }
    },
    "custom": {
      "url": "https://api.example.com/mcp",
      "headers": { "Authorization": "Bearer \${env:MY_SERVICE_TOKEN}" }
    },
    "local-sse": { "url": "http://localhost:3000/sse" },
    "envfile": { "command": "python", "args": ["server.py"], "envFile": ".env" }
  }
}
`,
    );
    await m.write(
      './.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          'project-tool': { command: 'node', args: ['${workspaceFolder}/tools/mcp.js'] },
        },
      }),
    );
    const result = await m.read({ clients: ['cursor'] });
    checkInvariants(result);
    expect(importable(result, 'linear').entry).toEqual({ url: 'https://mcp.linear.app/mcp' });
    expect(importable(result, 'stripe').entry).toMatchObject({
      env: { STRIPE_SECRET_KEY: '${STRIPE_SECRET_KEY}' },
    });
    expect(importable(result, 'custom').entry).toEqual({
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer ${MY_SERVICE_TOKEN}' },
    });
    expect(refused(result, 'local-sse').problems).toMatchObject([{ code: 'LEGACY_SSE' }]);
    const envfile = importable(result, 'envfile');
    expect(envfile.warnings).toMatchObject([{ code: 'NOT_CARRIED_OVER', keys: ['envFile'] }]);
    expect(envfile.warnings[0]?.message).toContain('not read');
    const tool = importable(result, 'project-tool');
    expect(tool.scope).toBe('project');
    expect(tool.entry).toEqual({ command: 'node', args: [`${m.root}/tools/mcp.js`] });
    expect(tool.warnings).toMatchObject([{ code: 'PATH_SUBSTITUTED', field: 'args[0]' }]);
    expect(JSON.stringify(result)).not.toContain('sk_test_51H');
  });

  it('VS Code: .vscode/mcp.json with inputs, comments and trailing commas; the user folder', async () => {
    const m = await machine();
    await m.write(
      './.vscode/mcp.json',
      `{
  // 💡 Inputs are prompted on first server start, then stored securely by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true
    }
  ],
  "servers": {
    // https://github.com/ppl-ai/modelcontextprotocol/
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "\${input:perplexity-key}",
      },
    },
    "fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
    "myRemote": { "type": "sse", "url": "https://example.com/sse" },
    "workspace": {
      "command": "node",
      "args": ["server.js"],
      "cwd": "\${workspaceFolder}",
      "env": { "ROOT": "\${workspaceFolder}", "HOME_DIR": "\${userHome}", "SEP": "a\${/}b" },
      "dev": { "watch": "src/**/*.ts" }
    },
  },
}
`,
    );
    await m.write(
      '~/.config/Code/User/mcp.json',
      JSON.stringify({
        servers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        },
      }),
    );
    const result = await m.read({ clients: ['vscode'] });
    checkInvariants(result);
    expect(result.files.map((f) => [f.scope, f.status])).toEqual([
      ['user', 'found'],
      ['project', 'found'],
    ]);
    expect(importable(result, 'memory').scope).toBe('user');
    const perplexity = importable(result, 'Perplexity');
    expect(perplexity.name).toBe('perplexity');
    expect(perplexity.entry).toEqual({
      command: 'npx',
      args: ['-y', 'server-perplexity-ask'],
      env: { PERPLEXITY_API_KEY: '${PERPLEXITY_KEY}' },
    });
    expect(perplexity.warnings).toMatchObject([
      { code: 'RENAMED' },
      { code: 'INPUT_REPLACED', field: 'env.PERPLEXITY_API_KEY', variable: 'PERPLEXITY_KEY' },
    ]);
    expect(importable(result, 'fetch').entry).toEqual({
      command: 'uvx',
      args: ['mcp-server-fetch'],
    });
    expect(importable(result, 'github').entry).toEqual({
      url: 'https://api.githubcopilot.com/mcp/',
    });
    expect(refused(result, 'myRemote').problems).toMatchObject([
      { code: 'LEGACY_SSE', field: 'type' },
    ]);
    const workspace = importable(result, 'workspace');
    expect(workspace.entry).toEqual({
      command: 'node',
      args: ['server.js'],
      cwd: m.root,
      env: { ROOT: m.root, HOME_DIR: m.userHome, SEP: 'a/b' },
    });
    expect(codes(workspace)).toEqual([
      'NOT_CARRIED_OVER',
      'PATH_SUBSTITUTED',
      'PATH_SUBSTITUTED',
      'PATH_SUBSTITUTED',
    ]);
    expect(perplexity.line).toBe(13);
  });

  it('Gemini CLI: ~/.gemini/settings.json (command, httpUrl, url = SSE, timeout, trust, tool filters)', async () => {
    const m = await machine();
    await m.write(
      '~/.gemini/settings.json',
      JSON.stringify(
        {
          theme: 'Default',
          mcpServers: {
            pythonTools: {
              command: 'python',
              args: ['-m', 'my_mcp_server', '--port', '8080'],
              cwd: './mcp-servers/python',
              env: { DATABASE_URL: '$DB_CONNECTION_STRING', API_KEY: '${EXTERNAL_API_KEY}' },
              timeout: 15000,
            },
            httpServer: {
              httpUrl: 'https://api.example.com/mcp',
              headers: {
                Authorization: 'Bearer your-api-token-abc123def456ghi789',
                'X-Custom-Header': 'custom-value',
              },
              timeout: 5000,
            },
            sseServer: { url: 'https://api.example.com/sse' },
            trusted: {
              command: 'node',
              args: ['dist/server.js'],
              trust: true,
              includeTools: ['safe_tool'],
              excludeTools: ['rm'],
              timeout: 999_999,
            },
          },
        },
        null,
        2,
      ),
    );
    const result = await m.read({ clients: ['gemini'] });
    checkInvariants(result);
    const python = importable(result, 'pythonTools');
    expect(python.name).toBe('pythontools');
    expect(python.entry).toEqual({
      command: 'python',
      args: ['-m', 'my_mcp_server', '--port', '8080'],
      cwd: './mcp-servers/python',
      env: { DATABASE_URL: '${DB_CONNECTION_STRING}', API_KEY: '${EXTERNAL_API_KEY}' },
      timeoutMs: 15000,
    });
    const http = importable(result, 'httpServer');
    expect(http.entry).toEqual({
      url: 'https://api.example.com/mcp',
      headers: {
        Authorization: 'Bearer ${HTTPSERVER_AUTHORIZATION}',
        'X-Custom-Header': 'custom-value',
      },
      timeoutMs: 5000,
    });
    expect(http.warnings.find((w) => w.code === 'SECRET_REPLACED')).toMatchObject({
      field: 'headers.Authorization',
      variable: 'HTTPSERVER_AUTHORIZATION',
    });
    const sse = refused(result, 'sseServer');
    expect(sse.problems).toMatchObject([{ code: 'LEGACY_SSE' }]);
    expect(sse.problems[0]?.message).toContain('Streamable HTTP');
    const trusted = importable(result, 'trusted');
    expect(trusted.entry).toEqual({ command: 'node', args: ['dist/server.js'] });
    expect(codes(trusted)).toEqual([
      'TIMEOUT_NOT_CARRIED',
      'AUTO_APPROVE_NOT_CARRIED',
      'TOOL_FILTER_NOT_CARRIED',
    ]);
    expect(trusted.warnings.find((w) => w.code === 'AUTO_APPROVE_NOT_CARRIED')?.message).toContain(
      'still asks',
    );
    expect(JSON.stringify(result)).not.toContain('your-api-token');
  });

  it('Codex CLI: ~/.codex/config.toml', async () => {
    const m = await machine();
    await m.write(
      '~/.codex/config.toml',
      `model = "gpt-5"

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]

[mcp_servers.context7.env]
MY_ENV_VAR = "MY_ENV_VALUE"

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_OAUTH_TOKEN"
http_headers = { "X-Figma-Region" = "us-east-1" }
env_http_headers = { "X-Org" = "FIGMA_ORG" }
tool_timeout_sec = 30
startup_timeout_sec = 20

[mcp_servers.off]
command = "off-server"
enabled = false
env_vars = ["SOME_VAR"]
enabled_tools = ["a"]

[mcp_servers."Big Server"]
command = "big"
env = { "OPENAI_API_KEY" = "sk-proj-abcdefghijklmnopqrstuvwxyz012345" }
`,
    );
    const result = await m.read({ clients: ['codex'] });
    checkInvariants(result);
    expect(result.files).toMatchObject([{ client: 'codex', scope: 'user', status: 'found' }]);
    expect(importable(result, 'context7').entry).toEqual({
      command: 'npx',
      args: ['-y', '@upstash/context7-mcp'],
      env: { MY_ENV_VAR: 'MY_ENV_VALUE' },
    });
    expect(importable(result, 'context7').line).toBe(3);
    const figma = importable(result, 'figma');
    expect(figma.entry).toEqual({
      url: 'https://mcp.figma.com/mcp',
      headers: {
        'X-Figma-Region': 'us-east-1',
        'X-Org': '${FIGMA_ORG}',
        Authorization: 'Bearer ${FIGMA_OAUTH_TOKEN}',
      },
      timeoutMs: 30000,
    });
    expect(codes(figma)).toEqual(['TIMEOUT_NOT_CARRIED']);
    const off = importable(result, 'off');
    expect(off.entry).toEqual({
      command: 'off-server',
      env: { SOME_VAR: '${SOME_VAR}' },
      enabled: false,
    });
    expect(codes(off)).toEqual(['TOOL_FILTER_NOT_CARRIED']);
    const big = importable(result, 'Big Server');
    expect(big.name).toBe('big-server');
    expect(big.entry).toEqual({ command: 'big', env: { OPENAI_API_KEY: '${OPENAI_API_KEY}' } });
    expect(big.line).toBe(24);
    expect(JSON.stringify(result)).not.toContain('sk-proj-abc');
  });
});
