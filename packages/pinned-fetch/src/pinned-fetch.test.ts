import { caught, makeCertificate } from '@garuda/test-utils';
import { Agent, FormData as UndiciFormData, Request as UndiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BlockedAddressError, LookupFailedError } from './errors.js';
import { findBlockedAddressError, isBlockedAddressError } from './find-blocked-address-error.js';
import type { PinnedFetchOptions } from './pinned-agent-options.js';
import { createPinnedFetch } from './pinned-fetch.js';
import type { PinnedFetch } from './pinned-fetch.js';
import {
  fakeLookup,
  guardLoopbackOnly,
  hasIPv6Loopback,
  startHttpServer,
  startHttpsServer,
} from '../test/support/http.js';
import type { TestServer } from '../test/support/http.js';

let guard: ReturnType<typeof guardLoopbackOnly>;
let server: TestServer;
let server6: TestServer | undefined;
const open: PinnedFetch[] = [];

function pinned(options?: PinnedFetchOptions): PinnedFetch {
  const fetcher = createPinnedFetch(options);
  open.push(fetcher);
  return fetcher;
}

function chainHasCode(error: unknown, code: string): boolean {
  let current: unknown = error;
  for (let i = 0; i < 10 && typeof current === 'object' && current !== null; i++) {
    if ((current as { code?: unknown }).code === code) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

beforeAll(async () => {
  guard = guardLoopbackOnly();
  server = await startHttpServer('127.0.0.1', (req, res, body) => {
    if (req.url === '/start') {
      res.writeHead(302, { location: `http://127.0.0.1:${server.port}/secret` });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
  });
  if (await hasIPv6Loopback()) server6 = await startHttpServer('::1');
});

afterAll(async () => {
  await server.close();
  await server6?.close();
  guard.restore();
});

beforeEach(() => {
  guard.attempts.length = 0;
  for (const s of [server, server6]) {
    if (s === undefined) continue;
    s.requests.length = 0;
    s.connections = 0;
  }
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((fetcher) => fetcher.close()));
});

// Every spelling the WHATWG URL parser turns into a loopback address.
const LOOPBACK_SPELLINGS = [
  'http://127.0.0.1:PORT/',
  'http://2130706433:PORT/',
  'http://0177.0.0.1:PORT/',
  'http://0x7f.1:PORT/',
  'http://0x7f000001:PORT/',
  'http://127.1:PORT/',
  'http://127.0.0.1.:PORT/',
  'http://[::ffff:127.0.0.1]:PORT/',
  'http://[::ffff:7f00:1]:PORT/',
];

describe('IP literals and localhost against a real server on 127.0.0.1', () => {
  it.each(LOOPBACK_SPELLINGS)('strict mode refuses %s before connecting', async (template) => {
    const fetcher = pinned();
    const error = await caught(fetcher(template.replace('PORT', String(server.port))));
    expect(error).toBeInstanceOf(TypeError);
    expect(isBlockedAddressError(error)).toBe(true);
    expect(findBlockedAddressError(error)).toMatchObject({
      address: '127.0.0.1',
      addressClass: 'loopback',
    });
    expect(server.connections).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(guard.attempts).toEqual([]);
  });

  it.each(LOOPBACK_SPELLINGS)('allowLoopback lets %s through to the server', async (template) => {
    const fetcher = pinned({ allowLoopback: true });
    const res = await fetcher(template.replace('PORT', String(server.port)));
    expect(res.status).toBe(200);
    await res.text();
    expect(server.requests).toHaveLength(1);
    expect(guard.attempts).toEqual(['127.0.0.1']);
  });

  it('strict mode refuses localhost through the real resolver', async () => {
    const fetcher = pinned();
    const error = await caught(fetcher(`http://localhost:${server.port}/`));
    expect(findBlockedAddressError(error)).toMatchObject({
      host: 'localhost',
      addressClass: 'loopback',
      code: 'FETCH_BLOCKED_ADDRESS',
    });
    // The refusal is in the message itself, not only in its cause.
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^fetch failed: refused to connect to "localhost" at (127\.0\.0\.1|::1): a loopback address/,
    );
    expect(BlockedAddressError.isInstance((error as Error).cause)).toBe(true);
    expect(server.connections).toBe(0);
    expect(guard.attempts).toEqual([]);
  });

  it('a failed lookup says so in the message, with its LookupFailedError as cause', async () => {
    const fetcher = pinned({ lookup: fakeLookup({}).lookup });
    const error = await caught(fetcher(`http://nowhere.test:${server.port}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^fetch failed: could not resolve "nowhere\.test"/);
    expect(LookupFailedError.isInstance((error as Error).cause)).toBe(true);
    expect(server.connections).toBe(0);
  });

  it('allowLoopback reaches localhost through the real resolver', async () => {
    const fetcher = pinned({ allowLoopback: true });
    const res = await fetcher(`http://localhost:${server.port}/`);
    expect(res.status).toBe(200);
    const seen = (await res.json()) as { headers: Record<string, string> };
    expect(seen.headers.host).toBe(`localhost:${server.port}`);
    // ::1 may come first and be refused by the IPv4-only server; 127.0.0.1 is then tried.
    expect(guard.attempts.at(-1)).toBe('127.0.0.1');
  });

  it.each(['http://0.0.0.0:PORT/', 'http://0:PORT/', 'http://[::]:PORT/'])(
    'never dials the unspecified address %s, even with allowLoopback',
    async (template) => {
      const fetcher = pinned({ allowLoopback: true });
      const error = await caught(fetcher(template.replace('PORT', String(server.port))));
      expect(findBlockedAddressError(error)).toMatchObject({ addressClass: 'unspecified' });
      expect(server.connections).toBe(0);
      expect(guard.attempts).toEqual([]);
    },
  );

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://10.0.0.1/', 'private'],
    ['http://[fe80::1]/', 'linkLocal'],
    ['http://[64:ff9b::7f00:1]/', 'nat64'],
  ])('refuses %s (%s) without dialling', async (url, addressClass) => {
    const fetcher = pinned({ allowLoopback: true });
    expect(findBlockedAddressError(await caught(fetcher(url)))).toMatchObject({ addressClass });
    expect(guard.attempts).toEqual([]);
  });
});

describe('a real server on ::1', () => {
  it('strict mode refuses http://[::1]:P', async (context) => {
    if (server6 === undefined) return context.skip('no IPv6 loopback on this machine');
    const fetcher = pinned();
    const error = await caught(fetcher(`${server6.origin}/`));
    expect(findBlockedAddressError(error)).toMatchObject({
      host: '::1',
      address: '::1',
      addressClass: 'loopback',
    });
    expect(server6.connections).toBe(0);
    expect(guard.attempts).toEqual([]);
  });

  it('allowLoopback reaches http://[::1]:P', async (context) => {
    if (server6 === undefined) return context.skip('no IPv6 loopback on this machine');
    const fetcher = pinned({ allowLoopback: true });
    const res = await fetcher(`${server6.origin}/`);
    expect(res.status).toBe(200);
    await res.text();
    expect(server6.requests[0]?.headers.host).toBe(`[::1]:${server6.port}`);
    expect(guard.attempts).toEqual(['::1']);
  });
});

describe('redirects', () => {
  it('returns a 302 as it is and never requests the Location', async () => {
    const fetcher = pinned({ allowLoopback: true });
    for (const redirect of [undefined, 'follow', 'manual'] as const) {
      const res = await fetcher(`${server.origin}/start`, redirect ? { redirect } : {});
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`http://127.0.0.1:${server.port}/secret`);
      await res.text();
    }
    const viaRequest = await fetcher(
      new UndiciRequest(`${server.origin}/start`, { redirect: 'follow' }),
    );
    expect(viaRequest.status).toBe(302);
    const viaGlobalRequest = await fetcher(
      new Request(`${server.origin}/start`, { redirect: 'follow' }),
    );
    expect(viaGlobalRequest.status).toBe(302);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/start',
      '/start',
      '/start',
      '/start',
      '/start',
    ]);
  });

  it("keeps redirect: 'error' an error", async () => {
    const fetcher = pinned({ allowLoopback: true });
    const error = await caught(fetcher(`${server.origin}/start`, { redirect: 'error' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(isBlockedAddressError(error)).toBe(false);
    expect(server.requests.map((r) => r.url)).toEqual(['/start']);
  });
});

describe('inputs', () => {
  interface Echo {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string;
  }

  it('accepts a string, a URL and an undici Request', async () => {
    const fetcher = pinned({ allowLoopback: true });
    const fromString = (await (await fetcher(`${server.origin}/a?x=1`)).json()) as Echo;
    expect(fromString.url).toBe('/a?x=1');
    const fromUrl = (await (await fetcher(new URL('/b', server.origin))).json()) as Echo;
    expect(fromUrl.url).toBe('/b');
    const request = new UndiciRequest(`${server.origin}/c`, {
      method: 'PUT',
      headers: { 'x-test': 'undici' },
      body: 'payload',
    });
    const fromRequest = (await (await fetcher(request)).json()) as Echo;
    expect(fromRequest).toMatchObject({ method: 'PUT', url: '/c', body: 'payload' });
    expect(fromRequest.headers['x-test']).toBe('undici');
  });

  it("rebuilds Node's global Request with its method, headers and body", async () => {
    const fetcher = pinned({ allowLoopback: true });
    const request = new Request(`${server.origin}/global`, {
      method: 'POST',
      headers: { 'x-test': 'global', 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    const echo = (await (await fetcher(request)).json()) as Echo;
    expect(echo).toMatchObject({ method: 'POST', url: '/global', body: '{"hello":"world"}' });
    expect(echo.headers['x-test']).toBe('global');
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.headers['content-length']).toBe('17');
  });

  it("lets init override a global Request's method and headers", async () => {
    const fetcher = pinned({ allowLoopback: true });
    const request = new Request(`${server.origin}/override`, { headers: { 'x-test': 'request' } });
    const echo = (await (
      await fetcher(request, { method: 'DELETE', headers: { 'x-test': 'init' } })
    ).json()) as Echo;
    expect(echo).toMatchObject({ method: 'DELETE', url: '/override' });
    expect(echo.headers['x-test']).toBe('init');
  });

  it('honours the signal of a global Request', async () => {
    const fetcher = pinned({ allowLoopback: true });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const request = new Request(`${server.origin}/aborted`, {
      method: 'POST',
      body: 'x',
      signal: controller.signal,
    });
    const error = await caught(fetcher(request));
    expect((error as Error).message).toBe('stop');
    const getRequest = new Request(`${server.origin}/aborted`, { signal: controller.signal });
    const getError = await caught(fetcher(getRequest));
    expect((getError as Error).message).toBe('stop');
    expect(server.requests).toHaveLength(0);
  });

  it('sends a global FormData body as multipart, not as "[object FormData]"', async () => {
    const fetcher = pinned({ allowLoopback: true });
    const form = new FormData();
    form.append('name', 'value');
    form.append('file', new Blob(['file-content'], { type: 'text/plain' }), 'a.txt');
    const echo = (await (
      await fetcher(`${server.origin}/form`, { method: 'POST', body: form })
    ).json()) as Echo;
    expect(echo.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain('name="name"\r\n\r\nvalue');
    expect(echo.body).toContain('filename="a.txt"');
    expect(echo.body).toContain('file-content');

    const undiciForm = new UndiciFormData();
    undiciForm.append('k', 'v');
    const echo2 = (await (
      await fetcher(`${server.origin}/form`, { method: 'POST', body: undiciForm })
    ).json()) as Echo;
    expect(echo2.body).toContain('name="k"\r\n\r\nv');
  });
});

describe('the returned function', () => {
  it('exposes the agent and closes it', async () => {
    const fetcher = createPinnedFetch({ allowLoopback: true });
    expect(fetcher.dispatcher).toBeInstanceOf(Agent);
    const res = await fetcher(`${server.origin}/`);
    await res.text();
    await fetcher.close();
    expect(fetcher.dispatcher.closed).toBe(true);
    await expect(fetcher(`${server.origin}/`)).rejects.toThrow();
  });

  it("ignores the caller's dispatcher", async () => {
    const plain = new Agent();
    try {
      const fetcher = pinned();
      const error = await caught(fetcher(`${server.origin}/`, { dispatcher: plain }));
      expect(isBlockedAddressError(error)).toBe(true);
      expect(server.connections).toBe(0);
    } finally {
      await plain.close();
    }
  });

  it('fits where a global fetch is expected', async () => {
    const fetcher = pinned({ allowLoopback: true });
    const asGlobal: typeof globalThis.fetch = fetcher;
    const res = await asGlobal(`${server.origin}/`, { headers: new Headers({ 'x-test': 'h' }) });
    const echo = (await res.json()) as { headers: Record<string, string> };
    expect(echo.headers['x-test']).toBe('h');
  });
});

describe('https', () => {
  let tlsServer: TestServer;
  let cert: string;

  beforeAll(async () => {
    const credentials = await makeCertificate('pinned.test');
    cert = credentials.cert;
    tlsServer = await startHttpsServer(credentials);
  });

  afterAll(async () => {
    await tlsServer.close();
  });

  beforeEach(() => {
    tlsServer.requests.length = 0;
    tlsServer.connections = 0;
  });

  const { lookup, calls } = fakeLookup({
    'pinned.test': ['127.0.0.1'],
    'other.test': ['127.0.0.1'],
  });

  it('dials the checked IP and sends the name as SNI and Host', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true, tls: { ca: cert } });
    const res = await fetcher(`https://pinned.test:${tlsServer.port}/`);
    expect(res.status).toBe(200);
    await res.text();
    expect(tlsServer.requests[0]?.servername).toBe('pinned.test');
    expect(tlsServer.requests[0]?.headers.host).toBe(`pinned.test:${tlsServer.port}`);
    expect(guard.attempts).toEqual(['127.0.0.1']);
  });

  it('with a trailing dot, sends SNI without the dot', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true, tls: { ca: cert } });
    const res = await fetcher(`https://pinned.test.:${tlsServer.port}/`);
    expect(res.status).toBe(200);
    await res.text();
    expect(tlsServer.requests[0]?.servername).toBe('pinned.test');
  });

  it('checks the certificate against the name, not the IP', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true, tls: { ca: cert } });
    const error = await caught(fetcher(`https://other.test:${tlsServer.port}/`));
    expect(chainHasCode(error, 'ERR_TLS_CERT_ALTNAME_INVALID')).toBe(true);
    expect(isBlockedAddressError(error)).toBe(false);
    expect(tlsServer.requests).toHaveLength(0);
  });

  it('does not trust the certificate without the ca option', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    const error = await caught(fetcher(`https://pinned.test:${tlsServer.port}/`));
    expect(chainHasCode(error, 'DEPTH_ZERO_SELF_SIGNED_CERT')).toBe(true);
  });

  it('strict mode refuses pinned.test at lookup time', async () => {
    calls.clear();
    const fetcher = pinned({ lookup, tls: { ca: cert } });
    const error = await caught(fetcher(`https://pinned.test:${tlsServer.port}/`));
    expect(findBlockedAddressError(error)).toMatchObject({
      host: 'pinned.test',
      addressClass: 'loopback',
    });
    expect(calls.get('pinned.test')).toBe(1);
    expect(tlsServer.connections).toBe(0);
    expect(guard.attempts).toEqual([]);
  });
});
