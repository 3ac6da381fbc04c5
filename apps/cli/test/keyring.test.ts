// garuda-mcp login --store keyring|session|file against a private gnome-keyring (started for
// this file by test-utils' startSecretService and stopped after it) and the OAuth fixture.
// Skipped loudly without dbus-daemon, gnome-keyring and secret-tool; a failure when
// GARUDA_REQUIRE_KEYRING=1 (.ci/run). Only the runs given the bus address reach it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  secretServiceMissing,
  startOAuthFixture,
  startSecretService,
  type SecretService,
} from '@garuda/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FETCH_BROWSER } from './support/paths.js';
import { worldPerTest, type CliWorld } from './support/world.js';

const missing = secretServiceMissing();
if (missing !== undefined) {
  console.warn(`\n*** ${missing}: the CLI keychain tests are SKIPPED ***\n`);
}

let world: CliWorld;
worldPerTest((created) => (world = created));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function remoteServer(): Promise<string> {
  const oauth = await startOAuthFixture();
  closers.push(() => oauth.close());
  await world.userServers({ linear: { url: oauth.url.href } });
  return oauth.url.href;
}
const browser = `${process.execPath} ${FETCH_BROWSER}`;
const authFile = () => path.join(world.home, 'mcp-auth.json');

describe('login --store', () => {
  it.runIf(process.env.GARUDA_REQUIRE_KEYRING === '1')(
    'has the Secret Service when it is required (GARUDA_REQUIRE_KEYRING=1)',
    () => {
      expect(missing).toBeUndefined();
    },
  );

  describe.skipIf(missing !== undefined)('with a private gnome-keyring', () => {
    let ss: SecretService;
    let bus: Record<string, string>;
    beforeAll(async () => {
      ss = await startSecretService();
      bus = {
        DBUS_SESSION_BUS_ADDRESS: ss.env.DBUS_SESSION_BUS_ADDRESS as string,
        GARUDA_TOKEN_STORE: '', // unset: the default, auto
      };
    });
    afterAll(async () => {
      await ss?.stop();
    });

    it('keyring: tokens in the Secret Service, a pointer in the file; status and doctor say so; logout removes both', async () => {
      await remoteServer();
      const login = await world.run(
        ['login', 'linear', '--browser', browser, '--store', 'keyring'],
        { env: bus },
      );
      expect(login.stderr).not.toContain('garuda-mcp:');
      expect(login.code).toBe(0);
      expect(login.stdout).toContain('Signed in to MCP server linear');
      expect(login.stdout).toContain(
        'The tokens are in the OS keychain (the Secret Service answered).',
      );
      const text = await readFile(authFile(), 'utf8');
      expect(text).not.toContain('access_token');
      expect(text).toContain('"store": "keyring"');
      const [account] = await ss.accounts('garuda-mcp');
      expect(await ss.lookup('garuda-mcp', account as string)).toContain('access_token');

      // A later command (auto) reads them back from the keychain.
      const status = await world.run(['status', '--json'], { env: bus });
      const parsed = JSON.parse(status.stdout) as {
        servers: { network: { signedIn: boolean } }[];
        tokenStorage: unknown;
      };
      expect(parsed.servers[0]?.network.signedIn).toBe(true);
      expect(parsed.tokenStorage).toEqual({
        requested: 'auto',
        mode: 'keyring',
        available: true,
        reason: 'the Secret Service answered',
      });
      const doctor = await world.run(['doctor'], { env: bus });
      expect(doctor.stdout).toContain(
        'Sign-in tokens\n  auto: OS keychain (the Secret Service answered)',
      );

      const logout = await world.run(['logout', 'linear'], { env: bus });
      expect(logout.stdout).toContain('Signed out of MCP server linear');
      expect(await ss.accounts('garuda-mcp')).toEqual([]);
      expect(JSON.parse(await readFile(authFile(), 'utf8'))).toEqual({ version: 1, entries: {} });
    });

    it('auto without the bus: the file, and status says why', async () => {
      await remoteServer();
      const login = await world.run(['login', 'linear', '--browser', browser], {
        env: { GARUDA_TOKEN_STORE: '' }, // unset: the default, auto
      });
      expect(login.code).toBe(0);
      expect(login.stdout).toContain(
        `The tokens are in ${authFile()} (mode 0600; no OS keychain answered: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)).`,
      );
      expect(await readFile(authFile(), 'utf8')).toContain('access_token');
      expect(await ss.accounts('garuda-mcp')).toEqual([]);
      const status = await world.run(['status'], { env: { GARUDA_TOKEN_STORE: '' } });
      expect(status.stdout).toContain(
        `Sign-in tokens: auth file ${authFile()} (mode 0600; no OS keychain answered`,
      );
    });
  });

  it('session: signed in for the run, nothing saved', async () => {
    await remoteServer();
    const login = await world.run(['login', 'linear', '--browser', browser, '--store', 'session']);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('nothing was saved');
    const auth = await readFile(authFile(), 'utf8').catch(() => '');
    expect(auth).not.toContain('access_token');
  });

  it('keyring with no keychain fails the login clearly; a wrong --store is a usage error', async () => {
    await remoteServer();
    const login = await world.run(['login', 'linear', '--browser', browser, '--store', 'keyring']);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain('the OS keychain cannot be used: no D-Bus session bus');
    const auth = await readFile(authFile(), 'utf8').catch(() => '');
    expect(auth).not.toContain('access_token');
    const bad = await world.run(['login', 'linear', '--store', 'vault']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--store must be auto');
    const badEnv = await world.run(['login', 'linear'], { env: { GARUDA_TOKEN_STORE: 'vault' } });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('$GARUDA_TOKEN_STORE must be auto');
    expect(badEnv.stderr).toContain('not "vault"');
  });
});
