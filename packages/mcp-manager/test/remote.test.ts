// Remote (Streamable HTTP) servers: a user's server over the normal fetch, a project's server
// after consent and over the pinned fetch (public addresses only).
import { createPinnedFetch } from '@garuda/pinned-fetch';
import { startHttpFixture } from '@garuda/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnknownServerError } from '../src/index.js';
import { ScriptedPrompter, Workspace, fixture, marker, unwrap } from './support.js';

let ws: Workspace;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  ws = await Workspace.create();
});
afterEach(async () => {
  await ws.cleanup();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function httpFixture(options: Parameters<typeof startHttpFixture>[0] = {}) {
  const fixture = await startHttpFixture(options);
  closers.push(() => fixture.close());
  return fixture;
}

describe('a user remote server', () => {
  it('connects without sign-in, lists tools, calls work, status says remote', async () => {
    let seen: string | undefined;
    const fixture = await httpFixture({
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
      sandbox: 'remote',
      network: `remote ${String(fixture.url)} · no sign-in`,
    });
  });
});

describe('a project remote server', () => {
  it('asks consent first, then is pinned like a local one', async () => {
    const fixture = await httpFixture();
    await ws.projectServers({ web: { url: 'https://mcp.example.test/mcp' } });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'remember';
    // The name resolves to the fixture's loopback address: the pinned fetch must refuse it.
    const lookup = (
      _name: string,
      _options: unknown,
      callback: (error: Error | null, addresses: { address: string; family: number }[]) => void,
    ) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const pinned = createPinnedFetch({ lookup: lookup as never });
    closers.push(() => pinned.close());
    const mcp = ws.manager(prompter, { fetchForProject: pinned as unknown as typeof fetch });
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
      const lookup = (
        _name: string,
        _options: unknown,
        callback: (error: Error | null, found: { address: string; family: number }[]) => void,
      ) =>
        callback(
          null,
          addresses.map((address) => ({ address, family: 4 })),
        );
      const dialled: string[] = [];
      const pinned = createPinnedFetch({ lookup: lookup as never });
      closers.push(() => pinned.close());
      const fetchForProject: typeof fetch = (input, init) => {
        dialled.push(String(input));
        return pinned(input as never, init as never) as unknown as Promise<Response>;
      };
      const mcp = ws.manager(prompter, { fetchForProject });
      await mcp.start();
      const [row] = mcp.status();
      expect(row?.state).toBe('failed');
      expect(row?.detail).toMatch(reason);
      expect(dialled.length).toBeGreaterThan(0);
    },
  );

  it('a denied project remote server is never contacted', async () => {
    const fixture = await httpFixture();
    await ws.projectServers({ web: { url: 'https://mcp.example.test/mcp' } });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter);
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('denied');
    expect(fixture.requests).toBe(0);
  });
});

describe('remote options', () => {
  it('fetchForProject and openBrowser must be functions', () => {
    const prompter = new ScriptedPrompter();
    expect(() => ws.manager(prompter, { fetchForProject: 'no' as never })).toThrow(
      /fetchForProject/,
    );
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
    const normal = await httpFixture();
    const changed = await httpFixture({ mode: 'changed' });
    let target = normal.url;
    // Stands in for the pinned fetch: the project's https name goes to the current fixture.
    const fetchForProject: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      expect(url.origin).toBe('https://mcp.example.test');
      return fetch(new URL(url.pathname + url.search, target), init);
    };
    await ws.projectServers({ web: { url: 'https://mcp.example.test/mcp' } });

    const first = new ScriptedPrompter();
    first.answer = 'remember';
    const mcp = ws.manager(first, { fetchForProject });
    await mcp.start();
    expect(first.consents.map((request) => request.kind)).toEqual(['server']);
    expect(mcp.status()[0]).toMatchObject({ state: 'connected', sandbox: 'remote' });
    expect(unwrap((await mcp.call('mcp__web__echo', { text: 'hi' })).text)).toBe('hi');

    const second = new ScriptedPrompter();
    const again = ws.manager(second, { fetchForProject });
    await again.start();
    expect(second.consents).toHaveLength(0);
    expect(again.status()[0]?.state).toBe('connected');

    // A silent change of the tools behind the same URL: the pins catch it.
    target = changed.url;
    const third = new ScriptedPrompter();
    third.answer = 'deny';
    const changedManager = ws.manager(third, { fetchForProject });
    await changedManager.start();
    expect(third.consents.map((request) => request.kind)).toEqual(['tools']);
    expect(changedManager.status()[0]?.state).toBe('denied');
  });
});
