// A remote server whose resource metadata starts naming another authorization server
// (SEP-2352): the sign-in follows it, registers there anew, and never shows the new server a
// client id, a refresh token or an access token of the old one. Two real OAuth fixtures on
// 127.0.0.1; the first also serves the MCP endpoint, which moves to the second.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { scriptedBrowser, type OAuthFixture } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { SignInPrompter, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** The auth file as stored: one entry per server, keyed `scope::name::url`. */
type AuthFile = { entries: Record<string, Record<string, Record<string, unknown> | undefined>> };

async function readAuthFile(): Promise<AuthFile> {
  return JSON.parse(await readFile(path.join(ws.home, 'mcp-auth.json'), 'utf8')) as AuthFile;
}

/** The one stored sign-in: its client id and tokens. */
async function storedSignIn(): Promise<{ clientId: string; access: string; refresh: string }> {
  const [entry] = Object.values((await readAuthFile()).entries);
  const clientId = entry?.client?.client_id;
  const access = entry?.tokens?.access_token;
  const refresh = entry?.tokens?.refresh_token;
  if (typeof clientId !== 'string' || typeof access !== 'string' || typeof refresh !== 'string') {
    throw new Error('no complete sign-in is stored');
  }
  return { clientId, access, refresh };
}

/** Signs in to `notes` at `first` through a manager, then closes it. */
async function signInAt(first: OAuthFixture, entry: Record<string, unknown> = {}) {
  await ws.userServers({ notes: { url: first.url.href, ...entry } });
  const browser = scriptedBrowser();
  const prompter = new SignInPrompter();
  const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
  await mcp.start();
  expect(mcp.status()[0]?.state).toBe('connected');
  expect(prompter.signIns.map((request) => request.signInOrigin)).toEqual([first.issuer]);
  await mcp.close();
  return browser;
}

/** A new manager on the same home, started: what happens after the move. */
async function startAgain(browser: ReturnType<typeof scriptedBrowser>) {
  const prompter = new SignInPrompter();
  const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
  await mcp.start();
  return { prompter, mcp };
}

describe('an authorization server that moves (SEP-2352)', () => {
  it('registers at the new server and signs in there; it never sees the old client id or tokens', async () => {
    const first = await ws.oauthFixture();
    const second = await ws.oauthFixture();
    const browser = await signInAt(first);
    const old = await storedSignIn();

    first.moveAuthorizationServer(second);
    const { prompter, mcp } = await startAgain(browser);

    expect(mcp.status()[0]).toMatchObject({ state: 'connected' });
    // One sign-in, at the new server, within the bound of sign-ins per start.
    expect(prompter.signIns.map((request) => request.signInOrigin)).toEqual([second.issuer]);
    expect(second.counts).toMatchObject({ registrations: 1, codesIssued: 1, refreshes: 0 });
    for (const value of [old.clientId, old.access, old.refresh]) {
      expect(second.heard(value)).toBe(false);
    }
    // The old server was not asked again either: no refresh, no new sign-in.
    expect(first.counts).toMatchObject({ refreshes: 0, codesIssued: 1, registrations: 1 });
    const now = await storedSignIn();
    expect(now.clientId).not.toBe(old.clientId);
    expect(second.clients.map((client) => client.clientId)).toContain(now.clientId);
    expect(unwrap((await mcp.call('mcp__notes__echo', { text: 'moved' })).text)).toBe('moved');
  });

  it('a sign-in stored without issuer stamps: its refresh token and client id never go to the new server', async () => {
    const first = await ws.oauthFixture();
    const second = await ws.oauthFixture();
    const browser = await signInAt(first);
    const old = await storedSignIn();
    // As an older version kept it: no issuer stamps, and no record of the server it came from.
    const file = await readAuthFile();
    for (const entry of Object.values(file.entries)) {
      delete entry?.client?.issuer;
      delete entry?.tokens?.issuer;
      delete entry?.discovery;
    }
    await writeFile(path.join(ws.home, 'mcp-auth.json'), JSON.stringify(file), { mode: 0o600 });

    first.moveAuthorizationServer(second);
    first.expireAllTokens();
    const { prompter, mcp } = await startAgain(browser);

    expect(mcp.status()[0]).toMatchObject({ state: 'connected' });
    expect(prompter.signIns.map((request) => request.signInOrigin)).toEqual([second.issuer]);
    expect(second.counts).toMatchObject({ registrations: 1, refreshes: 0 });
    for (const value of [old.clientId, old.access, old.refresh]) {
      expect(second.heard(value)).toBe(false);
    }
    expect(second.events.some((line) => line.includes('error'))).toBe(false);
  });

  it('a skipped sign-in does not keep the next one at the old server', async () => {
    const first = await ws.oauthFixture();
    const second = await ws.oauthFixture();
    await ws.userServers({ notes: { url: first.url.href } });
    const browser = scriptedBrowser();
    const skipping = new SignInPrompter();
    skipping.signInAnswer = false;
    const skipped = ws.manager(skipping, { openBrowser: (url) => browser.open(url) });
    await skipped.start();
    expect(skipped.status()[0]?.state).toBe('failed');
    expect(skipping.signIns.map((request) => request.signInOrigin)).toEqual([first.issuer]);
    await skipped.close();

    first.moveAuthorizationServer(second);
    const { prompter, mcp } = await startAgain(browser);
    expect(mcp.status()[0]).toMatchObject({ state: 'connected' });
    expect(prompter.signIns.map((request) => request.signInOrigin)).toEqual([second.issuer]);
    expect(first.counts.authorizations).toBe(0);
  });

  it('a configured client id is never sent to the new server: the reason says what to set', async () => {
    const first = await ws.oauthFixture({ registration: false });
    const second = await ws.oauthFixture({ registration: false });
    const clientId = first.preRegisteredClientId;
    const browser = await signInAt(first, { oauth: { clientId } });

    first.moveAuthorizationServer(second);
    const { prompter, mcp } = await startAgain(browser);

    const row = mcp.status()[0];
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain(
      `now sends sign-ins to the authorization server "${second.issuer}"`,
    );
    expect(row?.detail).toContain('"oauth": { "clientId"');
    expect(prompter.signIns).toHaveLength(0);
    expect(second.heard(clientId)).toBe(false);
    expect(second.counts.authorizations).toBe(0);
  });
});
