import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { freeName, garudaName } from './import-name.js';
import { importSourceFiles } from './import-paths.js';
import { claudeProjectKey, readImportSources } from './import-sources.js';
import type {
  ImportableServer,
  ImportClient,
  ImportServer,
  ImportSourcesResult,
  NotImportableServer,
  ReadImportSourcesOptions,
} from './import-types.js';
import { MAX_IMPORT_FILE_BYTES } from './read-source-file.js';

const dirs = tempDirs();
const run = promisify(execFile);

const FILES: Readonly<Record<ImportClient, { project?: string; user: string }>> = {
  claude: { project: '.mcp.json', user: '.claude.json' },
  'claude-desktop': { user: '.config/Claude/claude_desktop_config.json' },
  cursor: { project: '.cursor/mcp.json', user: '.cursor/mcp.json' },
  vscode: { project: '.vscode/mcp.json', user: '.config/Code/User/mcp.json' },
  gemini: { project: '.gemini/settings.json', user: '.gemini/settings.json' },
  codex: { user: '.codex/config.toml' },
};

interface Setup {
  userHome: string;
  root: string;
  file: (client: ImportClient, scope: 'user' | 'project') => string;
  /** readImportSources for this home and project on Linux, with `options` on top. */
  read: (options?: Partial<ReadImportSourcesOptions>) => Promise<ImportSourcesResult>;
}

async function setup(): Promise<Setup> {
  const dir = await dirs.create();
  const userHome = path.join(dir, 'home');
  const root = path.join(dir, 'repo');
  await mkdir(userHome);
  await mkdir(root);
  return {
    userHome,
    root,
    file: (client, scope) => {
      const rel = scope === 'user' ? FILES[client].user : FILES[client].project;
      if (rel === undefined) throw new Error(`${client} has no ${scope} file`);
      return path.join(scope === 'user' ? userHome : root, rel);
    },
    read: (options) => readImportSources({ userHome, root, platform: 'linux', ...options }),
  };
}

async function put(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** Reads one client's servers written as `{ <listKey>: servers }` in the given scope. */
async function importOne(
  client: ImportClient,
  servers: Record<string, unknown>,
  options: {
    scope?: 'user' | 'project';
    existingNames?: string[];
    extra?: Record<string, unknown>;
  } = {},
): Promise<ImportSourcesResult & { setup: Setup }> {
  const s = await setup();
  const scope =
    options.scope ?? (client === 'codex' || client === 'claude-desktop' ? 'user' : 'project');
  const key = client === 'vscode' ? 'servers' : 'mcpServers';
  await put(s.file(client, scope), JSON.stringify({ ...options.extra, [key]: servers }, null, 2));
  const result = await s.read({
    clients: [client],
    ...(options.existingNames === undefined ? {} : { existingNames: options.existingNames }),
  });
  return { ...result, setup: s };
}

function get(result: ImportSourcesResult, sourceName: string): ImportServer {
  const server = result.servers.find((s) => s.sourceName === sourceName);
  if (server === undefined) throw new Error(`no ${sourceName}`);
  return server;
}

function ok(result: ImportSourcesResult, sourceName: string): ImportableServer {
  const server = get(result, sourceName);
  if (!server.importable) throw new Error(server.problems.map((p) => p.message).join(' | '));
  return server;
}

function no(result: ImportSourcesResult, sourceName: string): NotImportableServer {
  const server = get(result, sourceName);
  if (server.importable)
    throw new Error(`${sourceName} was importable: ${JSON.stringify(server.entry)}`);
  return server;
}

/** Each named server is not importable, and its first problem matches what is given for it. */
function expectFirstProblems(result: ImportSourcesResult, expected: Record<string, object>): void {
  for (const [sourceName, problem] of Object.entries(expected)) {
    expect(no(result, sourceName).problems[0], sourceName).toMatchObject(problem);
  }
}

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

  it('get a suffix on a clash with another imported server or an existing Garuda name, with a warning', async () => {
    const s = await setup();
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
    const docs = ok(result, 'docs');
    expect(docs.warnings[0]).toMatchObject({ code: 'RENAMED', from: 'docs', to: 'docs-2' });
    expect(docs.warnings[0]?.message).toContain('in your Garuda configuration');
    const second = ok(result, 'GitHub');
    expect(second.warnings[0]).toMatchObject({ code: 'RENAMED', from: 'GitHub', to: 'github-2' });
    expect(second.warnings[0]?.message).toContain('imported before it');
    expect(ok(result, 'github').warnings).toEqual([]);
  });

  it('the same server in two clients of one scope is listed once; a refused server takes no name', async () => {
    const s = await setup();
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
      const problem = no(claude, name).problems[0];
      expect(problem?.code).toBe('LEGACY_SSE');
      expect(problem?.message).toContain('garuda-mcp add');
    }
    // An explicit "type": "http" is believed.
    expect(ok(claude, 'explicitHttp').entry).toEqual({ url: 'https://a.example/sse' });

    const gemini = await importOne('gemini', {
      sse: { url: 'https://a.example/mcp' },
      typedHttp: { url: 'https://a.example/mcp', type: 'http' },
      both: { httpUrl: 'https://a.example/mcp', url: 'https://a.example/sse' },
      ws: { tcp: 'ws://localhost:9000' },
    });
    expect(no(gemini, 'sse').problems[0]?.code).toBe('LEGACY_SSE');
    expect(ok(gemini, 'typedHttp').entry).toEqual({ url: 'https://a.example/mcp' });
    const both = ok(gemini, 'both');
    expect(both.entry).toEqual({ url: 'https://a.example/mcp' });
    expect(both.warnings[0]).toMatchObject({ code: 'NOT_CARRIED_OVER', keys: ['url'] });
    expect(no(gemini, 'ws').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');

    const ownFields = await importOne('claude', {
      fs: { command: 'fs', writePaths: ['/data'], network: true, weird: 1 },
    });
    expect(ok(ownFields, 'fs').entry).toEqual({ command: 'fs' });
    expect(ok(ownFields, 'fs').warnings).toMatchObject([
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
    expect(no(other, 'ws').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');
    expect(no(other, 'ide').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');
    expect(no(other, 'weird').problems[0]?.code).toBe('UNSUPPORTED_TRANSPORT');
    expect(no(other, 'httpNoUrl').problems[0]).toMatchObject({
      code: 'INVALID_ENTRY',
      field: 'url',
    });
    expect(no(other, 'stdioNoCommand').problems[0]).toMatchObject({
      code: 'INVALID_ENTRY',
      field: 'command',
    });
  });

  it('takes Codex URLs as Streamable HTTP, whatever their path', async () => {
    const s = await setup();
    await put(s.file('codex', 'user'), '[mcp_servers.events]\nurl = "https://a.example/sse"\n');
    const result = await s.read({ clients: ['codex'] });
    expect(ok(result, 'events').entry).toEqual({ url: 'https://a.example/sse' });
  });
});

describe('env and header values', () => {
  it('keep ${VAR}; turn ${env:VAR}, ${VAR:-default} and (Gemini) $VAR into ${VAR}', async () => {
    const env = {
      A: '${A}',
      B: '${env:B_VAR}',
      C: 'x-${C_VAR:-fallback-value}-y',
      D: '$D_VAR and $$',
      E: 'price: 5$',
    };
    const cursor = await importOne('cursor', { s: { command: 'x', env } });
    const s = ok(cursor, 's');
    expect(s.entry).toEqual({
      command: 'x',
      env: { A: '${A}', B: '${B_VAR}', C: 'x-${C_VAR}-y', D: '$D_VAR and $$', E: 'price: 5$' },
    });
    expect(s.warnings).toMatchObject([
      { code: 'DEFAULT_DROPPED', field: 'env.C', variable: 'C_VAR' },
    ]);
    expect(JSON.stringify(cursor)).not.toContain('fallback-value');

    const gemini = await importOne('gemini', { s: { command: 'x', env } });
    expect(ok(gemini, 's').entry).toMatchObject({ env: { D: '${D_VAR} and $$' } });
  });

  it('turn a VS Code ${input:…} into a variable to set, named after the input', async () => {
    const vscode = await importOne(
      'vscode',
      {
        s: {
          command: 'x',
          env: {
            TOKEN: '${input:api-token}',
            P: '${input:path}',
            N: '${input:9lives}',
            U: '${input:undeclared}',
          },
        },
        remote: {
          type: 'http',
          url: 'https://a.example/mcp',
          headers: { 'X-Key': '${input:api-token}' },
        },
      },
      {
        extra: {
          inputs: [{ type: 'promptString', id: 'api-token', password: true }, { id: 'path' }],
        },
      },
    );
    const s = ok(vscode, 's');
    expect(s.entry).toEqual({
      command: 'x',
      env: { TOKEN: '${API_TOKEN}', P: '${INPUT_PATH}', N: '${INPUT_9LIVES}', U: '${UNDECLARED}' },
    });
    expect(s.warnings.map((w) => [w.code, w.variable])).toEqual([
      ['INPUT_REPLACED', 'API_TOKEN'],
      ['INPUT_REPLACED', 'INPUT_PATH'],
      ['INPUT_REPLACED', 'INPUT_9LIVES'],
      ['INPUT_REPLACED', 'UNDECLARED'],
    ]);
    expect(ok(vscode, 'remote').entry).toEqual({
      url: 'https://a.example/mcp',
      headers: { 'X-Key': '${API_TOKEN}' },
    });
  });

  it('write ${workspaceFolder} out as the project root (Cursor, VS Code), with a warning', async () => {
    const result = await importOne('vscode', {
      s: {
        command: 'x',
        env: { ROOT: '${workspaceFolder}/data', NAME: '${workspaceFolderBasename}' },
      },
    });
    const s = ok(result, 's');
    expect(s.entry).toEqual({
      command: 'x',
      env: { ROOT: `${result.setup.root}/data`, NAME: 'repo' },
    });
    expect(s.warnings.map((w) => w.code)).toEqual(['PATH_SUBSTITUTED', 'PATH_SUBSTITUTED']);
    // In a user file, the warning says the server is now tied to this project.
    const user = await importOne(
      'vscode',
      { s: { command: 'x', cwd: '${workspaceFolder}' } },
      { scope: 'user' },
    );
    expect(ok(user, 's').warnings[0]?.message).toContain("tied to this project's folder");
  });

  it('refuse what expandEnv would refuse: $(…), backticks, a leading !, unknown placeholders', async () => {
    const result = await importOne('vscode', {
      sub: { command: 'x', env: { A: '$(cat ~/.token)' } },
      tick: { command: 'x', env: { A: '`id`' } },
      bang: { command: 'x', env: { A: '!cmd' } },
      unclosed: { command: 'x', env: { A: '${A' } },
      cmd: { command: 'x', env: { A: '${command:extension.pick}' } },
      config: {
        type: 'http',
        url: 'https://a.example/mcp',
        headers: { A: '${config:editor.fontSize}' },
      },
    });
    for (const name of ['sub', 'tick', 'bang', 'unclosed']) {
      expect(no(result, name).problems[0]).toMatchObject({ code: 'VALUE_REFUSED', field: 'env.A' });
    }
    expect(no(result, 'cmd').problems[0]?.code).toBe('UNKNOWN_PLACEHOLDER');
    expect(no(result, 'config').problems[0]).toMatchObject({
      code: 'UNKNOWN_PLACEHOLDER',
      field: 'headers.A',
    });
  });
});

describe('command, args, cwd and url (passed as written)', () => {
  it('refuse a variable, except ${HOME} and the editor paths, which are written out', async () => {
    const result = await importOne('claude', {
      arg: { command: 'x', args: ['--key', '${API_KEY}'] },
      url: { type: 'http', url: '${API_BASE_URL:-https://api.example.com}/mcp' },
      cmd: { command: '${TOOLS}/bin/server' },
      home: { command: '${HOME}/bin/server', args: ['--data', '${HOME}/data'] },
    });
    expectFirstProblems(result, {
      arg: { code: 'VARIABLE_NOT_EXPANDED', field: 'args[1]', variable: 'API_KEY' },
      url: { code: 'VARIABLE_NOT_EXPANDED', field: 'url' },
      cmd: { code: 'VARIABLE_NOT_EXPANDED', field: 'command' },
    });
    const home = ok(result, 'home');
    expect(home.entry).toEqual({
      command: `${result.setup.userHome}/bin/server`,
      args: ['--data', `${result.setup.userHome}/data`],
    });
    const vscode = await importOne('vscode', { i: { command: 'x', args: ['${input:token}'] } });
    expect(no(vscode, 'i').problems[0]?.code).toBe('VARIABLE_NOT_EXPANDED');
  });
});

describe("variables by each client's own syntax", () => {
  it('keeps ${…} in args where the client passed it as written (mcp-remote expands it itself)', async () => {
    // Written to the client's file and read back: one list serves as input and expectation.
    const args = [
      'mcp-remote',
      'https://remote.example.com/mcp',
      '--header',
      'Authorization:${AUTH_HEADER}',
    ];
    const desktop = await importOne('claude-desktop', {
      remote: { command: 'npx', args, env: { AUTH_HEADER: 'Bearer q8Zt3LmN7vX2pR9sK4wY6bH1' } },
    });
    const remote = ok(desktop, 'remote');
    expect(remote.entry).toEqual({ command: 'npx', args, env: { AUTH_HEADER: '${AUTH_HEADER}' } });
    expect(remote.warnings.map((w) => w.code)).toEqual(['SECRET_REPLACED']);
    expect(JSON.stringify(desktop)).not.toContain('q8Zt3LmN');

    // Cursor and VS Code expand ${env:NAME} (refused in args) but not ${NAME} (kept).
    const cursor = await importOne('cursor', {
      plain: { command: 'x', args: ['--header', 'X:${API_KEY}'] },
      env: { command: 'x', args: ['--key', '${env:API_KEY}'] },
      editorOnly: { command: 'x', args: ['${file}'] },
    });
    expect(ok(cursor, 'plain').entry).toEqual({ command: 'x', args: ['--header', 'X:${API_KEY}'] });
    expect(no(cursor, 'env').problems[0]).toMatchObject({
      code: 'VARIABLE_NOT_EXPANDED',
      variable: 'API_KEY',
    });
    expect(no(cursor, 'editorOnly').problems[0]?.code).toBe('UNKNOWN_PLACEHOLDER');
  });

  it('Gemini CLI expands $NAME everywhere: $HOME is written out, another variable in args is refused', async () => {
    const gemini = await importOne('gemini', {
      home: { command: '$HOME/bin/server', args: ['--price', '5$'] },
      token: { command: 'x', args: ['--user', '$USER_NAME'] },
    });
    expect(ok(gemini, 'home').entry).toEqual({
      command: `${gemini.setup.userHome}/bin/server`,
      args: ['--price', '5$'],
    });
    expect(no(gemini, 'token').problems[0]).toMatchObject({
      code: 'VARIABLE_NOT_EXPANDED',
      variable: 'USER_NAME',
    });
  });
});

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
    const local = ok(result, 'local');
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
    const remote = ok(result, 'My Remote');
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
      expect(no(result, name).problems[0], name).toMatchObject({
        code: 'SECRET_IN_PLAIN_FIELD',
        field,
      });
    }
    expect(ok(result, 'fine').entry).toMatchObject({ command: 'docker' });
    expect(ok(result, 'keyFile').entry).toMatchObject({ command: 'x' });
    const text = JSON.stringify(result);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it('Codex bearer_token (written out) becomes Bearer ${SERVER_AUTHORIZATION}', async () => {
    const s = await setup();
    await put(
      s.file('codex', 'user'),
      `[mcp_servers.api]\nurl = "https://a.example/mcp"\nbearer_token = "${SECRETS.openai}"\n`,
    );
    const result = await s.read({ clients: ['codex'] });
    expect(ok(result, 'api').entry).toEqual({
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
    expect(ok(result, 'off').entry).toEqual({ command: 'x', enabled: false });
    expect(ok(result, 'on').entry).toEqual({ command: 'x' });
    expect(ok(result, 'fast').entry).toEqual({ command: 'x', timeoutMs: 1000 });
    expect(ok(result, 'slow').entry).toEqual({ command: 'x' });
    expect(ok(result, 'slow').warnings[0]?.code).toBe('TIMEOUT_NOT_CARRIED');
    expect(ok(result, 'odd').warnings[0]?.code).toBe('TIMEOUT_NOT_CARRIED');
    const notTrusted = ok(result, 'notTrusted');
    expect(notTrusted.warnings.map((w) => w.code)).toEqual(['RENAMED', 'NOT_CARRIED_OVER']);
    expect(notTrusted.warnings[1]?.keys).toEqual(['description']);
    const approve = ok(result, 'approve');
    expect(approve.warnings).toMatchObject([
      { code: 'AUTO_APPROVE_NOT_CARRIED', keys: ['autoApprove'] },
    ]);
    const auth = ok(result, 'auth');
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
    const api = ok(result, 'api');
    expect(api.entry).toEqual({ url: 'https://a.example/mcp', oauth: { clientId: 'my-client' } });
    expect(api.warnings[0]?.keys).toEqual(['oauth.callbackPort', 'headersHelper']);
    expect(api.warnings[0]?.message).toContain('never runs');
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
    expect(ok(user, 'local').entry).toEqual({ url: 'http://localhost:3000/mcp' });
  });
});

describe('files', () => {
  it('a missing file is "missing"; a broken one is reported with line and column and the others still load', async () => {
    const s = await setup();
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
    const s = await setup();
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
    const problem = (client: ImportClient, scope: 'user' | 'project'): string | undefined =>
      result.files.find((f) => f.client === client && f.scope === scope)?.problems[0]?.code;
    expect(problem('cursor', 'user')).toBe('FILE_UNREADABLE');
    expect(problem('vscode', 'user')).toBe('FILE_NOT_TEXT');
    expect(problem('gemini', 'user')).toBe('INVALID_SYNTAX');
    expect(problem('claude-desktop', 'user')).toBe('NOT_AN_OBJECT');
    expect(problem('cursor', 'project')).toBe('TOO_DEEP');
    expect(problem('claude', 'project')).toBe('NOT_AN_OBJECT');
    expect(problem('vscode', 'project')).toBe('DUPLICATE_KEY');
    expect(problem('claude', 'user')).toBe('FILE_TOO_LARGE');
    expect(problem('gemini', 'project')).toBe('FILE_UNREADABLE');
    expect(result.servers).toEqual([]);
  });

  it('a server or a field written twice is not imported; other servers are', async () => {
    const s = await setup();
    await put(
      s.file('cursor', 'project'),
      '{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y", "command": "z"}, "a": {"command": "w"}, "c": {"command": "c"}}}',
    );
    const result = await s.read({ clients: ['cursor'] });
    expect(no(result, 'a').problems[0]?.code).toBe('DUPLICATE_KEY');
    expect(no(result, 'b').problems[0]).toMatchObject({
      code: 'DUPLICATE_KEY',
      field: 'mcpServers.b.command',
    });
    expect(ok(result, 'c').entry).toEqual({ command: 'c' });
  });

  it('keeps __proto__ keys harmless and cleans names from the file', async () => {
    const result = await importOne('cursor', {
      ['__proto__']: { command: 'x' },
      'evil\u001b[31m\u202ename': { command: 'y' },
    });
    expect(({} as Record<string, unknown>).command).toBeUndefined();
    const proto = ok(result, '__proto__');
    expect(proto.name).toBe('proto');
    const evil = result.servers[1];
    // The escape sequence and the bidi control are removed whole, in both names.
    expect(evil?.sourceName).toBe('evilname');
    expect(evil?.importable && evil.name).toBe('evilname');
  });
});

describe('scope', () => {
  it("a repository's files are project servers, the user's own files user servers; scopes and clients narrow the list", async () => {
    const s = await setup();
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
    const s = await setup();
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
      expect.objectContaining({ name: 'ConfigError', code: 'INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles({ ...base, platform: '' })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles({ ...base, clients: ['emacs' as ImportClient] })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles({ ...base, scopes: ['global' as 'user'] })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'INVALID_ARGUMENT' }),
    );
    expect(() => importSourceFiles(null as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'INVALID_ARGUMENT' }),
    );
    await expect(readImportSources({ ...base, existingNames: 5 as never })).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'INVALID_ARGUMENT' }),
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
});
