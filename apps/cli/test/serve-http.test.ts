// garuda-mcp serve --http: a real SDK Client over Streamable HTTP with the bearer token, and raw
// requests that must be refused (no token, a wrong one, a foreign Origin or Host, a body over the
// limit, a cross-origin preflight). No process is left after SIGTERM. A 2026-07-28 host's cancel
// reaches the call behind the gateway (a 2025 host's does not yet: a known failure), and a server
// called over HTTP is as closed in as one called over stdio.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { detectSandbox } from '@garuda/mcp-transport';
import {
  allStrings,
  hostileLeftovers,
  pidsWith,
  sandboxOutcomes,
  waitFor,
  type EscapeReport,
} from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditCalls,
  fixtureEntry,
  framedJson,
  osSandboxed,
  questionsStayWithTheirCalls,
  RAW_INITIALIZE,
  worldPerTest,
  type CliWorld,
} from './cli-support.js';

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
    timeoutMs: 60_000,
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

  it('--port without --http is a usage error', async () => {
    const result = await world.run(['serve', '--port', '8080']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port goes with --http');
  });
});

// Without an OS sandbox there is nothing to prove: skipped, and CI (which requires one) fails.
const SANDBOXED = await osSandboxed();
/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes((await detectSandbox({ searchPath: process.env.PATH })).kind);

/** Connects a client (of the 2025 protocol era unless `modern`) with the gateway's token. */
async function httpClient(url: string, stderr: string, modern = false): Promise<Client> {
  const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(stderr)?.[1];
  const client = new Client(
    { name: 'http-host', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/**
 * Cancels a 15 s call once it runs and checks that the call behind the gateway stopped: the
 * server's next call (its calls run one at a time) does not wait for it, and the audit log says
 * `cancelled`.
 */
async function cancelStopsTheCall(client: Client): Promise<void> {
  const cancel = new AbortController();
  const slow = client.callTool(
    { name: 'notes__slow', arguments: { ms: 15_000 } },
    // Cancelled once the server said it is running (its first progress report).
    { signal: cancel.signal, onprogress: () => cancel.abort() },
  );
  await expect(slow).rejects.toThrow(/abort/i);
  // Had the cancel not reached the call, this one would wait for it (the server's calls run one
  // at a time), and the log would say the slow one ended "ok".
  const echo = await client.callTool({ name: 'notes__echo', arguments: { text: 'next' } });
  expect(JSON.stringify(echo.content)).toContain('next');
  const calls = () => auditCalls(world.home);
  await waitFor(async () => (await calls()).length >= 2);
  expect(await calls()).toEqual([
    ['slow', 'cancelled'],
    ['echo', 'ok'],
  ]);
}

/** A client that shows garuda-mcp's forms and answers "Allow once" (the questions kept). */
async function askingClient(url: string, stderr: string, modern: boolean) {
  const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(stderr)?.[1];
  const questions: string[] = [];
  const client = new Client(
    { name: 'http-host', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    questions.push(request.params.message);
    return { action: 'accept', content: { decision: 'Allow once' } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return { client, questions };
}

describe('garuda-mcp serve --http: questions', () => {
  it('asks a 2026-07-28 client about a call as an input_required result; a 2025 one is refused as rules', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-ask') });
    const { url, stderr } = await gateway();
    const modern = await askingClient(url, stderr(), true);
    try {
      const ran = await modern.client.callTool({
        name: 'notes__echo',
        arguments: { text: 'asked over http' },
      });
      expect(modern.questions).toHaveLength(1);
      expect(modern.questions[0]).toContain('garuda-mcp asks before this call runs:');
      expect(JSON.stringify(ran.content)).toContain('asked over http');
      expect(ran.isError).toBeFalsy();
    } finally {
      await modern.client.close();
    }
    // Served statelessly, a 2025 client cannot be asked: nothing runs, and it is told why.
    const legacy = await askingClient(url, stderr(), false);
    try {
      const refused = await legacy.client.callTool({
        name: 'notes__echo',
        arguments: { text: 'x' },
      });
      expect(legacy.questions).toEqual([]);
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('This call was not run');
    } finally {
      await legacy.client.close();
    }
  });
});

describe('garuda-mcp serve --http: a question belongs to its own client and call', () => {
  it("two clients calling one tool are each asked their own call's question; one's answer never decides the other's", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-own') });
    const { url, stderr } = await gateway();
    const first = await askingClient(url, stderr(), true);
    const second = await askingClient(url, stderr(), true);
    try {
      // The second client is asked about its own call in its own round, never through the
      // first client's, and the first client's answer decides nothing of it.
      await questionsStayWithTheirCalls(first.client, second.client, world.home);
      // The automatic hosts never saw a question: each was carried by its own call's rounds.
      expect([...first.questions, ...second.questions]).toEqual([]);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });
});

describe('garuda-mcp serve --http: a host cancels a call', () => {
  it("a 2026-07-28 client's cancel stops the call behind the gateway", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-cancel') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const client = await httpClient(url, stderr(), true);
    try {
      await cancelStopsTheCall(client);
    } finally {
      await client.close();
    }
  });

  // The 2025 client sends notifications/cancelled as a POST of its own and keeps its request
  // open: the gateway ends the exchange of the request it names.
  it("a 2025 client's cancel stops the call behind the gateway", async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-http-cancel-2025') });
    const { url, stderr } = await gateway(['--approvals', 'host']);
    const client = await httpClient(url, stderr());
    try {
      await cancelStopsTheCall(client);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!SANDBOXED)('garuda-mcp serve --http: the sandbox behind the gateway', () => {
  it('a server called over HTTP still cannot write outside, read garuda home or connect', async () => {
    let connections = 0;
    const listener = createTcpServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    // Off /tmp (bubblewrap's is private), outside the project: next to this test file.
    const outside = path.join(import.meta.dirname, `escape-serve-http-${process.pid}.txt`);
    try {
      await world.userServers({ esc: fixtureEntry('escape', 'garuda-serve-http-escape') });
      const secret = path.join(world.home, 'secret-token');
      await writeFile(secret, 'do not read me');
      const { url, stderr } = await gateway(['--approvals', 'host']);
      const client = await httpClient(url, stderr());
      let text: string;
      try {
        const result = await client.callTool({
          name: 'esc__escape',
          arguments: {
            root: world.root,
            outside,
            secretFile: secret,
            netHost: '127.0.0.1',
            netPort: port,
          },
        });
        text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
      } finally {
        await client.close();
      }
      expect(text.startsWith('<mcp_result server="esc" tool="escape">\n'), text).toBe(true);
      const report = framedJson<EscapeReport>(text);
      expect(report.writeRoot.ok).toBe(true);
      expect(existsSync(path.join(world.root, 'garuda-escape-root.txt'))).toBe(true);
      expect(report.writeOutside).toMatchObject({ ok: false, code: IS.readOnly.code });
      expect(existsSync(outside)).toBe(false);
      expect(report.writeGaruda).toMatchObject({ ok: false, code: IS.readOnly.code });
      expect(existsSync(path.join(world.root, '.garuda', 'garuda-escape.txt'))).toBe(false);
      expect(report.readSecret).toMatchObject({ ok: false, code: IS.inHidden.code });
      expect(report.readSecret.detail ?? '').not.toContain('do not read me');
      expect(report.connect.ok).toBe(false);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
