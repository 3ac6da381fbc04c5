import { MALFORMED_TOOL, NORMAL_TOOL_NAMES, fixtureCommand } from '@garuda/test-utils';
import {
  Client,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@garuda/mcp-tools';
import { withFixtureClient } from '../../test/support/servers.js';
import { MAX_PENDING_TOOL_LISTS, filterToolLists } from './tool-list-filter.js';

/** A transport whose peer is the test: it records what is sent and delivers what it is told. */
class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly sent: { message: JSONRPCMessage; options?: TransportSendOptions }[] = [];
  started = 0;
  closed = 0;
  failSend = false;

  async start(): Promise<void> {
    this.started++;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.failSend) throw new Error('pipe closed');
    this.sent.push({ message, options });
  }

  async close(): Promise<void> {
    this.closed++;
    this.onclose?.();
  }

  deliver(message: unknown, extra?: MessageExtraInfo): void {
    this.onmessage?.(message as JSONRPCMessage, extra);
  }
}

/** A stdio-shaped transport, as the SDK recognises one. */
class StdioShapedTransport extends RecordingTransport {
  get pid(): number {
    return 4242;
  }
  get stderr(): string {
    return 'the stderr stream';
  }
}

/** A 2025-era MCP server played in-process: answers initialize and tools/list. */
class LegacyServerTransport extends RecordingTransport {
  constructor(private readonly tools: unknown[]) {
    super();
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await super.send(message, options);
    if (!('method' in message) || !('id' in message)) return;
    const params = (message.params ?? {}) as { protocolVersion?: string };
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'in-process', version: '1.0.0' },
          }
        : message.method === 'tools/list'
          ? { tools: this.tools }
          : {};
    queueMicrotask(() => this.deliver({ jsonrpc: '2.0', id: message.id, result }));
  }
}

const good = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});

const listRequest = (id: string | number, method = 'tools/list') =>
  ({ jsonrpc: '2.0', id, method, params: {} }) as JSONRPCMessage;

function wrapped(inner: Transport = new RecordingTransport(), server?: string) {
  const notices: string[] = [];
  const received: { message: JSONRPCMessage; extra?: MessageExtraInfo }[] = [];
  const errors: Error[] = [];
  const transport = filterToolLists(
    inner,
    (notice) => notices.push(notice),
    server === undefined ? {} : { server },
  );
  transport.onmessage = (message, extra) => received.push({ message, extra });
  transport.onerror = (error) => errors.push(error);
  return { inner, transport, notices, received, errors };
}

describe('filterToolLists with the badtool fixture (real process, ProcessTransport)', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    it(`${mode}: listTools() succeeds with the good tools and one notice`, async () => {
      const notices: string[] = [];
      await withFixtureClient(
        fixtureCommand('badtool'),
        mode,
        async (client) => {
          expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toEqual([...NORMAL_TOOL_NAMES]);
          const echo = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
          expect(echo.content).toEqual([{ type: 'text', text: 'hi' }]);
        },
        (inner) => filterToolLists(inner, (n) => notices.push(n), { server: 'bad' }),
      );
      expect(notices).toEqual([
        `MCP server "bad": tool #${NORMAL_TOOL_NAMES.length + 1} "${MALFORMED_TOOL.name}" was skipped: its input schema's type is not "object"`,
      ]);
    });

    it(`${mode}: without the filter the same listing fails (the reason it exists)`, async () => {
      await withFixtureClient(fixtureCommand('badtool'), mode, async (client) => {
        await expect(client.listTools()).rejects.toThrow();
      });
    });
  }

  it('keeps pid and stderr visible, so the SDK still sees stdio and falls back to legacy', async () => {
    await withFixtureClient(
      fixtureCommand('normal'),
      'auto',
      async (client, inner) => {
        expect(client.getProtocolEra()).toBe('modern');
        expect((await client.listTools()).tools).toHaveLength(NORMAL_TOOL_NAMES.length);
        expect(inner.pid).toBeGreaterThan(0);
      },
      (inner) => {
        const transport = filterToolLists(inner, () => {});
        expect('pid' in transport && 'stderr' in transport).toBe(true);
        return transport;
      },
    );
  });
});

describe('filterToolLists against the SDK in-process (2025 era)', () => {
  const rejectedBySdk: [string, unknown][] = [
    ['an input schema of type string', { ...MALFORMED_TOOL }],
    ['no input schema', { name: 'noschema' }],
    ['a number name', { name: 7, inputSchema: { type: 'object' } }],
    ['an output schema without type', good('out', { outputSchema: { properties: {} } })],
    ['a non-object properties', good('props', { inputSchema: { type: 'object', properties: [] } })],
    ['a bad required', good('req', { inputSchema: { type: 'object', required: [1] } })],
    ['a string hint', good('hint', { annotations: { readOnlyHint: 'yes' } })],
    ['an icon without src', good('icon', { icons: [{ mimeType: 'image/png' }] })],
    ['a number description', good('desc', { description: 5 })],
    ['a null entry', null],
  ];

  for (const [label, tool] of rejectedBySdk) {
    it(`premise: the SDK alone rejects a list with ${label}`, async () => {
      const client = new Client({ name: 't', version: '0' });
      await client.connect(new LegacyServerTransport([good('fine'), tool]));
      await expect(client.listTools()).rejects.toThrow();
      await client.close();
    });
  }

  it('with the filter, the SDK gets only the tools it accepts, and each bad one is named', async () => {
    const list = [
      good('first'),
      ...rejectedBySdk.map(([, tool]) => tool),
      good('extra', {
        title: 'Extra',
        description: 'ok',
        outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        annotations: { readOnlyHint: true },
        _meta: { anything: 1 },
        unknownField: true,
      }),
      good('last'),
    ];
    const notices: string[] = [];
    const client = new Client({ name: 't', version: '0' });
    await client.connect(filterToolLists(new LegacyServerTransport(list), (n) => notices.push(n)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['first', 'extra', 'last']);
    expect(notices).toHaveLength(rejectedBySdk.length);
    expect(notices[0]).toBe(
      'MCP tool list: tool #2 "malformed" was skipped: its input schema\'s type is not "object"',
    );
    expect(notices).toContain(
      'MCP tool list: tool #8 "hint" was skipped: it does not match the MCP tool schema (at "annotations.readOnlyHint": Invalid input: expected boolean, received string)',
    );
    expect(notices.at(-1)).toBe('MCP tool list: tool #11 was skipped: it is not an object');
    await client.close();
  });
});

describe('filterToolLists: what it forwards', () => {
  it('filters only answers to tools/list requests, matched by id', () => {
    const { inner, transport, received, notices } = wrapped(undefined, 'srv');
    const bad = { name: 'bad', inputSchema: { type: 'array' } };
    void transport.send(listRequest(1));
    void transport.send(listRequest('abc'));
    void transport.send(listRequest(2, 'prompts/list'));
    const other = { jsonrpc: '2.0', id: 2, result: { tools: [bad] } };
    (inner as RecordingTransport).deliver(other);
    expect(received[0]?.message).toBe(other); // not a tools/list answer: untouched, same object
    const extra = { authInfo: undefined } as MessageExtraInfo;
    (inner as RecordingTransport).deliver(
      { jsonrpc: '2.0', id: 'abc', result: { tools: [good('a'), bad], nextCursor: 'n' } },
      extra,
    );
    expect(received[1]).toEqual({
      message: { jsonrpc: '2.0', id: 'abc', result: { tools: [good('a')], nextCursor: 'n' } },
      extra,
    });
    expect(notices).toEqual([
      'MCP server "srv": tool #2 "bad" was skipped: its input schema\'s type is not "object"',
    ]);
    // A string id "1" is not the number id 1.
    const stringOne = { jsonrpc: '2.0', id: '1', result: { tools: [bad] } };
    (inner as RecordingTransport).deliver(stringOne);
    expect(received[2]?.message).toBe(stringOne);
    // Each id is filtered once: a repeated answer passes as it is.
    (inner as RecordingTransport).deliver({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    const again = { jsonrpc: '2.0', id: 1, result: { tools: [bad] } };
    (inner as RecordingTransport).deliver(again);
    expect(received[4]?.message).toBe(again);
  });

  it('passes requests, notifications, errors and odd results through', async () => {
    const { inner, transport, received, notices } = wrapped();
    void transport.send(listRequest(1));
    void transport.send(listRequest(2));
    void transport.send(listRequest(3));
    const messages = [
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 99, method: 'ping' },
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'no' } },
      { jsonrpc: '2.0', id: 2, result: { tools: 'not a list' } },
      { jsonrpc: '2.0', id: 3, result: { tools: [] } },
    ];
    for (const message of messages) (inner as RecordingTransport).deliver(message);
    // The answers read in the turn of a notification are handed over a microtask later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.map((r) => r.message)).toEqual(messages);
    received.forEach((r, i) => expect(r.message).toBe(messages[i]));
    expect(notices).toEqual([]);
  });

  it('hands an answer read in the turn of a notification over after the notification', async () => {
    const { inner, transport, received } = wrapped();
    const heard: string[] = [];
    // As the SDK does: a notification reaches its handler a microtask after it is handed over.
    transport.onmessage = (message) => {
      if ('method' in message) queueMicrotask(() => heard.push(message.method));
      else heard.push(`answer ${String(message.id)}`);
      received.push({ message, extra: undefined });
    };
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: {} };
    (inner as RecordingTransport).deliver(progress);
    (inner as RecordingTransport).deliver({ jsonrpc: '2.0', id: 5, result: {} });
    (inner as RecordingTransport).deliver({ jsonrpc: '2.0', id: 6, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['notifications/progress', 'answer 5', 'answer 6']);
    // In a later turn, with no notification before it, an answer is handed over at once.
    (inner as RecordingTransport).deliver({ jsonrpc: '2.0', id: 7, result: {} });
    expect(heard.at(-1)).toBe('answer 7');
  });

  it('names at most 20 removed tools per answer, then one summary', () => {
    const { inner, transport, received, notices } = wrapped(undefined, 'srv');
    void transport.send(listRequest(7));
    const bad = Array.from({ length: 30 }, (_, i) => ({ name: `b${i}` }));
    (inner as RecordingTransport).deliver({
      jsonrpc: '2.0',
      id: 7,
      result: { tools: [...bad, good('ok')] },
    });
    expect(
      (received[0]?.message as unknown as { result: { tools: unknown[] } }).result.tools,
    ).toEqual([good('ok')]);
    expect(notices).toHaveLength(LIMITS.maxSkipNotices + 1);
    expect(notices.at(-1)).toBe('MCP server "srv": 10 more malformed tools were skipped');
  });

  it('sends what it is given, with the options, and forgets an id whose send failed', async () => {
    const inner = new RecordingTransport();
    const { transport, received } = wrapped(inner);
    const options = { relatedRequestId: 3 } as TransportSendOptions;
    await transport.send(listRequest(1), options);
    expect(inner.sent).toEqual([{ message: listRequest(1), options }]);
    inner.failSend = true;
    await expect(transport.send(listRequest(2))).rejects.toThrow('pipe closed');
    const late = { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'x' }] } };
    inner.deliver(late);
    expect(received[0]?.message).toBe(late);
  });

  it('remembers at most 64 unanswered requests', () => {
    const { inner, transport, received } = wrapped();
    for (let id = 0; id <= MAX_PENDING_TOOL_LISTS; id++) void transport.send(listRequest(id));
    const oldest = { jsonrpc: '2.0', id: 0, result: { tools: [{ name: 'x' }] } };
    (inner as RecordingTransport).deliver(oldest);
    expect(received[0]?.message).toBe(oldest);
    (inner as RecordingTransport).deliver({
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'x' }] },
    });
    expect(received[1]?.message).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
  });

  it('reports what onSkip throws through onerror, and still delivers the answer', () => {
    const inner = new RecordingTransport();
    const errors: Error[] = [];
    const received: JSONRPCMessage[] = [];
    const transport = filterToolLists(inner, () => {
      throw new Error('prompter broke');
    });
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => received.push(message);
    void transport.send(listRequest(1));
    inner.deliver({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'x' }] } });
    expect(errors.map((e) => e.message)).toEqual(['prompter broke']);
    expect(received).toHaveLength(1);
  });

  it('applies the 2025 output-schema rules until a 2026 revision is negotiated', () => {
    const outputArray = good('out', { outputSchema: { type: 'array' } });
    for (const [version, kept] of [
      [undefined, false],
      ['2025-11-25', false],
      ['2026-07-28', true],
    ] as const) {
      const { inner, transport, received } = wrapped();
      if (version !== undefined) transport.setProtocolVersion?.(version);
      void transport.send(listRequest(1));
      (inner as RecordingTransport).deliver({
        jsonrpc: '2.0',
        id: 1,
        result: { tools: [outputArray] },
      });
      const tools = (received[0]?.message as unknown as { result: { tools: unknown[] } }).result
        .tools;
      expect(tools, String(version)).toEqual(kept ? [outputArray] : []);
    }
  });

  it('forwards callbacks both ways, and lets the SDK replace them and start', async () => {
    const inner = new RecordingTransport();
    const { transport, errors } = wrapped(inner);
    const closes: string[] = [];
    transport.onclose = () => closes.push('wrapper');
    inner.onerror?.(new Error('inner failed'));
    expect(errors.map((e) => e.message)).toEqual(['inner failed']);
    await transport.start();
    expect(inner.started).toBe(1);
    await transport.close();
    expect(inner.closed).toBe(1);
    expect(closes).toEqual(['wrapper']);
    // The SDK's version probe saves, replaces and restores these, and re-arms start().
    const seen: unknown[] = [];
    transport.onmessage = (m) => seen.push(m);
    inner.deliver({ jsonrpc: '2.0', method: 'notifications/x' });
    expect(seen).toHaveLength(1);
    const start = transport.start;
    transport.start = async () => {};
    await transport.start();
    expect(inner.started).toBe(1);
    transport.start = start;
  });

  it('shows pid and stderr only when the inner transport has them', () => {
    const plain = filterToolLists(new RecordingTransport(), () => {});
    expect('pid' in plain || 'stderr' in plain).toBe(false);
    const stdio = filterToolLists(new StdioShapedTransport(), () => {}) as Transport & {
      pid?: number;
      stderr?: string;
    };
    expect('pid' in stdio && 'stderr' in stdio).toBe(true);
    expect(stdio.pid).toBe(4242);
    expect(stdio.stderr).toBe('the stderr stream');
  });

  it('reads sessionId and hasPerRequestStream from the inner transport, and forwards version calls', () => {
    const calls: string[] = [];
    const inner = Object.assign(new RecordingTransport(), {
      sessionId: undefined as string | undefined,
      hasPerRequestStream: true,
      setProtocolVersion: (v: string) => calls.push(`version ${v}`),
      setSupportedProtocolVersions: (v: string[]) => calls.push(`supported ${v.join(',')}`),
    });
    const transport = filterToolLists(inner, () => {});
    expect(transport.sessionId).toBeUndefined();
    inner.sessionId = 'session-1';
    expect(transport.sessionId).toBe('session-1');
    expect(transport.hasPerRequestStream).toBe(true);
    transport.setProtocolVersion?.('2025-06-18');
    transport.setSupportedProtocolVersions?.(['a', 'b']);
    expect(calls).toEqual(['version 2025-06-18', 'supported a,b']);
    const bare = filterToolLists(new RecordingTransport(), () => {});
    expect(bare.setSupportedProtocolVersions).toBeUndefined();
    expect(bare.hasPerRequestStream).toBeUndefined();
    expect(() => bare.setProtocolVersion?.('2025-06-18')).not.toThrow();
  });
});
