// Sign-in to remote servers with OAuth, against the OAuth fixture and a scripted browser.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import net from 'node:net';
import { createPinnedFetch, type PinnedFetchOptions } from '@garuda/pinned-fetch';
import {
  INSECURE_AUTHORIZATION_HOST,
  browserThatPastes,
  makeCertificate,
  recordingLogger,
  scriptedBrowser,
  waitFor,
  type OAuthFixtureOptions,
  type TestCertificate,
} from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { StartCancelledError } from '../src/index.js';
import type { ConsentAnswer, SignInRequest } from '../src/types.js';
import {
  ScriptedPrompter,
  SignInPrompter,
  fixedLookup,
  unwrap,
  useWorkspace,
} from './support/e2e.js';

const ws = useWorkspace();

/** Every token value in the auth file. */
async function storedSecrets(home: string): Promise<string[]> {
  const text = await readFile(path.join(home, 'mcp-auth.json'), 'utf8');
  return [...text.matchAll(/"(?:access_token|refresh_token)"\s*:\s*"([^"]+)"/g)].map(
    (match) => match[1] as string,
  );
}

describe('sign-in to a user remote server', () => {
  it('signs in through the browser, calls, and a second manager reuses the tokens', async () => {
    const log = recordingLogger();
    const { oauth, browser, prompter, mcp } = await ws.signInScene({
      options: { logger: log.logger },
    });

    expect(prompter.signIns).toEqual([
      {
        server: 'linear',
        url: String(oauth.url),
        signInOrigin: oauth.issuer,
        callback: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
        reason: 'required',
        scopes: ['mcp:tools'],
        addedScopes: [],
      },
    ]);
    expect(browser.visits).toHaveLength(1);
    expect(mcp.status()[0]).toMatchObject({
      state: 'connected',
      network: { kind: 'remote', url: String(oauth.url), signedIn: true },
    });
    const result = await mcp.call('mcp__linear__echo', { text: 'signed' });
    expect(unwrap(result.text)).toBe('signed');
    expect(prompter.notices.some((text) => text.includes('Sign in to MCP server "linear"'))).toBe(
      true,
    );

    const again = new SignInPrompter();
    const second = ws.manager(again, {
      openBrowser: (url) => browser.open(url),
      logger: log.logger,
    });
    await second.start();
    expect(again.signIns).toHaveLength(0);
    expect(second.status()[0]?.network).toEqual({
      kind: 'remote',
      url: String(oauth.url),
      signedIn: true,
    });
    expect(oauth.counts.codesIssued).toBe(1);

    const secrets = await storedSecrets(ws.home);
    expect(secrets.length).toBeGreaterThan(0);
    const visible = JSON.stringify([
      prompter.notices,
      again.notices,
      log.all(),
      mcp.status(),
      second.status(),
      mcp.takeNotes(),
    ]);
    for (const secret of secrets) expect(visible).not.toContain(secret);
  });

  it('a skipped sign-in fails the server with a note; no browser opens', async () => {
    const prompter = new SignInPrompter();
    prompter.signInAnswer = false;
    const { browser, mcp } = await ws.signInScene({ prompter });
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      detail: 'it needs a sign-in, and you skipped it',
    });
    expect(browser.visits).toHaveLength(0);
    expect(mcp.takeNotes().join('\n')).toContain('it needs a sign-in, and you skipped it');
  });

  it('a prompter without signIn: nobody was asked, and the reason says so', async () => {
    const { mcp } = await ws.signInScene({
      prompter: new ScriptedPrompter(),
      options: { openBrowser: () => undefined },
    });
    expect(mcp.status()[0]?.detail).toBe(
      'it needs a sign-in, and nobody could be asked (sign in to it first)',
    );
  });

  it('a denied sign-in fails with only the short error code', async () => {
    const { prompter, mcp } = await ws.signInScene({ fixture: { deny: true } });
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toContain('access_denied');
    const visible = JSON.stringify([row, prompter.notices, mcp.takeNotes()]);
    expect(visible).not.toMatch(/assistant|\\u001b|\x1b|\x07/i);
  });

  it('an authorization server without PKCE is refused before any browser opens', async () => {
    const { oauth, browser, prompter, mcp } = await ws.signInScene({
      fixture: { advertisePkce: false },
    });
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toMatch(/S256|PKCE/);
    expect(browser.visits).toHaveLength(0);
    expect(prompter.signIns).toHaveLength(0);
    expect(oauth.counts.authorizations).toBe(0);
  });

  it('logout revokes the tokens, and the next manager asks again', async () => {
    const { oauth, browser, mcp } = await ws.signInScene();
    expect(mcp.status()[0]?.state).toBe('connected');
    const result = await mcp.logout('linear');
    expect(result.ok).toBe(true);
    // The signed-in connection ends with the sign-in: its tools fail, status says why.
    expect(mcp.status()[0]).toMatchObject({
      state: 'stopped',
      detail: 'you signed out (reload it to sign in again)',
      network: { kind: 'remote', url: String(oauth.url), signedIn: false },
    });
    await expect(mcp.call('mcp__linear__echo', { text: 'x' })).rejects.toMatchObject({
      code: 'MANAGER_SERVER_NOT_CONNECTED',
    });
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
    const { oauth, prompter, mcp } = await ws.signInScene({
      entry: { headers: { Authorization: 'Bearer nope' } },
      options: { openBrowser: () => undefined },
    });
    expect(prompter.signIns).toHaveLength(0);
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      network: { kind: 'remote', url: String(oauth.url), signedIn: false },
    });
  });

  it('a pasted redirect address finishes the sign-in (a browser on another machine)', async () => {
    const browser = browserThatPastes();
    const prompter = new SignInPrompter();
    const pasted: SignInRequest[] = [];
    Object.assign(prompter, {
      pasteRedirect: async (request: SignInRequest) => {
        pasted.push(request);
        return `  ${await browser.nextRedirect()}\n`;
      },
    });
    const { oauth, mcp } = await ws.signInScene({
      prompter,
      options: { openBrowser: (url) => browser.open(url) },
    });
    expect(pasted).toHaveLength(1);
    expect(mcp.status()[0]).toMatchObject({
      state: 'connected',
      network: { kind: 'remote', url: String(oauth.url), signedIn: true },
    });
  });
});

describe('sign-in limits, refresh and cancel (user server)', () => {
  it('a server that keeps refusing fresh tokens stops after 3 sign-ins', async () => {
    const { oauth, browser, prompter, mcp } = await ws.signInScene({
      fixture: { rejectEveryToken: true },
    });
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      detail: 'it still asked for a sign-in after 3 sign-ins',
    });
    expect(prompter.signIns).toHaveLength(3);
    expect(browser.visits).toHaveLength(3);
    expect(oauth.counts.codesIssued).toBe(3);
  });

  it('an expired access token is refreshed during a call, without a question', async () => {
    const log = recordingLogger();
    const { oauth, browser, prompter, mcp } = await ws.signInScene({
      options: { logger: log.logger },
    });
    expect(mcp.status()[0]?.state).toBe('connected');
    const before = await storedSecrets(ws.home);

    oauth.expireAllTokens();
    const result = await mcp.call('mcp__linear__echo', { text: 'after expiry' });
    expect(unwrap(result.text)).toBe('after expiry');
    expect(oauth.counts.refreshes).toBe(1);
    expect(oauth.counts.rejectedTokens).toBeGreaterThan(0);
    expect(prompter.signIns).toHaveLength(1);
    expect(browser.visits).toHaveLength(1);
    // The rotated tokens replaced the old ones on disk; none of them reached a log line.
    const after = await storedSecrets(ws.home);
    expect(after).toHaveLength(2);
    expect(after.some((secret) => before.includes(secret))).toBe(false);
    const visible = [...log.all(), ...prompter.notices, ...mcp.takeNotes()].join('\n');
    for (const secret of [...before, ...after]) expect(visible).not.toContain(secret);
  });

  it('Ctrl-C while waiting for the browser ends the start, frees the callback port, and keeps nothing half done', async () => {
    const oauth = await ws.oauthFixture();
    await ws.userServers({ linear: { url: oauth.url } });
    const prompter = new SignInPrompter();
    const opened: string[] = [];
    // The browser "opens" but the user never finishes the sign-in.
    const mcp = ws.manager(prompter, { openBrowser: (url) => void opened.push(url) });
    const stop = new AbortController();
    const started = mcp.start({ signal: stop.signal });
    await waitFor(() => opened.length === 1);
    const callback = new URL(prompter.signIns[0]?.callback ?? '');
    const port = Number(callback.port);
    expect(await canListen(port)).toBe(false);

    // Ended by the abort: without it the start would wait for the browser until its own time
    // limit and fail with a timeout, not a cancel (no clock needed to tell them apart).
    stop.abort();
    const failure = await started.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(StartCancelledError.isInstance(failure)).toBe(true);
    expect(mcp.status()[0]?.state).not.toBe('connected');
    await waitFor(() => canListen(port));
    // The sign-in never finished: no tokens on disk, and no code was redeemed.
    expect(await storedSecrets(ws.home)).toEqual([]);
    expect(oauth.counts.tokensIssued).toBe(0);
  });
});

/** True when something can listen on 127.0.0.1:`port` right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe("sign-in to a project's remote server (https, pinned fetch)", () => {
  const HOST = 'mcp.oauth-fixture.test';
  let certificate: TestCertificate;
  beforeEach(async () => {
    certificate ??= await makeCertificate(HOST);
  });

  /**
   * The manager's strict fetch for this suite: HOST resolves to the fixture (loopback allowed),
   * its certificate is trusted, and every name it looks up is recorded in `resolved`. The global
   * fetch cannot resolve HOST, so a request that reaches the fixture went through this one.
   */
  function projectFetchOptions(resolved: string[] = []): PinnedFetchOptions {
    const lookup = fixedLookup(['127.0.0.1'], resolved);
    return { lookup, allowLoopback: true, tls: { ca: certificate.cert } };
  }

  /** The same strict fetch for the scripted browser. */
  function projectFetch() {
    const pinned = createPinnedFetch(projectFetchOptions());
    ws.defer(() => pinned.close());
    return pinned as unknown as typeof fetch;
  }

  /**
   * A project's remote server `remote` on a new https OAuth fixture, a scripted browser on the
   * strict fetch, a prompter that answers its consent with `answer`, and the manager options
   * that sign in through them.
   */
  async function projectScene(fixture: OAuthFixtureOptions = {}, answer: ConsentAnswer = 'once') {
    const oauth = await ws.oauthFixture({ tls: { ...certificate, hostname: HOST }, ...fixture });
    await ws.projectServers({ remote: { url: oauth.url.href } });
    const browser = scriptedBrowser({ extraHosts: [HOST], fetch: projectFetch() });
    const prompter = new SignInPrompter();
    prompter.answer = answer;
    const options = {
      remote: { projectFetchOptions: projectFetchOptions() },
      openBrowser: (url: string) => browser.open(url),
    };
    return { oauth, browser, prompter, options };
  }

  it('asks consent, then signs in over https through the pinned fetch, and calls', async () => {
    const { oauth, browser, prompter } = await projectScene({}, 'remember');
    expect(oauth.url.href).toMatch(/^https:\/\/mcp\.oauth-fixture\.test:\d+\/mcp$/);
    const resolved: string[] = [];
    const log = recordingLogger();
    const mcp = ws.manager(prompter, {
      remote: { projectFetchOptions: projectFetchOptions(resolved) },
      openBrowser: (url, options) => {
        // A project server's sign-in page may never be plain http.
        expect(options.allowHttpLoopback).toBe(false);
        return browser.open(url);
      },
      logger: log.logger,
    });
    await mcp.start();

    expect(prompter.consents).toHaveLength(1);
    expect(prompter.signIns).toEqual([
      {
        server: 'remote',
        url: oauth.url.href,
        signInOrigin: oauth.issuer,
        callback: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
        reason: 'required',
        scopes: ['mcp:tools'],
        addedScopes: [],
      },
    ]);
    expect(browser.visits[0]).toMatchObject({ authorizationStatus: 302, callbackStatus: 200 });
    expect(mcp.status()[0]).toMatchObject({
      source: 'project',
      state: 'connected',
      network: { kind: 'remote', url: oauth.url.href, signedIn: true },
    });
    const result = await mcp.call('mcp__remote__echo', { text: 'over tls' });
    expect(unwrap(result.text)).toBe('over tls');
    // Discovery, registration, token and MCP requests all went through the pinned fetch.
    expect(resolved.length).toBeGreaterThan(0);
    expect(new Set(resolved)).toEqual(new Set([HOST]));
    expect(oauth.counts).toMatchObject({ registrations: 1, tokensIssued: 1 });
    const secrets = await storedSecrets(ws.home);
    expect(secrets).toHaveLength(2);
    const visible = [...log.all(), ...prompter.notices, ...mcp.takeNotes()].join('\n');
    for (const secret of secrets) expect(visible).not.toContain(secret);
    const config = await readFile(path.join(ws.root, '.garuda', 'mcp.json'), 'utf8');
    for (const secret of secrets) expect(config).not.toContain(secret);
  });

  it('logout before start() revokes a project sign-in through the strict fetch, never the global one', async () => {
    const { oauth, prompter, options } = await projectScene();
    const first = ws.manager(prompter, options);
    await first.start();
    expect(first.status()[0]?.state).toBe('connected');
    await first.close();

    // Only the strict fetch resolves HOST: a revocation that reached the fixture went through it.
    const strict: string[] = [];
    const second = ws.manager(new SignInPrompter(), {
      remote: { projectFetchOptions: projectFetchOptions(strict) },
    });
    const result = await second.logout('remote');
    expect(result).toMatchObject({ removed: 1, ok: true });
    expect(strict).toContain(HOST);
    expect(oauth.counts.revocations).toBeGreaterThan(0);
    expect(await storedSecrets(ws.home)).toEqual([]);
  });

  it('an http: authorization endpoint is refused before any question or browser', async () => {
    const { oauth, browser, prompter, options } = await projectScene({
      httpAuthorizationEndpoint: true,
    });
    const mcp = ws.manager(prompter, options);
    await mcp.start();
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toMatch(/https/);
    expect(row?.detail).toContain(INSECURE_AUTHORIZATION_HOST);
    expect(prompter.signIns).toHaveLength(0);
    expect(browser.visits).toHaveLength(0);
    expect(oauth.counts.authorizations).toBe(0);
  });

  it('a certificate the pinned fetch does not trust fails the server before any sign-in', async () => {
    const { oauth, prompter } = await projectScene();
    const mcp = ws.manager(prompter, {
      // The strict fetch without the fixture's certificate.
      remote: { projectFetchOptions: { lookup: fixedLookup(), allowLoopback: true } },
      openBrowser: () => undefined,
    });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('failed');
    expect(mcp.status()[0]?.detail).toMatch(
      /^it could not connect to https:\/\/[^:]+:\d+: its TLS certificate .*not trusted/,
    );
    expect(prompter.signIns).toHaveLength(0);
    expect(oauth.counts.mcpRequests).toBe(0);
  });
});
