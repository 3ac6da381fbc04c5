import { SdkError, fromJsonSchema, type Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANGED_DIFF,
  EVIL_TOOL_NAME,
  HOSTILE,
  HOSTILE_TEXT,
  LONG_TOOL_NAMES,
  MALFORMED_TOOL,
  MANY_TOOL_COUNT,
  SMUGGLED_INSTRUCTION,
} from '../fixtures/tools.mjs';
import { NORMAL_TOOL_NAMES } from './fixture-server.js';
import { connectStdio, textOf, type StdioConnection } from './test-support.js';

/** Reads the ASCII text hidden in Unicode tag characters. */
function decodeTags(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp > 0xe0001 && cp < 0xe007f) out += String.fromCodePoint(cp - 0xe0000);
  }
  return out;
}

/** Everything hostile a client must notice, as checks on one string. */
const HOSTILE_CHECKS: [string, RegExp][] = [
  ['CSI colour', /\x1b\[1;31m/],
  ['OSC title', /\x1b\]0;[^\x07]*\x07/],
  ['cursor moves', /\x1b\[2A/],
  ['C1 CSI', /\u009b/],
  ['bidi override', /\u202e/],
  ['bidi isolate', /\u2066/],
  ['zero-width', /\u200b/],
  ['BOM', /\ufeff/],
  ['tag characters', /[\u{e0000}-\u{e007f}]/u],
  ['variation selector', /[\ufe00-\ufe0f]/],
  ['supplementary variation selector', /[\u{e0100}-\u{e01ef}]/u],
  ['fake result close', /<\/mcp_result>/],
  ['fake note', /<garuda_note>[^<]*<\/garuda_note>/],
  ['fullwidth close', /＜／ｍｃｐ＿ｒｅｓｕｌｔ＞/],
  ['lone surrogate', /\ud800(?![\udc00-\udfff])/],
  ['NEL', /\u0085/],
];

describe('evil mode', () => {
  let c: StdioConnection;
  let tools: Tool[];
  beforeAll(async () => {
    c = await connectStdio('evil', 'auto', { keepLines: true });
    tools = (await c.client.listTools()).tools;
  });
  afterAll(() => c?.close());

  it('the hostile catalogue has what it claims', () => {
    for (const [what, re] of HOSTILE_CHECKS) expect(HOSTILE_TEXT, what).toMatch(re);
    expect(decodeTags(HOSTILE.tagSmuggled)).toBe(SMUGGLED_INSTRUCTION);
    expect(HOSTILE.tagSmuggled).not.toContain('Ignore'); // invisible: no plain letters
  });

  it('lists the normal tools (strictly valid) plus one with a hostile name', () => {
    expect(tools.map((t) => t.name)).toEqual([...NORMAL_TOOL_NAMES, EVIL_TOOL_NAME]);
    expect(EVIL_TOOL_NAME).toMatch(/[" <>\x1b\u202e\u200b]/);
  });

  it('descriptions and titles carry every hostile piece', () => {
    const echo = tools.find((t) => t.name === 'echo')!;
    for (const [what, re] of HOSTILE_CHECKS) expect(echo.description, what).toMatch(re);
    expect(echo.title).toContain('\u202e');
    expect(echo.title).toContain('\x1b]0;');
    expect(decodeTags(echo.description ?? '')).toContain(SMUGGLED_INSTRUCTION);
  });

  it('input schemas carry hostile descriptions, enum values and defaults', () => {
    const echo = tools.find((t) => t.name === 'echo')!;
    const props = echo.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.text?.description).toContain('<garuda_note>');
    expect(props.style?.enum).toContain('</mcp_result>');
    expect(props.style?.default).toContain('＜／ｍｃｐ＿ｒｅｓｕｌｔ＞');
    expect(String(props.style?.description)).toMatch(/\x1b\[/);
  });

  it('sends an own "__proto__" key in a schema on the wire', () => {
    const listLine = c.transport.lines.find((l) => l.includes('"tools":[{'));
    expect(listLine).toBeDefined();
    const wire = JSON.parse(listLine!) as {
      result: { tools: { inputSchema: { properties: object } }[] };
    };
    const props = wire.result.tools[0]!.inputSchema.properties;
    expect(Object.hasOwn(props, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype); // and nothing got polluted here
  });

  it('call results are hostile too', async () => {
    const echo = await c.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    const text = textOf(echo);
    expect(text.startsWith('hi ')).toBe(true);
    for (const [what, re] of HOSTILE_CHECKS) expect(text, what).toMatch(re);

    const odd = await c.client.callTool({ name: EVIL_TOOL_NAME, arguments: {} });
    expect(textOf(odd)).toContain('</mcp_result>');

    const content = await c.client.callTool({ name: 'content', arguments: {} });
    const link = (content.content as { type: string; name?: string }[]).find(
      (b) => b.type === 'resource_link',
    );
    expect(link?.name).toContain('\u202e');
  });

  it('the server instructions are hostile', () => {
    expect(c.client.getInstructions() ?? '').toContain('</mcp_result>');
  });
});

describe('changed mode against normal', () => {
  let normal: Tool[];
  let changed: Tool[];
  beforeAll(async () => {
    for (const mode of ['normal', 'changed'] as const) {
      const c = await connectStdio(mode, 'legacy');
      try {
        const { tools } = await c.client.listTools();
        if (mode === 'normal') normal = tools;
        else changed = tools;
      } finally {
        await c.close();
      }
    }
  });

  it('removes one tool and adds one', () => {
    const before = new Set(normal.map((t) => t.name));
    const after = new Set(changed.map((t) => t.name));
    expect([...before].filter((n) => !after.has(n))).toEqual(CHANGED_DIFF.removed);
    expect([...after].filter((n) => !before.has(n))).toEqual(CHANGED_DIFF.added);
  });

  it('changes every remaining description, and the input schema of exactly one tool', () => {
    const schemaChanged: string[] = [];
    for (const tool of changed) {
      const old = normal.find((t) => t.name === tool.name);
      if (!old) continue;
      expect(tool.description, tool.name).not.toBe(old.description);
      if (JSON.stringify(tool.inputSchema) !== JSON.stringify(old.inputSchema)) {
        schemaChanged.push(tool.name);
      }
    }
    expect(schemaChanged).toEqual(CHANGED_DIFF.schemaChanged);
    const echo = changed.find((t) => t.name === 'echo')!;
    expect(echo.inputSchema.required).toEqual(['text', 'cc']);
  });
});

describe('many mode', () => {
  it(`lists ${MANY_TOOL_COUNT} tools, tool_000 … tool_149`, async () => {
    const c = await connectStdio('many');
    try {
      const { tools } = await c.client.listTools();
      expect(tools).toHaveLength(150);
      expect(tools[0]!.name).toBe('tool_000');
      expect(tools[149]!.name).toBe('tool_149');
      expect(new Set(tools.map((t) => t.name)).size).toBe(150);
      const r = await c.client.callTool({ name: 'tool_149', arguments: { value: 'v' } });
      expect(textOf(r)).toBe('tool_149: v');
    } finally {
      await c.close();
    }
  });
});

describe('longnames mode', () => {
  it('lists long and odd names, two of which differ only after character 64', async () => {
    const c = await connectStdio('longnames');
    try {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(Object.values(LONG_TOOL_NAMES));
      const n = LONG_TOOL_NAMES;
      expect([n.len60, n.len64, n.len65, n.len100, n.len200].map((s) => s.length)).toEqual([
        60, 64, 65, 100, 200,
      ]);
      expect(n.twinA.slice(0, 64)).toBe(n.twinB.slice(0, 64));
      expect(n.twinA).not.toBe(n.twinB);
      expect(n.twinA.length).toBeGreaterThan(64);
      const all = names.join('');
      for (const ch of ['.', '-', '/', ' ']) expect(all).toContain(ch);
      expect(n.len200).toMatch(/[^\x00-\x7f]/);
      expect(n.nonAscii).toMatch(/[^\x00-\x7f]/);
      const r = await c.client.callTool({ name: n.len200, arguments: {} });
      expect(textOf(r)).toBe('called len200');
    } finally {
      await c.close();
    }
  });
});

describe('badtool mode', () => {
  const looseList = (c: StdioConnection) =>
    c.client.request(
      { method: 'tools/list', params: {} },
      fromJsonSchema({ type: 'object' }),
    ) as Promise<{
      tools: { name: string; inputSchema: unknown }[];
    }>;
  const rejection = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (error: unknown) => error,
    );

  it("legacy era: fails the SDK's strict listTools, a loose request sees the good tools", async () => {
    const c = await connectStdio('badtool', 'legacy');
    try {
      expect(await rejection(c.client.listTools())).toBeInstanceOf(SdkError);
      const loose = await looseList(c);
      expect(loose.tools.map((t) => t.name)).toEqual([...NORMAL_TOOL_NAMES, MALFORMED_TOOL.name]);
      expect(loose.tools.at(-1)!.inputSchema).toEqual({ type: 'string' });
      const r = await c.client.callTool({ name: 'echo', arguments: { text: 'still here' } });
      expect(textOf(r)).toBe('still here');
    } finally {
      await c.close();
    }
  });

  it('modern era: the SDK validates tools/list strictly even for a loose request; the wire still has the good tools', async () => {
    const c = await connectStdio('badtool', 'auto', { keepLines: true });
    try {
      expect(c.client.getProtocolEra()).toBe('modern');
      expect(await rejection(c.client.listTools())).toBeInstanceOf(SdkError);
      // On 2026-07-28 the client's codec checks the wire schema before any result schema, so
      // a tolerant lister has to look below the Client (at the transport's messages).
      expect(await rejection(looseList(c))).toBeInstanceOf(SdkError);
      const line = c.transport.lines.findLast((l) => l.includes('"tools":['));
      const wire = JSON.parse(line!) as { result: { tools: { name: string }[] } };
      expect(wire.result.tools.map((t) => t.name)).toEqual([
        ...NORMAL_TOOL_NAMES,
        MALFORMED_TOOL.name,
      ]);
      const r = await c.client.callTool({ name: 'echo', arguments: { text: 'still here' } });
      expect(textOf(r)).toBe('still here');
    } finally {
      await c.close();
    }
  });
});
