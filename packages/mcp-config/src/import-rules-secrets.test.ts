// How an import keeps secrets out of Garuda's file, and what it does with fields it has no
// equivalent for.

import { describe, expect, it } from 'vitest';
import { importMachines } from '../test/import-machine.js';
import { importable, refused } from '../test/import-results.js';
import { put } from '../test/temp-dir.js';

const { machine, importOne } = importMachines();

describe('secrets written out', () => {
  const SECRETS = {
    ghp: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    pat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    slack: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
    openai: 'sk-proj-Abc123Def456Ghi789Jkl012Mno345',
    random: 'q8Zt3LmN7vX2pR9sK4wY6bH1',
    pass: 'hunter2',
  };

  it('are never copied: env takes ${ITS_NAME}, a header ${SERVER_HEADER}, and a warning says what to set', async () => {
    const result = await importOne('cursor', {
      local: {
        command: 'x',
        env: {
          GITHUB_TOKEN: SECRETS.ghp,
          PASSWORD: SECRETS.pass,
          GH: SECRETS.pat,
          CONFIG: SECRETS.random,
          DATABASE_URL: `postgres://u:${SECRETS.pass}@db.example/app`,
          PORT: '8080',
          KEY_FILE: '/run/secrets/key.pem',
          DISABLE_TOKEN_CACHE: 'true',
          API_TOKEN: '${API_TOKEN}',
          EMPTY_SECRET: '',
        },
      },
      'My Remote': {
        url: 'https://a.example/mcp',
        headers: {
          Authorization: `Bearer ${SECRETS.openai}`,
          'X-Api-Key': SECRETS.random,
          'X-Slack': SECRETS.slack,
          Accept: 'application/json',
        },
      },
    });
    const local = importable(result, 'local');
    expect(local.entry).toEqual({
      command: 'x',
      env: {
        GITHUB_TOKEN: '${GITHUB_TOKEN}',
        PASSWORD: '${PASSWORD}',
        GH: '${GH}',
        CONFIG: '${CONFIG}',
        DATABASE_URL: '${DATABASE_URL}',
        PORT: '8080',
        KEY_FILE: '/run/secrets/key.pem',
        DISABLE_TOKEN_CACHE: 'true',
        API_TOKEN: '${API_TOKEN}',
        EMPTY_SECRET: '',
      },
    });
    expect(local.warnings.map((w) => [w.code, w.field, w.variable])).toEqual([
      ['SECRET_REPLACED', 'env.GITHUB_TOKEN', 'GITHUB_TOKEN'],
      ['SECRET_REPLACED', 'env.PASSWORD', 'PASSWORD'],
      ['SECRET_REPLACED', 'env.GH', 'GH'],
      ['SECRET_REPLACED', 'env.CONFIG', 'CONFIG'],
      ['SECRET_REPLACED', 'env.DATABASE_URL', 'DATABASE_URL'],
    ]);
    const remote = importable(result, 'My Remote');
    expect(remote.entry).toEqual({
      url: 'https://a.example/mcp',
      headers: {
        Authorization: 'Bearer ${MY_REMOTE_AUTHORIZATION}',
        'X-Api-Key': '${MY_REMOTE_X_API_KEY}',
        'X-Slack': '${MY_REMOTE_X_SLACK}',
        Accept: 'application/json',
      },
    });
    const auth = remote.warnings.find((w) => w.variable === 'MY_REMOTE_AUTHORIZATION');
    expect(auth?.message).toContain('without "Bearer "');
    const text = JSON.stringify(result);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it('in args or the URL, where no variable can stand in, make the server not importable', async () => {
    const result = await importOne('claude', {
      flag: { command: 'x', args: ['--api-key', SECRETS.random] },
      inline: { command: 'x', args: [`--token=${SECRETS.pass}`] },
      token: { command: 'x', args: ['serve', SECRETS.ghp] },
      docker: { command: 'docker', args: ['run', '-e', `GITHUB_TOKEN=${SECRETS.ghp}`, 'img'] },
      query: { type: 'http', url: `https://a.example/mcp?api_key=${SECRETS.pass}` },
      userinfo: { type: 'http', url: `https://me:${SECRETS.pass}@a.example/mcp` },
      pathToken: { type: 'http', url: `https://a.example/s/${SECRETS.random}/mcp` },
      fine: {
        command: 'docker',
        args: [
          'run',
          '-i',
          '--rm',
          '-e',
          'GITHUB_TOKEN',
          'ghcr.io/github/github-mcp-server@sha256:' + 'ab12'.repeat(16),
        ],
      },
      keyFile: { command: 'x', args: ['--key-file', '/etc/x/key.pem', '--port', '8080'] },
    });
    for (const [name, field] of [
      ['flag', 'args[1]'],
      ['inline', 'args[0]'],
      ['token', 'args[1]'],
      ['docker', 'args[2]'],
      ['query', 'url'],
      ['userinfo', 'url'],
      ['pathToken', 'url'],
    ] as const) {
      expect(refused(result, name).problems[0], name).toMatchObject({
        code: 'SECRET_IN_PLAIN_FIELD',
        field,
      });
    }
    expect(importable(result, 'fine').entry).toMatchObject({ command: 'docker' });
    expect(importable(result, 'keyFile').entry).toMatchObject({ command: 'x' });
    const text = JSON.stringify(result);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it('Codex bearer_token (written out) becomes Bearer ${SERVER_AUTHORIZATION}', async () => {
    const s = await machine();
    await put(
      s.file('codex', 'user'),
      `[mcp_servers.api]\nurl = "https://a.example/mcp"\nbearer_token = "${SECRETS.openai}"\n`,
    );
    const result = await s.read({ clients: ['codex'] });
    expect(importable(result, 'api').entry).toEqual({
      url: 'https://a.example/mcp',
      headers: { Authorization: 'Bearer ${API_AUTHORIZATION}' },
    });
    expect(JSON.stringify(result)).not.toContain(SECRETS.openai);
  });
});

describe('fields without an equivalent', () => {
  it('disabled → enabled: false; time limits in range are kept; approvals and filters are named', async () => {
    const result = await importOne(
      'gemini',
      {
        off: { command: 'x', disabled: true },
        on: { command: 'x', disabled: false },
        fast: { command: 'x', timeout: 1000 },
        slow: { command: 'x', timeout: 600_001 },
        odd: { command: 'x', timeout: 'soon' },
        notTrusted: { command: 'x', trust: false, description: 'A tool' },
        approve: { command: 'x', autoApprove: ['read'], alwaysAllow: [] },
        auth: {
          httpUrl: 'https://a.example/mcp',
          oauth: {
            enabled: true,
            clientId: 'garuda',
            clientSecret: 'super-secret-value',
            scopes: ['read'],
          },
          authProviderType: 'dynamic_discovery',
        },
      },
      { scope: 'user' },
    );
    expect(importable(result, 'off').entry).toEqual({ command: 'x', enabled: false });
    expect(importable(result, 'on').entry).toEqual({ command: 'x' });
    expect(importable(result, 'fast').entry).toEqual({ command: 'x', timeoutMs: 1000 });
    expect(importable(result, 'slow').entry).toEqual({ command: 'x' });
    expect(importable(result, 'slow').warnings[0]?.code).toBe('TIMEOUT_NOT_CARRIED');
    expect(importable(result, 'odd').warnings[0]?.code).toBe('TIMEOUT_NOT_CARRIED');
    const notTrusted = importable(result, 'notTrusted');
    expect(notTrusted.warnings.map((w) => w.code)).toEqual(['RENAMED', 'NOT_CARRIED_OVER']);
    expect(notTrusted.warnings[1]?.keys).toEqual(['description']);
    const approve = importable(result, 'approve');
    expect(approve.warnings).toMatchObject([
      { code: 'AUTO_APPROVE_NOT_CARRIED', keys: ['autoApprove'] },
    ]);
    const auth = importable(result, 'auth');
    expect(auth.entry).toEqual({
      url: 'https://a.example/mcp',
      oauth: { clientId: 'garuda', scopes: ['read'] },
    });
    expect(auth.warnings[0]).toMatchObject({
      code: 'NOT_CARRIED_OVER',
      keys: ['oauth.clientSecret', 'authProviderType'],
    });
    expect(auth.warnings[0]?.message).toContain('public client');
    expect(JSON.stringify(result)).not.toContain('super-secret-value');
  });

  it('Claude Code: headersHelper and oauth.callbackPort are named; oauth.clientId is kept', async () => {
    const result = await importOne('claude', {
      api: {
        type: 'http',
        url: 'https://a.example/mcp',
        headersHelper: '/usr/local/bin/make-headers',
        oauth: { clientId: 'my-client', callbackPort: 8080 },
      },
    });
    const api = importable(result, 'api');
    expect(api.entry).toEqual({ url: 'https://a.example/mcp', oauth: { clientId: 'my-client' } });
    expect(api.warnings[0]?.keys).toEqual(['oauth.callbackPort', 'headersHelper']);
    expect(api.warnings[0]?.message).toContain('never runs');
  });
});
