// Remote (Streamable HTTP) servers: a user's server over the normal fetch, a project's server
// after consent and over the pinned fetch (public addresses only).
import { makeCertificate } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { UnknownServerError } from '../src/index.js';
import {
  ScriptedPrompter,
  fixedLookup,
  fixture,
  marker,
  unwrap,
  useWorkspace,
} from './support/e2e.js';

/** A project's remote server's name: only the tests' strict fetch resolves it. */
const HOST = 'mcp.example.test';

const ws = useWorkspace();

describe('a user remote server', () => {
  it('connects without sign-in, lists tools, calls work, status says remote', async () => {
    let seen: string | undefined;
    const fixture = await ws.httpFixture({
      requireBearer: (token) => {
        seen = token;
        return token === 'static-token';
      },
    });
    await ws.userServers({
      web: { url: fixture.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } },
    });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter, {
      env: { PATH: process.env.PATH, WEB_TOKEN: 'static-token' },
    });
    await mcp.start();
    expect(prompter.consents).toHaveLength(0);
    expect(seen).toBe('static-token');
    expect(mcp.tools().map((tool) => tool.name)).toContain('mcp__web__echo');
    const result = await mcp.call('mcp__web__echo', { text: 'over http' });
    expect(unwrap(result.text)).toBe('over http');
    const [row] = mcp.status();
    expect(row).toMatchObject({
      name: 'web',
      state: 'connected',
      sandbox: { kind: 'remote' },
      network: { kind: 'remote', url: String(fixture.url), signedIn: false },
    });
  });
});

describe('a project remote server', () => {
  it('asks consent first, then is pinned like a local one', async () => {
    const fixture = await ws.httpFixture();
    await ws.projectServers({ web: { url: 'https://mcp.example.test/mcp' } });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'remember';
    // The name resolves to the fixture's loopback address: the pinned fetch must refuse it.
    const mcp = ws.manager(prompter, {
      remote: { projectFetchOptions: { lookup: fixedLookup() } },
    });
    await mcp.start();
    expect(prompter.consents).toHaveLength(1);
    expect(prompter.consents[0]).toMatchObject({ server: 'web' });
    const [row] = mcp.status();
    expect(row?.state).toBe('failed');
    expect(row?.detail).toMatch(/127\.0\.0\.1|loopback|public/i);
    expect(fixture.requests).toBe(0);
  });

  it.each([
    ['a private address', ['10.0.0.7'], /private/],
    ['a mixed public and loopback answer', ['93.184.216.34', '127.0.0.1'], /loopback/],
    ['the cloud metadata address', ['169.254.169.254'], /metadata/],
  ])(
    'is refused when its name resolves to %s, before any request',
    async (_what, addresses, reason) => {
      await ws.projectServers({ web: { url: 'https://mcp.example.test/mcp' } });
      const prompter = new ScriptedPrompter();
      prompter.answer = 'once';
      // The names the strict fetch looked up: it was the one that tried.
      const dialled: string[] = [];
      const lookup = fixedLookup(addresses, dialled);
      const mcp = ws.manager(prompter, { remote: { projectFetchOptions: { lookup } } });
      await mcp.start();
      const [row] = mcp.status();
      expect(row?.state).toBe('failed');
      expect(row?.detail).toMatch(reason);
      expect(dialled.length).toBeGreaterThan(0);
    },
  );

  it('a denied project remote server is never contacted', async () => {
    const fixture = await ws.httpFixture();
    await ws.projectServers({ web: { url: 'https://mcp.example.test/mcp' } });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter);
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('denied');
    expect(fixture.requests).toBe(0);
  });
});

describe('remote options', () => {
  it('projectFetchOptions must be pinned-fetch options, and openBrowser a function', () => {
    const prompter = new ScriptedPrompter();
    expect(() => ws.manager(prompter, { remote: { projectFetchOptions: 'no' as never } })).toThrow(
      /option remote\.projectFetchOptions/,
    );
    // A fetch cannot stand in for the strict one.
    expect(() => ws.manager(prompter, { remote: { projectFetchOptions: fetch as never } })).toThrow(
      /option remote\.projectFetchOptions/,
    );
    expect(() =>
      ws.manager(prompter, { remote: { projectFetchOptions: { connectTimeoutMs: -1 } as never } }),
    ).toThrow(/option remote\.projectFetchOptions/);
    expect(() => ws.manager(prompter, { openBrowser: 1 as never })).toThrow(/openBrowser/);
  });

  it('logout of a local server is an UnknownServerError; of an unknown name, a no-op', async () => {
    const prompter = new ScriptedPrompter();
    await ws.userServers({ local: fixture('normal', marker(), { enabled: false }) });
    const mcp = ws.manager(prompter);
    await mcp.start();
    await expect(mcp.logout('local')).rejects.toBeInstanceOf(UnknownServerError);
    const result = await mcp.logout('nothing');
    expect(result.removed).toBe(0);
  });
});

describe('a project remote server that is allowed', () => {
  it('is trusted by its definition hash and its tools are pinned', async () => {
    const certificate = await makeCertificate(HOST);
    const tls = { ...certificate, hostname: HOST };
    const normal = await ws.httpFixture({ tls });
    // The strict fetch, with HOST on the fixture (loopback allowed for this test only).
    const looked: string[] = [];
    const projectFetchOptions = {
      lookup: fixedLookup(['127.0.0.1'], looked),
      allowLoopback: true,
      tls: { ca: certificate.cert },
    };
    await ws.projectServers({ web: { url: normal.url.href } });

    const first = new ScriptedPrompter();
    first.answer = 'remember';
    const mcp = ws.manager(first, { remote: { projectFetchOptions: projectFetchOptions } });
    await mcp.start();
    expect(first.consents.map((request) => request.kind)).toEqual(['server']);
    expect(mcp.status()[0]).toMatchObject({ state: 'connected', sandbox: { kind: 'remote' } });
    expect(unwrap((await mcp.call('mcp__web__echo', { text: 'hi' })).text)).toBe('hi');

    const second = new ScriptedPrompter();
    const again = ws.manager(second, { remote: { projectFetchOptions: projectFetchOptions } });
    await again.start();
    expect(second.consents).toHaveLength(0);
    expect(again.status()[0]?.state).toBe('connected');

    expect(new Set(looked)).toEqual(new Set([HOST]));

    // A silent change of the tools behind the same URL: the pins catch it.
    const port = Number(normal.url.port);
    await normal.close();
    await ws.httpFixture({ tls, mode: 'changed', port });
    const third = new ScriptedPrompter();
    third.answer = 'deny';
    const changedManager = ws.manager(third, {
      remote: { projectFetchOptions: projectFetchOptions },
    });
    await changedManager.start();
    expect(third.consents.map((request) => request.kind)).toEqual(['tools']);
    expect(changedManager.status()[0]?.state).toBe('denied');
  });
});
