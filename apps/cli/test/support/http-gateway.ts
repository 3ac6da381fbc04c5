// garuda-mcp serve --http as a host meets it: the gateway started on a free port, raw requests,
// and SDK clients that carry its bearer token.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ASKER_DEFAULTS, waitFor } from '@garuda/test-utils';
import { afterEach, expect } from 'vitest';
import { auditCalls } from './rounds.js';
import type { CliWorld } from './world.js';

/** A started `serve --http`: the process, where it listens, and what it printed so far. */
export interface HttpGateway {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
}

/**
 * Gives the calling file a way to start `garuda-mcp serve --http args…` in the current test's
 * world; every gateway a test started is stopped (SIGTERM) after it.
 *
 * @param world - The current test's world.
 * @returns Starts a gateway; resolves once it printed where it listens.
 */
export function gatewaysPerTest(
  world: () => CliWorld,
): (args?: readonly string[]) => Promise<HttpGateway> {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    }
  });
  return async (args = []) => {
    const child = world().spawn(['serve', '--http', ...args]);
    children.push(child);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await waitFor(() => /bearer token/.test(stderr) || child.exitCode !== null, {
      timeoutMs: 60_000,
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
    if (url === undefined) throw new Error(`serve --http did not start:\n${stderr}`);
    return { child, url, stderr: () => stderr };
  };
}

/** One raw request; resolves with the status and body. */
export function raw(
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

/** Connects `client` to the gateway at `url` with the token its `stderr` showed once. */
async function connectWithToken(client: Client, url: string, stderr: string): Promise<void> {
  const token = /shown this once, is ([A-Za-z0-9_-]{43})/.exec(stderr)?.[1];
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
}

/** Connects a client (of the 2025 protocol era unless `modern`) with the gateway's token. */
export async function httpClient(url: string, stderr: string, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'http-host', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await connectWithToken(client, url, stderr);
  return client;
}

/** One field of a form's answer. */
type Answer = string | number | boolean | string[];

/**
 * A client that shows garuda-mcp's forms and answers "Allow once" (the questions kept); a
 * server's own form is accepted with the asker fixture's defaults and `answer`.
 */
export async function askingClient(
  url: string,
  stderr: string,
  modern: boolean,
  answer: Record<string, Answer> = {},
) {
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
    if (!request.params.message.includes('before this call runs')) {
      // The fixture's defaults are frozen (readonly arrays); the answer is a plain copy.
      const content = { ...ASKER_DEFAULTS, ...answer } as Record<string, Answer>;
      return { action: 'accept', content };
    }
    return { action: 'accept', content: { decision: 'Allow once' } };
  });
  await connectWithToken(client, url, stderr);
  return { client, questions };
}

/**
 * Cancels a 15 s call once it runs and checks that the call behind the gateway stopped: the
 * server's next call (its calls run one at a time) does not wait for it, and the audit log of
 * `home` says `cancelled`.
 */
export async function cancelStopsTheCall(client: Client, home: string): Promise<void> {
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
  const calls = () => auditCalls(home);
  await waitFor(async () => (await calls()).length >= 2);
  expect(await calls()).toEqual([
    ['slow', 'cancelled'],
    ['echo', 'ok'],
  ]);
}
