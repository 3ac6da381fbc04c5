// The manager's tokenStorage option: where the tokens of a sign-in go, and what
// tokenStorage() says. The OS keychain part runs against a private gnome-keyring started for
// this file (see mcp-oauth's keyring tests); skipped loudly without one, and a failure when
// GARUDA_REQUIRE_KEYRING=1. The bus address goes only into the manager's env.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { secretServiceMissing, startSecretService, type SecretService } from '@garuda/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../src/index.js';
import { SignInPrompter, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();
const missing = secretServiceMissing();

describe('tokenStorage', () => {
  it('session: signed in and calling, with nothing written to mcp-auth.json', async () => {
    const { mcp } = await ws.signInScene({ options: { storage: { tokenStorage: 'session' } } });
    expect(mcp.status()[0]).toMatchObject({ state: 'connected', network: { signedIn: true } });
    expect(unwrap((await mcp.call('mcp__linear__echo', { text: 'kept' })).text)).toBe('kept');
    await expect(access(path.join(ws.home, 'mcp-auth.json'))).rejects.toThrow();
    expect(await mcp.tokenStorage()).toMatchObject({ requested: 'session', mode: 'session' });
  });

  it('auto without a session bus in env: the file, and says why', async () => {
    const { mcp } = await ws.signInScene({ options: { storage: { tokenStorage: 'auto' } } });
    expect(await mcp.tokenStorage()).toEqual({
      requested: 'auto',
      mode: 'file',
      available: true,
      reason: 'no OS keychain answered: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
    });
    expect(await readFile(path.join(ws.home, 'mcp-auth.json'), 'utf8')).toContain('access_token');
  });

  it('the default is the file', async () => {
    const mcp = ws.manager(new SignInPrompter());
    expect(await mcp.tokenStorage()).toMatchObject({ requested: 'file', mode: 'file' });
  });

  it('refuses an unknown storage', () => {
    expect(() =>
      ws.manager(new SignInPrompter(), { storage: { tokenStorage: 'disk' as never } }),
    ).toThrow(InvalidOptionsError);
  });
});

describe.skipIf(missing !== undefined)('tokenStorage keyring, with a private gnome-keyring', () => {
  let ss: SecretService;
  beforeAll(async () => {
    ss = await startSecretService();
  });
  afterAll(async () => {
    await ss?.stop();
  });

  it('keeps the tokens in the Secret Service, and logout removes them there too', async () => {
    const env = { PATH: process.env.PATH, HOME: ws.userHome, ...ss.env };
    const { mcp } = await ws.signInScene({ options: { storage: { tokenStorage: 'auto' }, env } });
    expect(await mcp.tokenStorage()).toMatchObject({ mode: 'keyring', available: true });
    expect(mcp.status()[0]).toMatchObject({ state: 'connected', network: { signedIn: true } });
    const text = await readFile(path.join(ws.home, 'mcp-auth.json'), 'utf8');
    expect(text).not.toContain('access_token');
    expect(text).toContain('"store": "keyring"');
    expect(await ss.accounts('garuda-mcp')).toHaveLength(1);

    // A second manager (default file storage) reads the keychain entry the pointer names.
    const again = ws.manager(new SignInPrompter(), { env });
    await again.start();
    expect(again.status()[0]).toMatchObject({ state: 'connected', network: { signedIn: true } });

    const result = await again.logout('linear');
    expect(result.removed).toBe(1);
    expect(await ss.accounts('garuda-mcp')).toEqual([]);
  });
});
