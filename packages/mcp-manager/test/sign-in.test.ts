// Sign-in to remote servers with OAuth, against the OAuth fixture and a scripted browser.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { browserThatPastes, scriptedBrowser, startOAuthFixture } from '@garuda/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SignInRequest } from '../src/types.js';
import { ScriptedPrompter, Workspace, unwrap } from './support.js';

let ws: Workspace;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  ws = await Workspace.create();
});
afterEach(async () => {
  await ws.cleanup();
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A prompter that also answers the sign-in question. */
class SignInPrompter extends ScriptedPrompter {
  readonly signIns: SignInRequest[] = [];
  signInAnswer = true;
  signIn(request: SignInRequest): Promise<boolean> {
    this.signIns.push(request);
    return Promise.resolve(this.signInAnswer);
  }
}

/** Collects everything the manager logs. */
function recordingLogger() {
  const lines: string[] = [];
  const log = (message: string) => void lines.push(message);
  return { lines, logger: { debug: log, info: log, warn: log, error: log } };
}

async function oauthFixture(options: Parameters<typeof startOAuthFixture>[0] = {}) {
  const fixture = await startOAuthFixture(options);
  closers.push(() => fixture.close());
  return fixture;
}

/** Every token value in the auth file. */
async function storedSecrets(home: string): Promise<string[]> {
  const text = await readFile(path.join(home, 'mcp-auth.json'), 'utf8');
  return [...text.matchAll(/"(?:access_token|refresh_token)"\s*:\s*"([^"]+)"/g)].map(
    (match) => match[1] as string,
  );
}

describe('sign-in to a user remote server', () => {
  it('signs in through the browser, calls, and a second manager reuses the tokens', async () => {
    const oauth = await oauthFixture();
    await ws.userServers({ linear: { url: oauth.url } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    const { lines, logger } = recordingLogger();
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url), logger });
    await mcp.start();

    expect(prompter.signIns).toEqual([
      {
        server: 'linear',
        url: String(oauth.url),
        signInOrigin: oauth.issuer,
        callback: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
      },
    ]);
    expect(browser.visits).toHaveLength(1);
    expect(mcp.status()[0]).toMatchObject({
      state: 'connected',
      network: `remote ${String(oauth.url)} · signed in`,
    });
    const result = await mcp.call('mcp__linear__echo', { text: 'signed' });
    expect(unwrap(result.text)).toBe('signed');
    expect(prompter.notices.some((text) => text.includes('Sign in to MCP server "linear"'))).toBe(
      true,
    );

    const again = new SignInPrompter();
    const second = ws.manager(again, { openBrowser: (url) => browser.open(url), logger });
    await second.start();
    expect(again.signIns).toHaveLength(0);
    expect(second.status()[0]?.network).toBe(`remote ${String(oauth.url)} · signed in`);
    expect(oauth.counts.codesIssued).toBe(1);

    const secrets = await storedSecrets(ws.home);
    expect(secrets.length).toBeGreaterThan(0);
    const visible = JSON.stringify([
      prompter.notices,
      again.notices,
      lines,
      mcp.status(),
      second.status(),
      mcp.takeNotes(),
    ]);
    for (const secret of secrets) expect(visible).not.toContain(secret);
  });

  it('a skipped sign-in fails the server with a note; no browser opens', async () => {
    const oauth = await oauthFixture();
    await ws.userServers({ linear: { url: oauth.url } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    prompter.signInAnswer = false;
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      detail: 'it needs a sign-in, and you skipped it',
    });
    expect(browser.visits).toHaveLength(0);
    expect(mcp.takeNotes().join('\n')).toContain('it needs a sign-in, and you skipped it');
  });

  it('a prompter without signIn counts as a skip', async () => {
    const oauth = await oauthFixture();
    await ws.userServers({ linear: { url: oauth.url } });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter, { openBrowser: () => undefined });
    await mcp.start();
    expect(mcp.status()[0]?.detail).toBe('it needs a sign-in, and you skipped it');
  });

  it('a denied sign-in fails with only the short error code', async () => {
    const oauth = await oauthFixture({ deny: true });
    await ws.userServers({ linear: { url: oauth.url } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain('access_denied');
    const visible = JSON.stringify([row, prompter.notices, mcp.takeNotes()]);
    expect(visible).not.toMatch(/assistant|\\u001b|\x1b|\x07/i);
  });

  it('an authorization server without PKCE is refused before any browser opens', async () => {
    const oauth = await oauthFixture({ advertisePkce: false });
    await ws.userServers({ linear: { url: oauth.url } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toMatch(/S256|PKCE/);
    expect(browser.visits).toHaveLength(0);
    expect(prompter.signIns).toHaveLength(0);
    expect(oauth.counts.authorizations).toBe(0);
  });

  it('logout revokes the tokens, and the next manager asks again', async () => {
    const oauth = await oauthFixture();
    await ws.userServers({ linear: { url: oauth.url } });
    const browser = scriptedBrowser();
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    const result = await mcp.logout('linear');
    expect(result.ok).toBe(true);
    expect(oauth.counts.revocations).toBeGreaterThan(0);
    expect(await storedSecrets(ws.home)).toEqual([]);

    const next = new SignInPrompter();
    next.signInAnswer = false;
    const second = ws.manager(next, { openBrowser: (url) => browser.open(url) });
    await second.start();
    expect(next.signIns).toHaveLength(1);
    expect(second.status()[0]?.state).toBe('failed');
  });

  it('a static Authorization header wins over OAuth', async () => {
    const oauth = await oauthFixture();
    await ws.userServers({ linear: { url: oauth.url, headers: { Authorization: 'Bearer nope' } } });
    const prompter = new SignInPrompter();
    const mcp = ws.manager(prompter, { openBrowser: () => undefined });
    await mcp.start();
    expect(prompter.signIns).toHaveLength(0);
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      network: `remote ${String(oauth.url)} · no sign-in`,
    });
  });

  it('a pasted redirect address finishes the sign-in (a browser on another machine)', async () => {
    const oauth = await oauthFixture();
    await ws.userServers({ linear: { url: oauth.url } });
    const browser = browserThatPastes();
    const prompter = new SignInPrompter();
    const pasted: SignInRequest[] = [];
    Object.assign(prompter, {
      pasteRedirect: async (request: SignInRequest) => {
        pasted.push(request);
        return `  ${await browser.nextRedirect()}\n`;
      },
    });
    const mcp = ws.manager(prompter, { openBrowser: (url) => browser.open(url) });
    await mcp.start();
    expect(pasted).toHaveLength(1);
    expect(mcp.status()[0]).toMatchObject({
      state: 'connected',
      network: `remote ${String(oauth.url)} · signed in`,
    });
  });
});
