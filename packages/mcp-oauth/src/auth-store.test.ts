import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught, filesUnder, recordingLogger, useTempDir } from '../test/helpers.js';
import { AuthStore } from './auth-store.js';
import { LockedFileError } from '@garuda/mcp-trust';
import { OAuthFlowError } from './errors.js';

const home = useTempDir('garuda-auth-store-');
let file: string;
beforeEach(() => {
  file = path.join(home.path, 'home', 'mcp-auth.json');
});

const user = (name = 'linear', url = 'https://mcp.linear.app/mcp') => ({
  scope: 'user',
  name,
  url,
});
const tokens = (access: string) => ({
  access_token: access,
  token_type: 'Bearer',
  refresh_token: `${access}-refresh`,
  expires_in: 3600,
  issuer: 'https://auth.example',
});

describe('AuthStore files', () => {
  it('creates a 0700 folder and a 0600 file, written atomically', async () => {
    const store = new AuthStore(file);
    await store.update(user(), () => ({ tokens: tokens('tok-aaaaaaaaaaaaaaaa'), port: 51000 }));
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    // Only the file itself is left: no temporary file, no lock folder.
    expect(await fs.readdir(path.dirname(file))).toEqual(['mcp-auth.json']);
    const data = JSON.parse(await fs.readFile(file, 'utf8')) as {
      version: number;
      entries: Record<string, unknown>;
    };
    expect(data.version).toBe(1);
    expect(Object.keys(data.entries)).toEqual(['user::linear::https://mcp.linear.app/mcp']);
    expect(data.entries['user::linear::https://mcp.linear.app/mcp']).toMatchObject({
      scope: 'user',
      name: 'linear',
      url: 'https://mcp.linear.app/mcp',
      port: 51000,
      tokens: { access_token: 'tok-aaaaaaaaaaaaaaaa', issuer: 'https://auth.example' },
    });
  });

  it('rewrites a file others could read with mode 0600, after a warning', async () => {
    const { logger, lines } = recordingLogger();
    await new AuthStore(file).update(user(), () => ({ port: 1234 }));
    await fs.chmod(file, 0o644);
    const store = new AuthStore(file, { logger });
    expect(await store.get(user())).toMatchObject({ port: 1234 });
    expect(lines.warn.join('\n')).toMatch(/can be read by other users \(mode 644\)/);
    await store.update(user(), (e) => ({ ...e, port: 1235 }));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('readers always see a whole file while another instance writes', async () => {
    const writer = new AuthStore(file);
    const reader = new AuthStore(file);
    await writer.update(user(), () => ({ port: 1, tokens: tokens(`tok-0-${'x'.repeat(2000)}`) }));
    let stop = false;
    const reads = (async () => {
      let n = 0;
      while (!stop) {
        const entry = await reader.get(user());
        expect(entry?.tokens?.access_token).toMatch(/^tok-\d+-x{2000}$/);
        n++;
      }
      return n;
    })();
    for (let i = 0; i < 40; i++) {
      await writer.update(user(), (e) => ({
        ...e,
        tokens: tokens(`tok-${i}-${'x'.repeat(2000)}`),
      }));
    }
    stop = true;
    expect(await reads).toBeGreaterThan(0);
  });

  it('moves a corrupt file aside with a warning and starts empty', async () => {
    const { logger, lines } = recordingLogger();
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"version": 1, "entries": {', { mode: 0o600 });
    const store = new AuthStore(file, { logger, now: () => new Date('2030-01-02T03:04:05.678Z') });
    expect(await store.get(user())).toBeUndefined();
    const aside = `${file}.corrupt-2030-01-02T03-04-05-678Z`;
    expect(await fs.readFile(aside, 'utf8')).toBe('{"version": 1, "entries": {');
    expect(lines.warn.join('\n')).toContain('it is not valid JSON');
    expect(lines.warn.join('\n')).toContain(JSON.stringify(aside));
    // A second corrupt file never replaces the first one.
    await fs.writeFile(file, '[]');
    await store.update(user(), () => ({ port: 7 }));
    expect(await fs.readFile(`${aside}-1`, 'utf8')).toBe('[]');
    expect(await store.get(user())).toMatchObject({ port: 7 });
  });

  it('keeps entries it cannot read, ignoring them with one warning', async () => {
    const { logger, lines } = recordingLogger();
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      JSON.stringify({
        version: 1,
        entries: {
          'user::odd::https://x.example/': 'not an object',
          'user::linear::https://mcp.linear.app/mcp': {
            scope: 'user',
            name: 'linear',
            url: 'https://mcp.linear.app/mcp',
            port: 'nope',
            state: 'st-123456789',
          },
        },
      }),
    );
    const store = new AuthStore(file, { logger });
    expect(await store.get(user())).toEqual({ state: 'st-123456789' });
    await store.update(user('other'), () => ({ port: 2 }));
    const data = JSON.parse(await fs.readFile(file, 'utf8')) as {
      entries: Record<string, unknown>;
    };
    expect(data.entries['user::odd::https://x.example/']).toBe('not an object');
    expect((await store.list()).map((e) => e.name)).toEqual(['linear', 'other']);
    expect(lines.warn.filter((l) => l.includes('odd'))).toHaveLength(1);
    expect(lines.warn.join('\n')).toContain('its port could not be read');
  });

  it('reports an unreadable file instead of treating it as empty', async () => {
    await fs.mkdir(file, { recursive: true });
    const error = await caught(() => new AuthStore(file).get(user()));
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'TRUST_FILE_UNREADABLE', file });
  });
});

describe('AuthStore entries', () => {
  it('keys entries by scope, name and URL', async () => {
    const store = new AuthStore(file);
    const project = { scope: '/work/app', name: 'linear', url: 'https://mcp.linear.app/mcp' };
    await store.update(user(), () => ({ port: 1 }));
    await store.update(project, () => ({ port: 2 }));
    await store.update(user('linear', 'https://other.example/mcp'), () => ({ port: 3 }));
    expect((await store.get(user()))?.port).toBe(1);
    expect((await store.get(project))?.port).toBe(2);
    expect((await store.list()).map((e) => e.key)).toEqual([
      '/work/app::linear::https://mcp.linear.app/mcp',
      'user::linear::https://mcp.linear.app/mcp',
      'user::linear::https://other.example/mcp',
    ]);
    // A root with ":" cannot forge another key.
    await store.update({ scope: '/a::user', name: 'x', url: 'https://x.example/' }, () => ({
      port: 4,
    }));
    expect((await store.list()).map((e) => e.key)).toContain('/a%3A%3Auser::x::https://x.example/');
  });

  it('update copies values, skips unchanged writes and removes on undefined', async () => {
    const store = new AuthStore(file, { now: () => new Date('2030-01-01T00:00:00.000Z') });
    const value = { port: 10, discovery: { authorizationServerUrl: 'https://a.example' } };
    const written = await store.update(user(), () => value);
    value.port = 11;
    expect(written).toEqual({
      ...{ port: 10, discovery: { authorizationServerUrl: 'https://a.example' } },
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
    const before = (await fs.stat(file)).mtimeMs;
    const { ino } = await fs.stat(file);
    await store.update(user(), (e) => ({ ...e }));
    expect((await fs.stat(file)).ino).toBe(ino);
    expect((await fs.stat(file)).mtimeMs).toBe(before);
    expect(await store.update(user(), () => undefined)).toBeUndefined();
    expect(await store.get(user())).toBeUndefined();
  });

  it('remove(name) drops every entry of that server and returns them', async () => {
    const store = new AuthStore(file);
    await store.update(user(), () => ({ tokens: tokens('tok-user-aaaaaaaaaa') }));
    await store.update({ scope: '/p', name: 'linear', url: 'https://mcp.linear.app/mcp' }, () => ({
      port: 3,
    }));
    await store.update(user('github', 'https://gh.example/mcp'), () => ({ port: 4 }));
    const removed = await store.remove('linear');
    expect(removed.map((r) => r.scope).sort()).toEqual(['/p', 'user']);
    expect(removed.find((r) => r.scope === 'user')?.entry.tokens?.access_token).toBe(
      'tok-user-aaaaaaaaaa',
    );
    expect((await store.list()).map((e) => e.name)).toEqual(['github']);
    expect(await store.remove('linear')).toEqual([]);
  });

  it('list() shows no secrets', async () => {
    const store = new AuthStore(file, { now: () => new Date('2030-01-01T00:00:00.000Z') });
    await store.update(user(), () => ({
      client: { client_id: 'client-1', issuer: 'https://auth.example' },
      tokens: tokens('tok-secret-aaaaaaaa'),
      tokensSavedAt: '2030-01-01T00:00:00.000Z',
      port: 5,
      codeVerifier: 'verifier-secret-aaaaaaaaaaaaaaaaaaaa',
      state: 'state-secret-aaaaaaaa',
    }));
    const [info] = await store.list();
    expect(info).toEqual({
      key: 'user::linear::https://mcp.linear.app/mcp',
      scope: 'user',
      name: 'linear',
      url: 'https://mcp.linear.app/mcp',
      signedIn: true,
      refreshable: true,
      signInInProgress: true,
      storage: 'file',
      clientId: 'client-1',
      issuer: 'https://auth.example',
      port: 5,
      expiresAt: '2030-01-01T01:00:00.000Z',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(info)).not.toMatch(/secret/);
  });

  it('refuses bad ids and values without showing the value', async () => {
    const store = new AuthStore(file);
    await expect(
      store.get({ scope: 'user', name: 'My Server', url: 'https://x.example' }),
    ).rejects.toThrow(/server name "My Server" is invalid: use a-z, 0-9 and _/);
    await expect(
      store.get({ scope: 'relative/root', name: 'x', url: 'https://x.example' }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' });
    await expect(
      store.get({ scope: 'user', name: 'x', url: 'file:///etc/passwd' }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' });
    await expect(
      store.get({ scope: 'user', name: 'x', url: 'https://u:p@x.example' }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' });
    const bad = await caught(() =>
      store.update(user(), () => ({ tokens: { access_token: 'tok-hidden-aaaaaaaa' } }) as never),
    );
    expect(bad).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_ENTRY' });
    expect((bad as Error).message).not.toContain('tok-hidden');
    await expect(store.update(user(), () => ({ extra: 1 }) as never)).rejects.toThrow(
      /a field the store does not keep/,
    );
    await expect(store.update(user(), () => ({ port: 70000 }))).rejects.toMatchObject({
      name: 'OAuthFlowError',
      code: 'OAUTH_INVALID_ENTRY',
    });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    await expect(
      store.update(user(), () => ({ discovery: { authorizationServerUrl: 'x', cycle } }) as never),
    ).rejects.toThrow(/refers back to itself/);
    await expect(store.update(user(), (() => Promise.resolve({})) as never)).rejects.toThrow(
      /synchronous/,
    );
    expect(() => new AuthStore('')).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
    expect(() => new AuthStore(file, { lockStaleMs: 10 })).toThrow(
      expect.objectContaining({ name: 'OAuthFlowError', code: 'OAUTH_INVALID_OPTION' }),
    );
    // Nothing was written by any of these (only the folder was made, for the lock).
    expect(await fs.readdir(path.dirname(file))).toEqual([]);
  });

  it('times out clearly when another process holds the lock', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.mkdir(`${file}.lock`);
    const store = new AuthStore(file, { lockTimeoutMs: 200, lockStaleMs: 60_000 });
    const error = await caught(() => store.update(user(), () => ({ port: 1 })));
    expect(LockedFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'TRUST_LOCK_TIMEOUT', file, path: `${file}.lock` });
    expect((error as Error).message).toContain(
      `could not lock the auth file ${JSON.stringify(file)} within 200 ms: another garuda ` +
        `process may be using it, so try again when it is done.`,
    );
    expect((error as Error).message).toContain(
      `a lock folder ${JSON.stringify(`${file}.lock`)} older than 60 s is stale`,
    );
  });

  it("passes the file's other failures through as @garuda/mcp-trust's, naming the auth file", async () => {
    // A folder that cannot be created.
    const blocker = path.join(home.path, 'blocker');
    await fs.writeFile(blocker, 'x');
    const write = await caught(() =>
      new AuthStore(path.join(blocker, 'mcp-auth.json')).update(user(), () => ({ port: 1 })),
    );
    expect(write).toMatchObject({ code: 'TRUST_WRITE_FAILED', path: blocker });
    expect((write as Error).message).toContain(
      `could not create the folder ${JSON.stringify(blocker)}`,
    );
    expect((write as Error).message).toContain('the auth file was left as it was');

    // A lock path that cannot be used: a stale-looking file where the lock folder goes.
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(`${file}.lock`, 'x');
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(`${file}.lock`, old, old);
    const lock = await caught(() => new AuthStore(file).update(user(), () => ({ port: 1 })));
    expect(lock).toMatchObject({ code: 'TRUST_LOCK_FAILED', file });
    expect((lock as Error).message).toContain(
      `could not lock the auth file ${JSON.stringify(file)}`,
    );
    await fs.rm(`${file}.lock`);

    // A corrupt file that cannot be moved aside: every name it could take is a folder.
    await fs.writeFile(file, 'not json');
    const aside = `${file}.corrupt-2030-01-02T03-04-05-678Z`;
    await fs.mkdir(aside);
    for (let i = 1; i < 1000; i++) await fs.mkdir(`${aside}-${i}`);
    const now = () => new Date('2030-01-02T03:04:05.678Z');
    const move = await caught(() => new AuthStore(file, { now }).get(user()));
    expect(move).toMatchObject({ code: 'TRUST_MOVE_ASIDE_FAILED', file });
    expect((move as Error).message).toContain(`the auth file ${JSON.stringify(file)} is corrupt`);
    expect(await fs.readFile(file, 'utf8')).toBe('not json');

    for (const error of [write, lock, move]) {
      expect(LockedFileError.isInstance(error)).toBe(true);
      expect(OAuthFlowError.isInstance(error)).toBe(false);
    }
  });

  it('lets an error thrown by the update function out unchanged', async () => {
    const store = new AuthStore(file);
    const thrown = new LockedFileError('TRUST_LOCK_TIMEOUT', 'held elsewhere', {
      file: '/elsewhere',
      path: '/elsewhere.lock',
    });
    expect(
      await caught(() =>
        store.update(user(), () => {
          throw thrown;
        }),
      ),
    ).toBe(thrown);
  });

  it('serialises changes from one instance and keeps every one', async () => {
    const store = new AuthStore(file);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update(user(`s${i}`, `https://s${i}.example/mcp`), () => ({ port: 1000 + i })),
      ),
    );
    expect(await store.list()).toHaveLength(20);
    expect((await filesUnder(home.path)).map((f) => path.basename(f))).toEqual(['mcp-auth.json']);
  });
});
