// The `oauth` block of a remote server and the sign-ins a call needs: which client identity is
// used (a pre-registered id > a Client ID Metadata Document > dynamic registration > a clear
// error), which scopes are asked for, and the step-up when a tool needs more access.
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { scriptedBrowser } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { CallFailedError, SignInRequiredError } from '../src/index.js';
import { SignInPrompter, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

const CIMD = 'https://garuda.example/oauth/client.json';
const OTHER_CIMD = 'https://agent.example/mcp/client-metadata.json';
const document = (url: string) => ({
  client_id: url,
  client_name: 'Garuda',
  redirect_uris: ['http://127.0.0.1/callback'],
});

function scopesOf(request: Readonly<Record<string, string>> | undefined): string[] {
  return (request?.scope ?? '').split(' ').filter(Boolean).sort();
}

/** Holds a TCP port on 127.0.0.1 until the test ends. */
async function occupy(port: number): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  ws.defer(() => new Promise((resolve) => server.close(() => resolve())));
}

describe('the OAuth client identity, in the order of preference', () => {
  it('a pre-registered clientId is used as it is and never registered, even on a new port', async () => {
    const oauth = await ws.oauthFixture({ registration: true });
    await ws.userServers({
      notes: { url: oauth.url.href, oauth: { clientId: oauth.preRegisteredClientId } },
    });
    const browser = scriptedBrowser();
    const first = new SignInPrompter();
    const mcp = ws.manager(first, {
      openBrowser: (url) => browser.open(url),
      remote: { clientMetadataUrl: CIMD },
    });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(oauth.lastAuthorizationRequest?.client_id).toBe(oauth.preRegisteredClientId);
    const port = Number(new URL(first.signIns[0]?.callback ?? '').port);
    await mcp.close();

    // The sign-in is lost and its callback port is taken: a new sign-in on another port, with
    // the same client id.
    oauth.revokeAll();
    await occupy(port);
    const second = new SignInPrompter();
    const again = ws.manager(second, { openBrowser: (url) => browser.open(url) });
    await again.start();
    expect(again.status()[0]?.state).toBe('connected');
    expect(second.signIns).toHaveLength(1);
    expect(Number(new URL(second.signIns[0]?.callback ?? '').port)).not.toBe(port);
    expect(oauth.lastAuthorizationRequest?.client_id).toBe(oauth.preRegisteredClientId);
    expect(oauth.counts.registrations).toBe(0);
    expect(oauth.counts.codesIssued).toBe(2);
  });

  it("the host's Client ID Metadata Document, where the authorization server takes them", async () => {
    const oauth = await ws.oauthFixture({ clientMetadataDocuments: { [CIMD]: document(CIMD) } });
    await ws.userServers({ notes: { url: oauth.url.href } });
    const browser = scriptedBrowser();
    const mcp = ws.manager(new SignInPrompter(), {
      openBrowser: (url) => browser.open(url),
      remote: { clientMetadataUrl: CIMD },
    });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(oauth.lastAuthorizationRequest?.client_id).toBe(CIMD);
    expect(oauth.counts).toMatchObject({ registrations: 0, metadataDocuments: 1 });
    expect(unwrap((await mcp.call('mcp__notes__echo', { text: 'cimd' })).text)).toBe('cimd');
  });

  it("a server's own clientMetadataUrl overrides the host's", async () => {
    const oauth = await ws.oauthFixture({
      clientMetadataDocuments: { [CIMD]: document(CIMD), [OTHER_CIMD]: document(OTHER_CIMD) },
    });
    await ws.userServers({
      notes: { url: oauth.url.href, oauth: { clientMetadataUrl: OTHER_CIMD } },
    });
    const mcp = ws.manager(new SignInPrompter(), {
      openBrowser: (url) => scriptedBrowser().open(url),
      remote: { clientMetadataUrl: CIMD },
    });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(oauth.lastAuthorizationRequest?.client_id).toBe(OTHER_CIMD);
    expect(oauth.counts.registrations).toBe(0);
  });

  it('an authorization server without metadata documents gets a dynamic registration', async () => {
    const oauth = await ws.oauthFixture();
    await ws.userServers({ notes: { url: oauth.url.href } });
    const mcp = ws.manager(new SignInPrompter(), {
      openBrowser: (url) => scriptedBrowser().open(url),
      remote: { clientMetadataUrl: CIMD },
    });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(oauth.counts).toMatchObject({ registrations: 1, metadataDocuments: 0 });
    expect(oauth.lastAuthorizationRequest?.client_id).toMatch(/^fixture-client-/);
  });

  it('with no way to get a client, the reason says what to configure; no browser opens', async () => {
    const oauth = await ws.oauthFixture({ registration: false });
    await ws.userServers({ notes: { url: oauth.url.href } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    const row = mcp.status()[0];
    expect(row?.state).toBe('failed');
    expect(row?.detail).toMatch(/no dynamic client registration/);
    expect(row?.detail).toMatch(/"oauth": \{ "clientId"/);
    expect(prompter.signIns).toHaveLength(0);
    expect(browser.visits).toHaveLength(0);
    expect(oauth.counts.authorizations).toBe(0);
  });
});

describe('the scopes a sign-in asks for', () => {
  it('configured scopes together with what the challenge asks for', async () => {
    const oauth = await ws.oauthFixture({
      scopes: ['mcp:tools', 'notes:read', 'admin'],
      challengeScope: 'mcp:tools',
    });
    await ws.userServers({ notes: { url: oauth.url.href, oauth: { scopes: ['notes:read'] } } });
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => scriptedBrowser().open(url) });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(scopesOf(oauth.lastAuthorizationRequest)).toEqual(['mcp:tools', 'notes:read']);
    expect([...(prompter.signIns[0]?.scopes ?? [])].sort()).toEqual(['mcp:tools', 'notes:read']);
  });

  it('configured scopes replace asking for every scope the server lists', async () => {
    const oauth = await ws.oauthFixture({ scopes: ['mcp:tools', 'notes:read', 'admin'] });
    await ws.userServers({ notes: { url: oauth.url.href, oauth: { scopes: ['notes:read'] } } });
    const mcp = ws.manager(new SignInPrompter(), {
      openBrowser: (url) => scriptedBrowser().open(url),
    });
    await mcp.start();
    expect(scopesOf(oauth.lastAuthorizationRequest)).toEqual(['notes:read']);
  });

  it('without configured scopes, every scope the server lists (the spec default)', async () => {
    const oauth = await ws.oauthFixture({ scopes: ['mcp:tools', 'notes:read'] });
    await ws.userServers({ notes: { url: oauth.url.href } });
    const mcp = ws.manager(new SignInPrompter(), {
      openBrowser: (url) => scriptedBrowser().open(url),
    });
    await mcp.start();
    expect(scopesOf(oauth.lastAuthorizationRequest)).toEqual(['mcp:tools', 'notes:read']);
  });
});

describe('a call that needs more access (403 insufficient_scope)', () => {
  const scoped = {
    mode: 'scoped',
    scopes: ['mcp:tools', 'mcp:write'],
    challengeScope: 'mcp:tools',
  } as const;

  it('asks again naming the scopes, signs in with the union, and retries the call once', async () => {
    const oauth = await ws.oauthFixture(scoped);
    await ws.userServers({ notes: { url: oauth.url.href } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    expect(prompter.signIns.map((r) => r.reason)).toEqual(['required']);
    expect(scopesOf(oauth.lastAuthorizationRequest)).toEqual(['mcp:tools']);

    const result = await mcp.call('mcp__notes__write_note', { text: 'hi' });
    expect(unwrap(result.text)).toBe('stored: hi');
    expect(prompter.signIns).toHaveLength(2);
    expect(prompter.signIns[1]).toMatchObject({
      server: 'notes',
      reason: 'more-access',
      addedScopes: ['mcp:write'],
    });
    expect([...(prompter.signIns[1]?.scopes ?? [])].sort()).toEqual(['mcp:tools', 'mcp:write']);
    expect(scopesOf(oauth.lastAuthorizationRequest)).toEqual(['mcp:tools', 'mcp:write']);
    expect(oauth.counts).toMatchObject({ insufficientScope: 1, codesIssued: 2 });
    // The wider sign-in is kept: the next call needs no question.
    expect(unwrap((await mcp.call('mcp__notes__write_note', { text: 'again' })).text)).toBe(
      'stored: again',
    );
    expect(prompter.signIns).toHaveLength(2);
    expect(mcp.status()[0]).toMatchObject({ state: 'connected' });
    const auth = await readFile(path.join(ws.home, 'mcp-auth.json'), 'utf8');
    expect(auth).toContain('mcp:write');
  });

  it('a skipped step-up fails the call with the scopes to sign in for; signIn() then adds them', async () => {
    const oauth = await ws.oauthFixture(scoped);
    await ws.userServers({ notes: { url: oauth.url.href } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    prompter.signInAnswer = (request) => request.reason !== 'more-access';
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();

    const failed = await mcp
      .call('mcp__notes__write_note', { text: 'hi' })
      .catch((e: unknown) => e);
    expect(SignInRequiredError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({
      code: 'MANAGER_SIGN_IN_REQUIRED',
      server: 'notes',
      reason: 'more-access',
      addedScopes: ['mcp:write'],
    });
    expect((failed as Error).message).toMatch(
      /needs more access to MCP server "notes" \(the scope "mcp:write"\)/,
    );
    expect(mcp.status()[0]?.state).toBe('connected');
    // The tools that need no more still work.
    expect(unwrap((await mcp.call('mcp__notes__echo', { text: 'ok' })).text)).toBe('ok');

    prompter.signInAnswer = true;
    await mcp.signIn('notes', { scopes: ['mcp:write'] });
    expect(prompter.signIns.at(-1)).toMatchObject({
      reason: 'more-access',
      addedScopes: ['mcp:write'],
    });
    expect(scopesOf(oauth.lastAuthorizationRequest)).toEqual(['mcp:tools', 'mcp:write']);
    expect(mcp.status()[0]?.state).toBe('connected');
    expect(unwrap((await mcp.call('mcp__notes__write_note', { text: 'now' })).text)).toBe(
      'stored: now',
    );
  });

  it('stops after 3 sign-ins when the server keeps asking for more', async () => {
    const oauth = await ws.oauthFixture({ ...scoped, dropScopes: ['mcp:write'] });
    await ws.userServers({ notes: { url: oauth.url.href } });
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => scriptedBrowser().open(url) });
    await mcp.start();
    const failed = await mcp
      .call('mcp__notes__write_note', { text: 'hi' })
      .catch((e: unknown) => e);
    expect(CallFailedError.isInstance(failed)).toBe(true);
    expect((failed as Error).message).toMatch(/still refused the call after 3 new sign-ins/);
    expect(prompter.signIns.map((r) => r.reason)).toEqual([
      'required',
      'more-access',
      'more-access',
      'more-access',
    ]);
  });
});
