// Token storage modes of AuthStore against an in-memory keychain double (the real Secret
// Service is tested in test/keyring.test.ts).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught, recordingLogger, useTempDir } from '../test/helpers.js';
import { AuthStore } from './auth-store.js';
import { KeyringUnavailableError } from './errors.js';
import type { KeyringBackend } from './os-keyring.js';

const home = useTempDir('garuda-auth-keyring-');
let file: string;
beforeEach(() => {
  file = path.join(home.path, 'home', 'mcp-auth.json');
});

const id = { scope: 'user', name: 'linear', url: 'https://mcp.linear.app/mcp' };
const ACCESS = 'access-token-secret-0123456789';
const REFRESH = 'refresh-token-secret-0123456789';
const tokens = { access_token: ACCESS, refresh_token: REFRESH, token_type: 'Bearer' };

/** A keychain in a Map; `failing` makes every call throw, `checkOk` answers the probe. */
function fakeKeyring(
  options: { checkOk?: boolean; failing?: 'all' | 'set' | 'get' | 'delete' } = {},
) {
  const items = new Map<string, string>();
  const calls: string[] = [];
  const fail = (op: string) => {
    if (options.failing === 'all' || options.failing === op) {
      throw new KeyringUnavailableError('the test keychain is locked');
    }
  };
  const keyring: KeyringBackend & { items: Map<string, string>; calls: string[] } = {
    items,
    calls,
    get: (account) => {
      calls.push(`get ${account}`);
      return Promise.resolve().then(() => (fail('get'), items.get(account)));
    },
    set: (account, secret) => {
      calls.push(`set ${account}`);
      return Promise.resolve().then(() => {
        fail('set');
        items.set(account, secret);
      });
    },
    delete: (account) => {
      calls.push(`delete ${account}`);
      return Promise.resolve().then(() => (fail('delete'), items.delete(account)));
    },
    check: () =>
      Promise.resolve(
        options.checkOk === false
          ? { ok: false, reason: 'no test keychain' }
          : { ok: true, reason: 'the test keychain answered' },
      ),
    close: () => undefined,
  };
  return keyring;
}

async function fileText(): Promise<string> {
  return fs.readFile(file, 'utf8');
}

describe('keyring storage', () => {
  it('keeps only a pointer in the file and the secrets in the keychain; a new store reads them', async () => {
    const keyring = fakeKeyring();
    const store = new AuthStore(file, { tokenStorage: 'keyring', keyring });
    await store.update(id, () => ({
      client: { client_id: 'client-1', client_secret: 'client-secret-0123456789' },
      tokens,
      port: 5000,
      codeVerifier: 'verifier-secret-0123456789',
    }));
    const text = await fileText();
    for (const secret of [ACCESS, REFRESH, 'client-secret', 'verifier-secret'])
      expect(text).not.toContain(secret);
    const raw = JSON.parse(text) as { entries: Record<string, Record<string, unknown>> };
    const entry = Object.values(raw.entries)[0];
    expect(entry).toMatchObject({ client: { client_id: 'client-1' }, port: 5000 });
    expect(entry?.secret).toMatchObject({
      store: 'keyring',
      account: expect.stringMatching(/^linear@/),
    });
    expect([...keyring.items.values()][0]).toContain(ACCESS);

    const again = new AuthStore(file, { keyring });
    expect(await again.get(id)).toMatchObject({
      tokens,
      client: { client_id: 'client-1', client_secret: 'client-secret-0123456789' },
      codeVerifier: 'verifier-secret-0123456789',
    });
    expect((await again.list())[0]).toMatchObject({ signedIn: true, storage: 'keyring' });
  });

  it('reads a cached secret without asking the keychain again while the file is unchanged', async () => {
    const keyring = fakeKeyring();
    const store = new AuthStore(file, { tokenStorage: 'keyring', keyring });
    await store.update(id, () => ({ tokens }));
    keyring.calls.length = 0;
    await store.get(id);
    await store.get(id);
    expect(keyring.calls).toEqual([]);
  });

  it('remove() takes both the file entry and the keychain secret, and returns the tokens', async () => {
    const keyring = fakeKeyring();
    const store = new AuthStore(file, { tokenStorage: 'keyring', keyring });
    await store.update(id, () => ({ tokens }));
    const [removed] = await store.remove('linear');
    expect(removed?.entry.tokens).toEqual(tokens);
    expect(keyring.items.size).toBe(0);
    expect(JSON.parse(await fileText())).toEqual({ version: 1, entries: {} });
  });

  it('forgets the keychain secret when the entry no longer holds one', async () => {
    const keyring = fakeKeyring();
    const store = new AuthStore(file, { tokenStorage: 'keyring', keyring });
    await store.update(id, () => ({ tokens, port: 5000 }));
    await store.update(id, (entry) => ({ ...entry, tokens: undefined }));
    expect(keyring.items.size).toBe(0);
    expect(JSON.parse(await fileText()).entries).not.toHaveProperty(['secret']);
    expect(await store.get(id)).toMatchObject({ port: 5000 });
  });

  it('a secret gone from the keychain reads as not signed in, with one warning; a sign-in places it again', async () => {
    const keyring = fakeKeyring();
    const rec = recordingLogger();
    await new AuthStore(file, { tokenStorage: 'keyring', keyring }).update(id, () => ({
      tokens,
      port: 5000,
    }));
    keyring.items.clear();
    const store = new AuthStore(file, { tokenStorage: 'keyring', keyring, logger: rec.logger });
    expect(await store.get(id)).toMatchObject({ port: 5000 });
    expect((await store.get(id))?.tokens).toBeUndefined();
    expect((await store.list())[0]).toMatchObject({ signedIn: false, storage: 'keyring' });
    expect(rec.lines.warn).toHaveLength(1);
    expect(rec.lines.warn[0]).toContain('no longer in the OS keychain: sign in again');
    await store.update(id, (entry) => ({ ...entry, tokens }));
    expect((await store.get(id))?.tokens).toEqual(tokens);
  });

  it('a keychain that cannot be read: not signed in, and no update writes over its pointer', async () => {
    const keyring = fakeKeyring();
    await new AuthStore(file, { tokenStorage: 'keyring', keyring }).update(id, () => ({ tokens }));
    const before = await fileText();
    const locked = fakeKeyring({ failing: 'all' });
    const rec = recordingLogger();
    const store = new AuthStore(file, { keyring: locked, logger: rec.logger });
    expect((await store.get(id))?.tokens).toBeUndefined();
    expect(rec.lines.warn.join('\n')).toContain('the test keychain is locked');
    const error = await caught(store.update(id, (entry) => ({ ...entry, port: 1 })));
    expect(KeyringUnavailableError.isInstance(error)).toBe(true);
    expect(await fileText()).toBe(before);
  });

  it('keyring asked for and the keychain refuses the write: an error, nothing stored', async () => {
    const store = new AuthStore(file, {
      tokenStorage: 'keyring',
      keyring: fakeKeyring({ failing: 'set' }),
    });
    const error = await caught(store.update(id, () => ({ tokens })));
    expect(KeyringUnavailableError.isInstance(error)).toBe(true);
    expect((error as KeyringUnavailableError).reason).toBe('the test keychain is locked');
    expect(String((error as Error).message)).not.toContain(ACCESS);
    await expect(fs.access(file)).rejects.toThrow();
  });

  it('an entry keeps its storage: inline tokens stay in the file under a keyring store', async () => {
    await new AuthStore(file).update(id, () => ({ tokens }));
    const keyring = fakeKeyring();
    const store = new AuthStore(file, { tokenStorage: 'keyring', keyring });
    const refreshed = { ...tokens, access_token: 'access-token-refreshed-0123456789' };
    await store.update(id, (entry) => ({ ...entry, tokens: refreshed }));
    expect(await fileText()).toContain('access-token-refreshed');
    expect(keyring.items.size).toBe(0);
    expect((await store.list())[0]?.storage).toBe('file');
  });

  it('two auth files never share a keychain account', async () => {
    const keyring = fakeKeyring();
    const other = path.join(home.path, 'other', 'mcp-auth.json');
    await new AuthStore(file, { tokenStorage: 'keyring', keyring }).update(id, () => ({ tokens }));
    await new AuthStore(other, { tokenStorage: 'keyring', keyring }).update(id, () => ({ tokens }));
    expect(keyring.items.size).toBe(2);
  });
});

describe('auto storage', () => {
  it('is the keychain when it answers the probe', async () => {
    const keyring = fakeKeyring();
    const store = new AuthStore(file, { tokenStorage: 'auto', keyring });
    expect(await store.storage()).toEqual({
      requested: 'auto',
      mode: 'keyring',
      available: true,
      reason: 'the test keychain answered',
    });
    await store.update(id, () => ({ tokens }));
    expect(await fileText()).not.toContain(ACCESS);
    expect(keyring.items.size).toBe(1);
  });

  it('is the file when no keychain answers, and says why', async () => {
    const store = new AuthStore(file, {
      tokenStorage: 'auto',
      keyring: fakeKeyring({ checkOk: false }),
    });
    expect(await store.storage()).toEqual({
      requested: 'auto',
      mode: 'file',
      available: true,
      reason: 'no OS keychain answered: no test keychain',
    });
    await store.update(id, () => ({ tokens }));
    expect(await fileText()).toContain(ACCESS);
  });

  it('goes back to the file with a warning when the keychain fails a write', async () => {
    const rec = recordingLogger();
    const store = new AuthStore(file, {
      tokenStorage: 'auto',
      keyring: fakeKeyring({ failing: 'set' }),
      logger: rec.logger,
    });
    await store.update(id, () => ({ tokens }));
    expect((await store.get(id))?.tokens).toEqual(tokens);
    expect(rec.lines.warn.join('\n')).toContain('kept in the auth file');
    expect(await store.storage()).toMatchObject({ mode: 'file', requested: 'auto' });
    expect(rec.all().join('\n')).not.toContain(ACCESS);
  });

  it('without an environment or a keychain, auto is the file', async () => {
    const store = new AuthStore(file, { tokenStorage: 'auto' });
    expect(await store.storage()).toMatchObject({ mode: 'file' });
    expect((await store.storage()).reason).toContain('no environment');
  });
});

describe('session storage', () => {
  it('keeps everything in memory: no file, and the entry ends with the store', async () => {
    const store = new AuthStore(file, { tokenStorage: 'session' });
    await store.update(id, () => ({ tokens, port: 5000 }));
    expect((await store.get(id))?.tokens).toEqual(tokens);
    expect((await store.list())[0]).toMatchObject({ signedIn: true, storage: 'session' });
    await expect(fs.access(path.dirname(file))).rejects.toThrow();
    expect(await new AuthStore(file).get(id)).toBeUndefined();
    expect((await store.remove('linear')).map((r) => r.entry.tokens)).toEqual([tokens]);
    expect(await store.list()).toEqual([]);
  });

  it('moves an entry without secrets out of the file when a sign-in starts', async () => {
    await new AuthStore(file).update(id, () => ({ port: 5000 }));
    const store = new AuthStore(file, { tokenStorage: 'session' });
    await store.update(id, (entry) => ({ ...entry, codeVerifier: 'verifier-secret-0123456789' }));
    expect(JSON.parse(await fileText())).toEqual({ version: 1, entries: {} });
    expect(await store.get(id)).toMatchObject({ port: 5000 });
  });

  it('refuses an unknown storage', () => {
    expect(() => new AuthStore(file, { tokenStorage: 'disk' as never })).toThrow(
      /tokenStorage must be one of file, keyring, session, auto/,
    );
  });
});
