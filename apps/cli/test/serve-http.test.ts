// garuda-mcp serve --http: a real SDK Client over Streamable HTTP with the bearer token, and raw
// requests that must be refused (no token, a wrong one, a foreign Origin or Host, a body over the
// limit, a cross-origin preflight). No process is left after SIGTERM.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { allStrings, hostileLeftovers, pidsWith, waitFor } from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureEntry, worldPerTest, type CliWorld } from './cli-support.js';

let world: CliWorld;
worldPerTest((created) => (world = created));

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

/** Starts `garuda-mcp serve --http args…`; resolves once it printed where it listens. */
async function gateway(args: readonly string[] = []) {
  const child = world.spawn(['serve', '--http', ...args]);
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await waitFor(() => /bearer token/.test(stderr) || child.exitCode !== null, {
    timeoutMs: 30_000,
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
  if (url === undefined) throw new Error(`serve --http did not start:\n${stderr}`);
  return { child, url, stderr: () => stderr };
}

/** One raw request; resolves with the status and body. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

describe('garuda-mcp serve --http', () => {
  it('serves the tools to a client with the token, on 127.0.0.1, and stops every server on SIGTERM', async () => {
    const mark = `garuda-serve-http-${process.pid}`;
    await world.userServers({ notes: fixtureEntry('normal', mark) });
    const { child, url, stderr } = await gateway(['--approvals', 'host']);
    const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(stderr())?.[1];
    expect(token).toBeDefined();
    const tokenFile = path.join(world.home, 'serve-http-token');
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);

    const client = new Client({ name: 'http-host', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('notes__echo');
    const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'over http' } });
    expect(JSON.stringify(result.content)).toContain(
      '<mcp_result server=\\"notes\\" tool=\\"echo\\">',
    );
    await client.close();

    expect((await pidsWith(mark)).length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    await waitFor(async () => (await pidsWith(mark)).length === 0, { timeoutMs: 20_000 });
  });

  it('refuses a request without the token, with a wrong one, from a foreign Origin or Host', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-refuse') });
    const { url, stderr } = await gateway();
    const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(stderr())?.[1] ?? '';
    const json = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const auth = { authorization: `Bearer ${token}` };

    const none = await raw(url, { headers: json, body: INIT });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="garuda-mcp"');
    expect(none.body).not.toContain(token);
    expect(
      (
        await raw(url, {
          headers: { ...json, authorization: `Bearer ${'x'.repeat(43)}` },
          body: INIT,
        })
      ).status,
    ).toBe(401);
    expect(
      (await raw(url, { headers: { ...json, authorization: token }, body: INIT })).status,
    ).toBe(401);

    const foreignOrigin = await raw(url, {
      headers: { ...json, ...auth, origin: 'http://evil.example' },
      body: INIT,
    });
    expect(foreignOrigin.status).toBe(403);
    const port = new URL(url).port;
    const foreignHost = await raw(url, {
      headers: { ...json, ...auth, host: `evil.example:${port}` },
      body: INIT,
    });
    expect(foreignHost.status).toBe(403);

    const preflight = await raw(url, {
      method: 'OPTIONS',
      headers: {
        ...auth,
        origin: `http://127.0.0.1:${port}`,
        'access-control-request-method': 'POST',
      },
    });
    expect(preflight.status).toBe(405);
    expect(
      Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-')),
    ).toEqual([]);

    const huge = await raw(url, {
      headers: { ...json, ...auth },
      body: Buffer.alloc(5 * 1024 * 1024, 32),
    });
    expect(huge.status).toBe(413);

    // With everything right, the same request is served (and carries no CORS header either).
    const ok = await raw(url, {
      headers: { ...json, ...auth, origin: `http://127.0.0.1:${port}` },
      body: INIT,
    });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.headers).filter((name) => name.startsWith('access-control-'))).toEqual(
      [],
    );
  });

  it('keeps its token: a second start uses it and does not show it again', async () => {
    const first = await gateway();
    const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(first.stderr())?.[1];
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
    const second = await gateway();
    expect(second.stderr()).toContain(
      `the bearer token is in ${path.join(world.home, 'serve-http-token')}`,
    );
    expect(second.stderr()).not.toContain(token);
  });

  it('hands a client over HTTP only cleaned definitions and framed results of a hostile server', async () => {
    await world.userServers({ bad: fixtureEntry('evil', 'garuda-serve-http-evil') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(stderr())?.[1];
    const client = new Client({ name: 'http-host', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(7);
      expect(allStrings(tools).flatMap(hostileLeftovers)).toEqual([]);
      const result = await client.callTool({ name: 'bad__echo', arguments: { text: 'x' } });
      const text = (result.content as { text?: string }[])
        .map((block) => block.text ?? '')
        .join('');
      const open = '<mcp_result server="bad" tool="echo">\n';
      expect(text.startsWith(open)).toBe(true);
      expect(text.endsWith('\n</mcp_result>')).toBe(true);
      expect(hostileLeftovers(text.slice(open.length, -'\n</mcp_result>'.length))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('--port without --http is a usage error', async () => {
    const result = await world.run(['serve', '--port', '8080']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port goes with --http');
  });
});
