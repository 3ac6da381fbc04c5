// The tasks extension through the gateway, on real parts: the `tasks` fixture behind a manager,
// the gateway over loopback HTTP, and a 2026-07-28 SDK client as the host, with the extension's
// own client library (ext-tasks) polling. A task-creating call is approved once; its status,
// result and cancel reach the server that made it; results come cleaned and framed; related-task
// metadata goes both ways; an id the gateway did not give is refused.
import {
  FIXTURE_SERVER,
  TASK_POLLS_TO_COMPLETE,
  TASKS_EXTENSION,
  RELATED_TASK_KEY,
} from '@garuda/test-utils';
import type { Prompter } from '@garuda/mcp-manager';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  type RawClientDispatch,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { Gateway, HttpGateway } from '../src/index.js';
import { servedGateway } from './support/served.js';

const VERSION = '2026-07-28';
const HOST_INFO = { name: 'tasks-host', version: '1.0.0' };
const TASKS_CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} } };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gateway over HTTP in front of `reports` (the tasks fixture); every call approved, counted. */
async function start(
  modes: Record<string, 'tasks' | 'normal'> = { reports: 'tasks', plain: 'normal' },
): Promise<{ gateway: Gateway; endpoint: HttpGateway; approvals: string[] }> {
  const approvals: string[] = [];
  const rules: Prompter = {
    consent: () => 'deny',
    notice: () => {},
    approveCall: (request) => {
      approvals.push(request.tool);
      return true;
    },
  };
  const servers = Object.fromEntries(
    Object.entries(modes).map(([name, mode]) => [
      name,
      { command: process.execPath, args: [FIXTURE_SERVER, mode] },
    ]),
  );
  const { gateway, endpoint } = await servedGateway(
    servers,
    rules,
    { approvals: 'rules' },
    cleanups,
  );
  return { gateway, endpoint, approvals };
}

/** One JSON-RPC request POSTed as a 2026-07-28 host sends it; the answer's `result` or `error`. */
function rawDispatch(endpoint: HttpGateway): RawClientDispatch {
  let next = 0;
  return async (request, options) => {
    const message: Record<string, unknown> = {
      ...(request as Record<string, unknown>),
      jsonrpc: '2.0',
      id: `raw-${++next}`,
    };
    const params = (message.params ?? {}) as Record<string, unknown>;
    const name = message.method === 'tools/call' ? params.name : params.taskId;
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${endpoint.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': String(message.method),
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify(message),
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
    });
    const text = await response.text();
    const bodies = response.headers.get('content-type')?.includes('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5))
      : [text];
    for (const body of bodies) {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      if (parsed.id !== message.id) continue;
      if ('error' in parsed) return { kind: 'error', error: parsed.error } as never;
      return { kind: 'result', result: parsed.result } as never;
    }
    throw new Error(`no answer to ${String(message.method)}: ${response.status} ${text}`);
  };
}

/** A framed raw request with the host's envelope (the tasks extension declared or not). */
function framed(method: string, params: Record<string, unknown>, tasks = true) {
  return {
    jsonrpc: '2.0',
    method,
    params: {
      ...params,
      _meta: {
        ...((params._meta as Record<string, unknown> | undefined) ?? {}),
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientInfo': HOST_INFO,
        'io.modelcontextprotocol/clientCapabilities': tasks ? TASKS_CAPABILITIES : {},
      },
    },
  } as const;
}

/** A 2026-07-28 SDK client of the gateway. */
async function host(endpoint: HttpGateway): Promise<Client> {
  const client = new Client(HOST_INFO, {
    capabilities: TASKS_CAPABILITIES,
    versionNegotiation: { mode: 'auto' },
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    requestInit: { headers: { authorization: `Bearer ${endpoint.token}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

/** A 2025 SDK client of the gateway (it declares the extension too, in its handshake). */
async function legacyHost(endpoint: HttpGateway): Promise<Client> {
  const client = new Client(HOST_INFO, { capabilities: TASKS_CAPABILITIES });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    requestInit: { headers: { authorization: `Bearer ${endpoint.token}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

/** The `tasks` fixture's record of what its task methods received. */
async function taskLog(gateway: Gateway): Promise<{ method: string }[]> {
  const { text } = await gateway.manager.call('mcp__reports__task_log', {});
  const body = text.slice(text.indexOf('\n') + 1, text.lastIndexOf('\n'));
  return JSON.parse(body) as { method: string }[];
}

describe('the tasks extension through the gateway', () => {
  it('is declared to a host', async () => {
    const { endpoint } = await start();
    const client = await host(endpoint);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
  });

  it('with no server behind that runs tasks, a call stays a plain call', async () => {
    const { endpoint } = await start({ plain: 'normal' });
    const client = await host(endpoint);
    expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    const send = rawDispatch(endpoint);
    const plain = await send(
      framed('tools/call', { name: 'plain__echo', arguments: { text: 'e' } }),
    );
    expect(plain).toMatchObject({ kind: 'result', result: { resultType: 'complete' } });
    expect((await send(framed('tasks/get', { taskId: 'x' }))).kind).toBe('error');
  });

  it('runs a task for an ext-tasks host: approved once, polled, the result cleaned and framed', async () => {
    const { endpoint, approvals, gateway } = await start();
    const client = await host(endpoint);
    const session = createTaskSessionFromClient(client, {
      endpointId: 'gateway',
      rawDispatch: rawDispatch(endpoint),
      v2RequestFraming: {
        protocolVersion: VERSION,
        clientInfo: HOST_INFO,
        clientCapabilities: TASKS_CAPABILITIES,
      },
    });
    cleanups.push(() => session.close());
    const execution = await session.callTool('reports__report', { topic: 'sales' });
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    const result = resultFromTaskOutcome(outcome) as { content: { text: string }[] };
    const text = result.content[0]?.text ?? '';
    expect(text).toContain('<mcp_result server="reports" tool="report">');
    expect(text).toContain('report ready on sales');
    expect(text).not.toContain('\u001b');
    // Created once, approved once: the polls, which reached the server, asked nothing.
    expect(approvals).toEqual(['report']);
    const polls = (await taskLog(gateway)).filter((entry) => entry.method === 'tasks/get');
    expect(polls).toHaveLength(TASK_POLLS_TO_COMPLETE);
  });

  it('tells status cleaned, keeps related-task metadata both ways, and cancel reaches the server', async () => {
    const { endpoint, gateway } = await start();
    const send = rawDispatch(endpoint);
    const created = await send(
      framed('tools/call', { name: 'reports__report', arguments: { topic: 'q' } }),
    );
    if (created.kind !== 'result') throw new Error(JSON.stringify(created));
    const task = created.result as Record<string, unknown>;
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect(task.statusMessage).toBe('still working');
    const taskId = String(task.taskId);
    expect(taskId).not.toBe('task-1');

    const related = { [RELATED_TASK_KEY]: { taskId } };
    const polled = await send(framed('tasks/get', { taskId, _meta: related }));
    if (polled.kind !== 'result') throw new Error(JSON.stringify(polled));
    expect(polled.result).toMatchObject({ taskId, status: 'working', _meta: related });

    const cancelled = await send(framed('tasks/cancel', { taskId }));
    expect(cancelled.kind).toBe('result');
    const after = await send(framed('tasks/get', { taskId }));
    expect(after.kind === 'result' ? after.result : after).toMatchObject({ status: 'cancelled' });
    // The server saw its own id each time, and the host's related-task metadata in its own terms.
    expect(await taskLog(gateway)).toEqual([
      { method: 'tasks/get', taskId: 'task-1', relatedTask: 'task-1' },
      { method: 'tasks/cancel', taskId: 'task-1', relatedTask: null },
      { method: 'tasks/get', taskId: 'task-1', relatedTask: null },
    ]);
  });

  it('refuses a task id it did not give (a server id, a made-up one) before anything is sent', async () => {
    const { endpoint, gateway } = await start();
    const send = rawDispatch(endpoint);
    await send(framed('tools/call', { name: 'reports__report', arguments: { topic: 'q' } }));
    // A task the manager's owner started itself is not this host's either.
    const own = await gateway.manager.callTask('mcp__reports__report', { topic: 'own' });
    if (own.kind !== 'task') throw new Error('no task');
    for (const taskId of ['task-1', 'not-a-task', own.task.taskId]) {
      const refused = await send(framed('tasks/get', { taskId }));
      expect(refused.kind).toBe('error');
      const cancel = await send(framed('tasks/cancel', { taskId }));
      expect(cancel.kind).toBe('error');
    }
    // A task's own questions are not passed on: tasks/update is not offered.
    const update = await send(
      framed('tasks/update', { taskId: own.task.taskId, inputResponses: {} }),
    );
    expect(update).toMatchObject({ kind: 'error', error: { code: -32601 } });
    expect(await taskLog(gateway)).toEqual([]);
  });

  it('gives a 2025 host plain calls', async () => {
    const { endpoint } = await start();
    const client = await legacyHost(endpoint);
    expect(client.getProtocolEra()).toBe('legacy');
    const result = await client.callTool({ name: 'reports__report', arguments: { topic: 'l' } });
    expect(JSON.stringify(result.content)).toContain('report ready on l (no task)');
  });

  it('gives a host that does not declare the extension a plain call', async () => {
    const { endpoint } = await start();
    const send = rawDispatch(endpoint);
    const plain = await send(
      framed('tools/call', { name: 'reports__report', arguments: { topic: 'p' } }, false),
    );
    if (plain.kind !== 'result') throw new Error(JSON.stringify(plain));
    const result = plain.result as { resultType: string; content: { text: string }[] };
    expect(result.resultType).toBe('complete');
    expect(result.content[0]?.text).toContain('report ready on p (no task)');
    expect(result.content[0]?.text).not.toContain('\u001b');
  });
});
