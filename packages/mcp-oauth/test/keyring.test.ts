// Token storage in the OS keychain, for real: a private session bus and gnome-keyring's Secret
// Service started headless for this file (test-utils' startSecretService) and stopped after it.
// Real sign-ins through the SDK against the OAuth fixture. Skipped loudly where dbus-daemon,
// gnome-keyring or secret-tool is missing; GARUDA_REQUIRE_KEYRING=1 (.ci/run) makes that a
// failure. The bus address goes only to the stores under test: never the user's own keychain.
import {
  isProcessAlive,
  secretServiceMissing,
  startSecretService,
  type SecretService,
} from '@garuda/test-utils';
import { createServer, type Server, type Socket } from 'node:net';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthStore } from '../src/auth-store.js';
import { KeyringUnavailableError } from '../src/errors.js';
import { KEYRING_SERVICE } from '../src/os-keyring.js';
import { revoke } from '../src/revoke.js';
import { caught, filesUnder, SecretScan } from './helpers.js';
import { echo, SignInWorld } from './sign-in-world.js';

const missing = secretServiceMissing();
const required = process.env.GARUDA_REQUIRE_KEYRING === '1';
if (missing !== undefined) {
  console.warn(`\n*** ${missing}: the Secret Service keychain tests are SKIPPED ***\n`);
}

const scan = new SecretScan();
let w: SignInWorld;
SignInWorld.eachTest(scan, (world) => (w = world));

describe('the Secret Service keychain, for real', () => {
  it.runIf(required)('is there when it is required (GARUDA_REQUIRE_KEYRING=1)', () => {
    expect(missing).toBeUndefined();
  });

  describe.skipIf(missing !== undefined)('with a private gnome-keyring', () => {
    let ss: SecretService;
    beforeAll(async () => {
      ss = await startSecretService();
    });
    afterAll(async () => {
      const pids = ss?.pids ?? [];
      await ss?.stop();
      for (const pid of pids) expect(isProcessAlive(pid), `daemon ${pid} left running`).toBe(false);
    });

    it('a sign-in keeps its tokens in the Secret Service and a pointer in the file; a later session reuses them; sign-out removes both', async () => {
      const f = await w.fixture();
      const id = { scope: 'user', name: 'demo', url: f.url };
      const store = new AuthStore(w.file, {
        tokenStorage: 'keyring',
        env: ss.env,
        logger: w.rec.logger,
      });
      w.onDispose(async () => store.close());
      expect(await store.storage()).toEqual({
        requested: 'keyring',
        mode: 'keyring',
        available: true,
        reason: 'the Secret Service answered',
      });
      const h = await w.harness(f, { store });
      expect(await echo(await w.signIn(f, h), 'hi')).toBe('hi');

      const entry = await store.get(id);
      scan.addSecretsFrom(entry);
      const access = entry?.tokens?.access_token as string;
      const refresh = entry?.tokens?.refresh_token as string;
      expect(access.length).toBeGreaterThan(15);
      expect(refresh.length).toBeGreaterThan(15);

      // The file: the client, the port, the discovery and a pointer; no token byte.
      const text = await fs.readFile(w.file, 'utf8');
      expect(text).not.toContain(access);
      expect(text).not.toContain(refresh);
      const raw = Object.values(
        (JSON.parse(text) as { entries: Record<string, Record<string, unknown>> }).entries,
      )[0] as { secret: { store: string; account: string }; tokens?: unknown; port?: number };
      expect(raw.tokens).toBeUndefined();
      expect(raw.port).toBe(h.provider.callbackPort);
      expect(raw.secret.store).toBe('keyring');
      expect(raw.secret.account).toMatch(/^demo@[0-9a-f]{16}\/[0-9a-f]{16}$/);
      // No other file under the home holds them either.
      for (const other of await filesUnder(w.home.path)) {
        expect(await fs.readFile(other, 'utf8'), other).not.toContain(access);
      }

      // The Secret Service has them, read by another program (secret-tool).
      const kept = await ss.lookup(KEYRING_SERVICE, raw.secret.account);
      expect(kept).toContain(access);
      expect(kept).toContain(refresh);

      // A later session (a new store and its own keychain helper) reuses them: no sign-in.
      const later = new AuthStore(w.file, { env: ss.env, logger: w.rec.logger });
      w.onDispose(async () => later.close());
      const h2 = await w.harness(f, { store: later });
      expect(await echo(await w.connectedClient(f, h2.provider), 'again')).toBe('again');
      expect(h2.redirects).toEqual([]);
      expect(f.counts.authorizations).toBe(1);
      expect((await later.list())[0]).toMatchObject({ signedIn: true, storage: 'keyring' });

      // Sign-out: the file entry and the keychain secret both go, and the tokens are revoked.
      const result = await revoke({
        serverUrl: f.url,
        store: later,
        name: 'demo',
        allowHttpLoopback: true,
      });
      expect(result).toMatchObject({ removed: 1, ok: true });
      expect(await ss.lookup(KEYRING_SERVICE, raw.secret.account)).toBeUndefined();
      expect(await ss.accounts(KEYRING_SERVICE)).toEqual([]);
      expect(JSON.parse(await fs.readFile(w.file, 'utf8'))).toEqual({ version: 1, entries: {} });
    });

    it('a secret removed from the keychain behind our back reads as not signed in, with a note', async () => {
      const f = await w.fixture();
      const store = new AuthStore(w.file, {
        tokenStorage: 'keyring',
        env: ss.env,
        logger: w.rec.logger,
      });
      w.onDispose(async () => store.close());
      await w.signIn(f, await w.harness(f, { store }));
      scan.addSecretsFrom(await store.get({ scope: 'user', name: 'demo', url: f.url }));
      const [account] = await ss.accounts(KEYRING_SERVICE);
      await ss.clear(KEYRING_SERVICE, account as string);

      const fresh = new AuthStore(w.file, { env: ss.env, logger: w.rec.logger });
      w.onDispose(async () => fresh.close());
      expect((await fresh.list())[0]).toMatchObject({ signedIn: false, storage: 'keyring' });
      expect(w.rec.lines.warn.join('\n')).toContain('no longer in the OS keychain: sign in again');
    });

    it('auto takes the keychain when the bus answers, and the file without a bus, saying why', async () => {
      const withBus = new AuthStore(w.file, { tokenStorage: 'auto', env: ss.env });
      w.onDispose(async () => withBus.close());
      expect(await withBus.storage()).toMatchObject({
        mode: 'keyring',
        reason: 'the Secret Service answered',
      });
      const noBus = new AuthStore(w.file, { tokenStorage: 'auto', env: { PATH: '/usr/bin' } });
      // Decided at once, without a helper or a wait: the reason is the missing bus, not a timeout.
      expect(await noBus.storage()).toEqual({
        requested: 'auto',
        mode: 'file',
        available: true,
        reason:
          'no OS keychain answered: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
      });
    });
  });
});

describe('a keychain that does not answer', () => {
  let dead: Server;
  let socket: string;
  const connections: Socket[] = [];
  beforeAll(async () => {
    // A bus that accepts connections and never says a word: the binding would block for good.
    socket = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'garuda-dead-bus-')), 'bus');
    dead = createServer((connection) => void connections.push(connection));
    await new Promise<void>((resolve) => dead.listen(socket, resolve));
  });
  afterAll(async () => {
    for (const connection of connections) connection.destroy();
    await new Promise((resolve) => dead.close(resolve));
    await fs.rm(path.dirname(socket), { recursive: true, force: true });
  });

  it.skipIf(process.platform !== 'linux')(
    'auto falls back to the file within the time limit, and keyring fails fast afterwards',
    async () => {
      const env = { DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}` };
      const id = { scope: 'user', name: 'demo', url: 'https://mcp.example/mcp' };
      const auto = new AuthStore(w.file, { tokenStorage: 'auto', env, keyringTimeoutMs: 1_000 });
      w.onDispose(async () => auto.close());
      // The reason names the 1 s limit that ended the wait (the clock is not asked: a busy machine
      // adds to any wait); a hang would run into the test's time limit.
      expect(await auto.storage()).toMatchObject({
        mode: 'file',
        reason: 'no OS keychain answered: the keychain did not answer within 1000 ms',
      });
      await auto.update(id, () => ({
        tokens: { access_token: 'a'.repeat(20), token_type: 'Bearer' },
      }));
      expect(await fs.readFile(w.file, 'utf8')).toContain('a'.repeat(20));

      const keyring = new AuthStore(w.file, {
        tokenStorage: 'keyring',
        env,
        keyringTimeoutMs: 1_000,
      });
      w.onDispose(async () => keyring.close());
      const other = { ...id, name: 'other' };
      const error = await caught(
        keyring.update(other, () => ({
          tokens: { access_token: 'b'.repeat(20), token_type: 'Bearer' },
        })),
      );
      expect(KeyringUnavailableError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('did not answer within 1000 ms');
      expect(await fs.readFile(w.file, 'utf8')).not.toContain('b'.repeat(20));
    },
  );
});

describe('session storage, for real', () => {
  it('signs in and calls with nothing written to disk', async () => {
    const f = await w.fixture();
    const store = new AuthStore(w.file, { tokenStorage: 'session', logger: w.rec.logger });
    const client = await w.signIn(f, await w.harness(f, { store }));
    expect(await echo(client, 'memory')).toBe('memory');
    scan.addSecretsFrom(await store.get({ scope: 'user', name: 'demo', url: f.url }));
    expect(await filesUnder(w.home.path)).toEqual([]);
    expect((await store.list())[0]).toMatchObject({ signedIn: true, storage: 'session' });
  });
});
