// readImportSources on the files of Cursor, VS Code, Gemini CLI and Codex CLI, as their
// documentation writes them.

import { describe, expect, it } from 'vitest';
import { importMachines } from '../test/import-machine.js';
import { checkInvariants, codes, importable, refused } from '../test/import-results.js';

const { machine } = importMachines();

describe('readImportSources: each client, as its documentation writes the file', () => {
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
