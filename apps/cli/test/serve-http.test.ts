// garuda-mcp serve --http: a real SDK Client over Streamable HTTP with the bearer token, and raw
// requests that must be refused (no token, a wrong one, a foreign Origin or Host, a body over the
// limit, a cross-origin preflight). No process is left after SIGTERM.
import { once } from 'node:events';
import { chmod, mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { allStrings, hostileLeftovers, pidsWith, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { gatewaysPerTest, httpClient, raw } from './support/http-gateway.js';
import { RAW_INITIALIZE } from './support/rounds.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const gateway = gatewaysPerTest(() => world);

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
    await waitFor(async () => (await pidsWith(mark)).length === 0, { timeoutMs: 60_000 });
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

    const none = await raw(url, { headers: json, body: RAW_INITIALIZE });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="garuda-mcp"');
    expect(none.body).not.toContain(token);
    expect(
      (
        await raw(url, {
          headers: { ...json, authorization: `Bearer ${'x'.repeat(43)}` },
          body: RAW_INITIALIZE,
        })
      ).status,
    ).toBe(401);
    expect(
      (await raw(url, { headers: { ...json, authorization: token }, body: RAW_INITIALIZE })).status,
    ).toBe(401);

    const foreignOrigin = await raw(url, {
      headers: { ...json, ...auth, origin: 'http://evil.example' },
      body: RAW_INITIALIZE,
    });
    expect(foreignOrigin.status).toBe(403);
    const port = new URL(url).port;
    const foreignHost = await raw(url, {
      headers: { ...json, ...auth, host: `evil.example:${port}` },
      body: RAW_INITIALIZE,
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
      body: RAW_INITIALIZE,
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

  it('token file: refuses one of mode 0644 or a symbolic link (exit 3, naming the file and the command that mends it); starts no server', async () => {
    const mark = `garuda-serve-http-token-${process.pid}`;
    await world.userServers({ notes: fixtureEntry('normal', mark) });
    const file = path.join(world.home, 'serve-http-token');
    const planted = 'p'.repeat(43);
    await mkdir(world.home, { recursive: true });
    await writeFile(file, `${planted}\n`, { mode: 0o644 });
    await chmod(file, 0o644);
    const loose = await world.run(['serve', '--http']);
    expect(loose.code).toBe(3);
    expect(loose.stderr).toContain(`the token file ${file} has mode 0644`);
    expect(loose.stderr).toContain(`chmod 600 ${file}`);
    expect(loose.stderr).not.toContain(planted);
    expect(loose.stderr).not.toContain('listening on');

    await rm(file);
    const elsewhere = path.join(world.root, 'planted-token');
    await writeFile(elsewhere, `${planted}\n`, { mode: 0o600 });
    await symlink(elsewhere, file);
    const linked = await world.run(['serve', '--http']);
    expect(linked.code).toBe(3);
    expect(linked.stderr).toContain(`the token file ${file} is a symbolic link`);
    expect(linked.stderr).toContain(`rm ${file}`);
    expect(linked.stderr).not.toContain('listening on');
    expect(await pidsWith(mark)).toEqual([]);

    // Mended as told: a new token is made and used.
    await rm(file);
    const { stderr } = await gateway();
    expect(stderr()).toMatch(/shown this once, is [A-Za-z0-9_-]{43}/);
    expect(stderr()).not.toContain(planted);
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

  it("tells a 2025 client, in its session, of a server's list change on its GET stream", async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-http-changes') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const client = await httpClient(url, stderr());
    try {
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
      );
      const added = await client.callTool({
        name: 'lib__add_template',
        arguments: { name: 'more', uriTemplate: 'note://more/{id}' },
      });
      expect(added.isError).toBeFalsy();
      await changed;
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.name)).toContain('lib: more');
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
