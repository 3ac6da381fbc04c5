import { caught } from '@garuda/test-utils';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PinnedFetchError } from './errors.js';
import { findBlockedAddressError, isBlockedAddressError } from './find-blocked-address-error.js';
import { createPinnedAgent } from './pinned-agent.js';
import { checkPinnedFetchOptions, type PinnedAgentOptions } from './pinned-agent-options.js';
import { createPinnedFetch } from './pinned-fetch.js';
import type { PinnedFetch } from './pinned-fetch.js';
import {
  closedPort,
  fakeLookup,
  guardLoopbackOnly,
  startHttpServer,
} from '../test/support/http.js';
import type { TestServer } from '../test/support/http.js';

let guard: ReturnType<typeof guardLoopbackOnly>;
let server: TestServer;
const open: Array<{ close(): Promise<void> }> = [];

function pinned(options: PinnedAgentOptions): PinnedFetch {
  const fetcher = createPinnedFetch(options);
  open.push(fetcher);
  return fetcher;
}

function agent(options?: PinnedAgentOptions): Agent {
  const created = createPinnedAgent(options);
  open.push(created);
  return created;
}

/** Every error in the cause chain (bounded), to look for socket and TLS codes. */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let i = 0; i < 10 && typeof current === 'object' && current !== null; i++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

beforeAll(async () => {
  guard = guardLoopbackOnly();
  server = await startHttpServer();
});

afterAll(async () => {
  await server.close();
  guard.restore();
});

beforeEach(() => {
  guard.attempts.length = 0;
  server.requests.length = 0;
  server.connections = 0;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

describe('createPinnedAgent options', () => {
  it.each([
    [{ connectTimeoutMs: -1 }, 'connectTimeoutMs'],
    [{ connectTimeoutMs: 0 }, 'connectTimeoutMs'],
    [{ connectTimeoutMs: Number.NaN }, 'connectTimeoutMs'],
    [{ connectTimeoutMs: Number.POSITIVE_INFINITY }, 'connectTimeoutMs'],
    [{ connectTimeoutMs: 1.5 }, 'connectTimeoutMs'],
    [{ connectTimeoutMs: '1000' }, 'connectTimeoutMs'],
    [{ headersTimeoutMs: -5 }, 'headersTimeoutMs'],
    [{ bodyTimeoutMs: 2 ** 31 }, 'bodyTimeoutMs'],
    [{ lookup: 'dns' }, 'lookup'],
    [{ lookup: null }, 'lookup'],
    [{ allowLoopback: 'yes' }, 'allowLoopback'],
    [{ allowLoopback: 1 }, 'allowLoopback'],
    [{ localAddresses: ['127.0.0.1'] }, 'localAddresses'],
    [{ allowLocalhost: true }, 'allowLocalhost'],
    [{ tls: 'ca' }, 'tls'],
    [{ tls: { servername: 'x' } }, 'tls.servername'],
    [{ tls: { lookup: () => undefined } }, 'tls.lookup'],
    [{ tls: { host: '127.0.0.1' } }, 'tls.host'],
    [{ tls: { minVersion: 'SSLv3' } }, 'tls.minVersion'],
    [{ tls: { rejectUnauthorized: 'false' } }, 'tls.rejectUnauthorized'],
    [{ tls: { ca: 42 } }, 'tls.ca'],
    [null, 'options'],
    [[], 'options'],
    ['strict', 'options'],
  ])('rejects %j', (options, option) => {
    let thrown: unknown;
    try {
      createPinnedAgent(options as PinnedAgentOptions);
    } catch (error) {
      thrown = error;
    }
    expect(PinnedFetchError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'FETCH_INVALID_OPTIONS',
      name: 'PinnedFetchOptionsError',
      option,
    });
    expect((thrown as Error).message).toMatch(
      new RegExp(`^invalid option ${option.replace('.', '\\.')}: `),
    );
    // createPinnedFetch validates the same way, and checkPinnedFetchOptions with the same error
    expect(() => createPinnedFetch(options as PinnedAgentOptions)).toThrow(PinnedFetchError);
    expect(() => checkPinnedFetchOptions(options)).toThrow((thrown as Error).message);
  });

  it('accepts no options, empty options and every documented option', async () => {
    const all = agent({
      allowLoopback: true,
      lookup: fakeLookup({}).lookup,
      connectTimeoutMs: 1000,
      localAddresses: () => [],
      tls: { ca: 'x', rejectUnauthorized: true, minVersion: 'TLSv1.2' },
      headersTimeoutMs: 0,
      bodyTimeoutMs: 5000,
    });
    expect(all).toBeInstanceOf(Agent);
    expect(agent({})).toBeInstanceOf(Agent);
    expect(agent()).toBeInstanceOf(Agent);
    expect(() =>
      checkPinnedFetchOptions({ connectTimeoutMs: 1000, allowLoopback: true }),
    ).not.toThrow();
    expect(() => checkPinnedFetchOptions(undefined)).not.toThrow();
  });
});

describe('names resolved through the lookup', () => {
  const { lookup, calls } = fakeLookup({
    'rebind.test': ['127.0.0.1'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'nat64.test': ['64:ff9b::a9fe:a9fe'],
    'sixtofour.test': ['2002:a9fe:a9fe::1'],
    'teredo.test': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    'metadata.test': ['169.254.169.254'],
    'azure.test': ['168.63.129.16'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'compatible.test': ['::7f00:1'],
    'unspecified.test': ['0.0.0.0'],
    'private.test': ['10.0.0.1'],
    'loopback.test': ['127.0.0.1'],
    'loopback-and-private.test': ['127.0.0.1', '10.0.0.1'],
    'broken.test': Object.assign(new Error('getaddrinfo EAI_AGAIN broken.test'), {
      code: 'EAI_AGAIN',
    }),
    'empty.test': [],
  });

  beforeEach(() => calls.clear());

  it.each([
    ['rebind.test', '127.0.0.1', 'loopback'],
    ['mixed.test', '127.0.0.1', 'loopback'],
    ['nat64.test', '64:ff9b::a9fe:a9fe', 'nat64'],
    ['sixtofour.test', '2002:a9fe:a9fe::1', '6to4'],
    ['teredo.test', '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['metadata.test', '169.254.169.254', 'metadata'],
    ['azure.test', '168.63.129.16', 'metadata'],
    ['mapped.test', '127.0.0.1', 'loopback'],
    ['compatible.test', '::7f00:1', 'ipv4Compatible'],
    ['unspecified.test', '0.0.0.0', 'unspecified'],
    ['private.test', '10.0.0.1', 'private'],
  ])('refuses %s (%s) without dialling anything', async (name, address, addressClass) => {
    const fetcher = pinned({ lookup });
    const error = await caught(fetcher(`http://${name}:${server.port}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect(isBlockedAddressError(error)).toBe(true);
    expect(findBlockedAddressError(error)).toMatchObject({
      code: 'FETCH_BLOCKED_ADDRESS',
      host: name,
      address,
      addressClass,
    });
    expect(calls.get(name)).toBe(1);
    expect(guard.attempts).toEqual([]);
    expect(server.connections).toBe(0);
  });

  it('strips one trailing dot before the lookup and still refuses', async () => {
    const fetcher = pinned({ lookup });
    const error = await caught(fetcher(`http://rebind.test.:${server.port}/`));
    expect(findBlockedAddressError(error)).toMatchObject({
      host: 'rebind.test',
      addressClass: 'loopback',
    });
    expect([...calls]).toEqual([['rebind.test', 1]]);
    expect(guard.attempts).toEqual([]);
  });

  it('with allowLoopback, dials the checked address and keeps the Host header', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    const res = await fetcher(`http://loopback.test:${server.port}/hello`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.host).toBe(`loopback.test:${server.port}`);
    expect(server.requests[0]?.url).toBe('/hello');
    expect(guard.attempts).toEqual(['127.0.0.1']);
    expect(calls.get('loopback.test')).toBe(1);
  });

  it('with allowLoopback, a trailing-dot name is looked up without the dot', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    const res = await fetcher(`http://loopback.test.:${server.port}/`);
    expect(res.status).toBe(200);
    await res.text();
    expect([...calls]).toEqual([['loopback.test', 1]]);
  });

  it('looks the name up exactly once per connection, not per request', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    for (let i = 0; i < 3; i++) {
      const res = await fetcher(`http://loopback.test:${server.port}/${i}`);
      await res.text();
    }
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBeGreaterThanOrEqual(1);
    expect(calls.get('loopback.test')).toBe(server.connections);
  });

  it('allowLoopback never widens to private space', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    for (const name of [
      'loopback-and-private.test',
      'private.test',
      'metadata.test',
      'unspecified.test',
    ]) {
      const error = await caught(fetcher(`http://${name}:${server.port}/`));
      expect(isBlockedAddressError(error)).toBe(true);
    }
    expect(
      findBlockedAddressError(
        await caught(fetcher(`http://loopback-and-private.test:${server.port}/`)),
      ),
    ).toMatchObject({ address: '10.0.0.1', addressClass: 'private' });
    expect(guard.attempts).toEqual([]);
    expect(server.connections).toBe(0);
  });

  it('reports a lookup error as LOOKUP_FAILED, not as a block', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    const error = await caught(fetcher(`http://broken.test:${server.port}/`));
    expect(isBlockedAddressError(error)).toBe(false);
    const cause = (error as Error).cause;
    expect(cause).toMatchObject({
      code: 'FETCH_LOOKUP_FAILED',
      name: 'LookupFailedError',
      host: 'broken.test',
    });
    expect((cause as Error).cause).toMatchObject({ code: 'EAI_AGAIN' });
    expect((cause as Error).message).toContain('EAI_AGAIN');

    const unknown = await caught(fetcher(`http://unknown.test:${server.port}/`));
    expect((unknown as Error).cause).toMatchObject({ code: 'FETCH_LOOKUP_FAILED' });
    expect(guard.attempts).toEqual([]);
  });

  it('reports an empty answer as NO_ADDRESSES', async () => {
    const fetcher = pinned({ lookup, allowLoopback: true });
    const error = await caught(fetcher(`http://empty.test:${server.port}/`));
    expect((error as Error).cause).toMatchObject({
      code: 'FETCH_NO_ADDRESSES',
      host: 'empty.test',
    });
    expect(isBlockedAddressError(error)).toBe(false);
  });

  it('survives lookups that throw, answer twice, answer in the single-address form, or never answer', async () => {
    const throwing = pinned({
      allowLoopback: true,
      lookup: () => {
        throw new Error('resolver crashed');
      },
    });
    const thrown = await caught(throwing(`http://x.test:${server.port}/`));
    expect((thrown as Error).cause).toMatchObject({ code: 'FETCH_LOOKUP_FAILED' });

    let twiceCalls = 0;
    const twice = pinned({
      allowLoopback: true,
      lookup: (_host, _options, callback) => {
        twiceCalls += 1;
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
        callback(null, [{ address: '10.0.0.1', family: 4 }]);
      },
    });
    const res = await twice(`http://x.test:${server.port}/`);
    expect(res.status).toBe(200);
    await res.text();
    expect(twiceCalls).toBe(1);

    const single = pinned({
      allowLoopback: true,
      lookup: ((
        _host: string,
        _options: unknown,
        callback: (e: null, a: string, f: number) => void,
      ) => callback(null, '127.0.0.1', 4)) as unknown as PinnedAgentOptions['lookup'],
    });
    const singleRes = await single(`http://x.test:${server.port}/`);
    expect(singleRes.status).toBe(200);
    await singleRes.text();

    const malformed = pinned({
      allowLoopback: true,
      lookup: ((_host: string, _options: unknown, callback: (e: null, a: unknown[]) => void) =>
        callback(null, [{ addr: '127.0.0.1' }])) as unknown as PinnedAgentOptions['lookup'],
    });
    expect(
      findBlockedAddressError(await caught(malformed(`http://x.test:${server.port}/`))),
    ).toMatchObject({
      addressClass: 'invalid',
    });

    const silent = pinned({ allowLoopback: true, connectTimeoutMs: 100, lookup: () => undefined });
    const timedOut = await caught(silent(`http://x.test:${server.port}/`));
    expect((timedOut as Error).cause).toMatchObject({ code: 'FETCH_LOOKUP_FAILED' });
    expect((timedOut as Error & { cause: Error }).cause.message).toContain('(ETIMEOUT)');
    expect((timedOut as Error & { cause: { cause: Error } }).cause.cause.message).toBe(
      'no answer within 100 ms',
    );
    // The message says it was the 100 ms limit that ended the wait (a busy machine adds to any
    // measured wait, so the clock is not asked).
  });

  it('checks the answer of every new connection again (rebinding between connections)', async () => {
    const closing = await startHttpServer('127.0.0.1', (_req, res) => {
      res.writeHead(200, { connection: 'close' });
      res.end('ok');
    });
    try {
      let answer = 0;
      const fetcher = pinned({
        allowLoopback: true,
        lookup: (_host, _options, callback) => {
          answer += 1;
          callback(null, [{ address: answer === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }]);
        },
      });
      const res = await fetcher(`http://flip.test:${closing.port}/`);
      expect(res.status).toBe(200);
      await res.text();
      const error = await caught(fetcher(`http://flip.test:${closing.port}/`));
      expect(findBlockedAddressError(error)).toMatchObject({
        address: '10.0.0.1',
        addressClass: 'private',
      });
      expect(answer).toBe(2);
      expect(closing.connections).toBe(1);
      expect(guard.attempts).toEqual(['127.0.0.1']);
    } finally {
      await closing.close();
    }
  });
});

describe('dialling the checked addresses in order', () => {
  it('tries the next address when one refuses the connection', async () => {
    const { lookup } = fakeLookup({ 'two.test': ['127.0.0.2', '127.0.0.1'] });
    const fetcher = pinned({ lookup, allowLoopback: true });
    const res = await fetcher(`http://two.test:${server.port}/`);
    expect(res.status).toBe(200);
    await res.text();
    expect(guard.attempts).toEqual(['127.0.0.2', '127.0.0.1']);
    expect(server.requests).toHaveLength(1);
  });

  it('reports the last connection error when every address fails, not a block', async () => {
    const port = await closedPort();
    const { lookup } = fakeLookup({ 'dead.test': ['127.0.0.2', '127.0.0.3'] });
    const fetcher = pinned({ lookup, allowLoopback: true });
    const error = await caught(fetcher(`http://dead.test:${port}/`));
    expect(isBlockedAddressError(error)).toBe(false);
    expect(causeCodes(error)).toContain('ECONNREFUSED');
    expect(guard.attempts).toEqual(['127.0.0.2', '127.0.0.3']);
    expect((error as Error & { cause: { address?: string } }).cause.address).toBe('127.0.0.3');
  });

  it('a refused connection to an allowed literal is a connection error, not a block', async () => {
    const port = await closedPort();
    const fetcher = pinned({ allowLoopback: true });
    const error = await caught(fetcher(`http://127.0.0.1:${port}/`));
    expect(isBlockedAddressError(error)).toBe(false);
    expect(causeCodes(error)).toContain('ECONNREFUSED');
    expect(guard.attempts).toEqual(['127.0.0.1']);
  });

  it('works as the dispatcher of undici.request too', async () => {
    const strict = agent({});
    const error = await caught(request(`http://127.0.0.1:${server.port}/`, { dispatcher: strict }));
    expect(isBlockedAddressError(error)).toBe(true);
    expect(server.connections).toBe(0);

    const loose = agent({ allowLoopback: true });
    const res = await request(`http://127.0.0.1:${server.port}/`, { dispatcher: loose });
    expect(res.statusCode).toBe(200);
    await res.body.text();
  });
});

describe("this host's own interface addresses", () => {
  // 93.184.216.34 and 2606:4700:4700::1111 stand in for public interface addresses; they are
  // refused before any dial (and the loopback guard would stop a dial anyway).
  const { lookup } = fakeLookup({
    'self.test': ['93.184.216.34'],
    'self-mapped.test': ['::ffff:93.184.216.34'],
    'self6.test': ['2606:4700:4700::1111'],
    'loopback.test': ['127.0.0.1'],
  });
  const localAddresses = (): string[] => [
    '127.0.0.1',
    '::1',
    '93.184.216.34',
    '2606:4700:4700:0:0:0:0:1111',
  ];

  it.each([
    ['http://self.test:PORT/', 'self.test', '93.184.216.34'],
    ['http://self-mapped.test:PORT/', 'self-mapped.test', '93.184.216.34'],
    ['http://self6.test:PORT/', 'self6.test', '2606:4700:4700::1111'],
    ['http://93.184.216.34:PORT/', '93.184.216.34', '93.184.216.34'],
    ['http://[::ffff:93.184.216.34]:PORT/', '::ffff:5db8:d822', '93.184.216.34'],
  ])('refuses %s before dialling', async (url, host, address) => {
    const fetcher = pinned({ lookup, localAddresses, allowLoopback: true });
    const error = await caught(fetcher(url.replace('PORT', String(server.port))));
    expect(findBlockedAddressError(error)).toMatchObject({
      host,
      address,
      addressClass: 'thisHost',
    });
    expect(guard.attempts).toEqual([]);
  });

  it('leaves loopback interface addresses to the loopback rule', async () => {
    const strict = pinned({ lookup, localAddresses });
    expect(
      findBlockedAddressError(await caught(strict(`http://loopback.test:${server.port}/`))),
    ).toMatchObject({ addressClass: 'loopback' });
    const loose = pinned({ lookup, localAddresses, allowLoopback: true });
    const res = await loose(`http://loopback.test:${server.port}/`);
    expect(res.status).toBe(200);
    await res.text();
  });

  it('refuses to connect when the interface list cannot be read', async () => {
    const fetcher = pinned({
      lookup,
      localAddresses: () => {
        throw new Error('uv_interface_addresses: permission denied');
      },
    });
    const error = await caught(fetcher(`http://self.test:${server.port}/`));
    expect((error as Error).cause).toMatchObject({ code: 'FETCH_LOCAL_ADDRESSES_FAILED' });
    expect(guard.attempts).toEqual([]);
  });

  it('reads the list at every connection, not once', async () => {
    let reads = 0;
    const fetcher = pinned({
      lookup,
      localAddresses: () => {
        reads += 1;
        return ['93.184.216.34'];
      },
    });
    for (let i = 1; i <= 2; i++) {
      const error = await caught(fetcher(`http://self.test:${server.port}/`));
      expect(findBlockedAddressError(error)).toMatchObject({ addressClass: 'thisHost' });
      expect(reads).toBe(i);
    }
    expect(guard.attempts).toEqual([]);
  });
});
