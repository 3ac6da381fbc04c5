import { MALFORMED_TOOL } from '@garuda/test-utils';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SKIP_NOTICES } from './adapt-tools.js';
import { filterToolList, wireToolProblem } from './tool-list-filter.js';

const good = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});

describe('filterToolList', () => {
  it('keeps the well-formed tools, and names each dropped one and why', () => {
    const bad = { name: 'bad', inputSchema: { type: 'array' } };
    const result = { tools: [good('a'), bad, null, good('b')], nextCursor: 'n' };
    const decision = filterToolList(result, { server: 'srv' });
    expect(decision.result).toEqual({ tools: [good('a'), good('b')], nextCursor: 'n' });
    expect(decision.kept).toEqual([good('a'), good('b')]);
    expect(decision.dropped).toEqual([
      { index: 1, problem: 'its input schema\'s type is not "object"' },
      { index: 2, problem: 'it is not an object' },
    ]);
    expect(decision.notices).toEqual([
      'MCP server "srv": tool #2 "bad" was skipped: its input schema\'s type is not "object"',
      'MCP server "srv": tool #3 was skipped: it is not an object',
    ]);
    // The input is left as it was.
    expect(result.tools).toHaveLength(4);
  });

  it('hands back the same object when nothing is dropped, or there is no tools list', () => {
    for (const result of [
      { tools: [good('a')] },
      { tools: [] },
      { tools: 'not a list' },
      {},
      null,
      'x',
      [good('a')],
    ]) {
      const decision = filterToolList(result);
      expect(decision.result).toBe(result);
      expect(decision.dropped).toEqual([]);
      expect(decision.notices).toEqual([]);
    }
    expect(filterToolList({ tools: 'not a list' }).kept).toBeUndefined();
    expect(filterToolList({ tools: [] }).kept).toEqual([]);
  });

  it('says "MCP tool list" without a server name, and quotes hostile names', () => {
    const decision = filterToolList({
      tools: [{ ...MALFORMED_TOOL, name: 'x\u202e"</mcp_result>' }],
    });
    expect(decision.notices).toEqual([
      'MCP tool list: tool #1 "x\\"‹/mcp_result>" was skipped: its input schema\'s type is not "object"',
    ]);
  });

  it('names at most 20 dropped tools, then one summary', () => {
    const bad = Array.from({ length: 30 }, (_, i) => ({ name: `b${i}` }));
    const decision = filterToolList({ tools: [...bad, good('ok')] }, { server: 'srv' });
    expect(decision.kept).toEqual([good('ok')]);
    expect(decision.dropped).toHaveLength(30);
    expect(decision.notices).toHaveLength(MAX_SKIP_NOTICES + 1);
    expect(decision.notices.at(-1)).toBe('MCP server "srv": 10 more malformed tools were skipped');
  });

  it('applies the 2025 output-schema rules until a 2026 revision is negotiated', () => {
    const outputArray = good('out', { outputSchema: { type: 'array' } });
    for (const [protocolVersion, kept] of [
      [undefined, false],
      ['2025-11-25', false],
      ['2026-07-28', true],
    ] as const) {
      const decision = filterToolList(
        { tools: [outputArray] },
        protocolVersion === undefined ? {} : { protocolVersion },
      );
      expect(decision.kept, String(protocolVersion)).toEqual(kept ? [outputArray] : []);
    }
  });

  it('drops an entry it cannot read instead of throwing', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    const decision = filterToolList({ tools: [trap, good('ok')] });
    expect(decision.kept).toEqual([good('ok')]);
    expect(decision.dropped).toEqual([{ index: 0, problem: 'it could not be read' }]);
  });
});

/** The first problem the SDK's own Tool schema reports, as `wireToolProblem` words it. */
function sdkProblem(tool: unknown): string | undefined {
  const result = specTypeSchemas.Tool['~standard'].validate(tool);
  if (result instanceof Promise) throw new Error('the SDK schema is asynchronous');
  if (result.issues === undefined) return undefined;
  const issue = result.issues[0];
  return issue === undefined ? 'rejected' : `${issue.message}`;
}

describe("the MCP tool schema, held to the SDK's own", () => {
  const cases: unknown[] = [
    good('ok'),
    good('full', {
      title: 'Full',
      description: 'd',
      icons: [
        { src: 'https://x.test/i.png', mimeType: 'image/png', sizes: ['16x16'], theme: 'dark' },
      ],
      outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      annotations: { title: 't', readOnlyHint: true, destructiveHint: false },
      execution: { taskSupport: 'optional' },
      _meta: { anything: 1 },
      unknownField: true,
    }),
    { ...MALFORMED_TOOL },
    { name: 'noschema' },
    { name: 7, inputSchema: { type: 'object' } },
    good('props', { inputSchema: { type: 'object', properties: [] } }),
    good('req', { inputSchema: { type: 'object', required: [1] } }),
    good('hint', { annotations: { readOnlyHint: 'yes' } }),
    good('icon', { icons: [{ mimeType: 'image/png' }] }),
    good('theme', { icons: [{ src: 'x', theme: 'blue' }] }),
    good('desc', { description: 5 }),
    good('exec', { execution: { taskSupport: 'always' } }),
    good('meta', { _meta: [] }),
    good('out', { outputSchema: { $schema: 1 } }),
    good('nested', {
      inputSchema: { type: 'object', properties: { a: { b: [1, null, { c: true }] } } },
    }),
    null,
    [],
    'tool',
  ];

  it('accepts and rejects what the SDK does, with the same first issue', () => {
    for (const tool of cases) {
      const ours = wireToolProblem(tool, false);
      const theirs = sdkProblem(tool);
      expect(ours === undefined, JSON.stringify(tool)).toBe(theirs === undefined);
      if (ours?.startsWith('it does not match') === true) {
        expect(ours, JSON.stringify(tool)).toContain(theirs);
      }
    }
  });

  it('agrees with the SDK on arbitrary JSON in every field (property)', () => {
    const field = fc.constantFrom(
      'name',
      'title',
      'icons',
      'description',
      'inputSchema',
      'outputSchema',
      'annotations',
      'execution',
      '_meta',
    );
    const inputSchema = fc.record(
      {
        type: fc.constantFrom('object', 'string'),
        properties: fc.jsonValue(),
        required: fc.jsonValue(),
      },
      { requiredKeys: ['type'] },
    );
    const tool = fc.oneof(
      fc.tuple(field, fc.jsonValue()).map(([key, value]) => ({ ...good('x'), [key]: value })),
      inputSchema.map((schema) => good('x', { inputSchema: schema })),
    );
    fc.assert(
      fc.property(tool, (t) => {
        // The one rule the SDK's wire schemas add to its Tool schema (see wireToolProblem).
        const input = t.inputSchema as unknown;
        const dollar =
          typeof input === 'object' && input !== null
            ? (input as { $schema?: unknown }).$schema
            : undefined;
        fc.pre(dollar === undefined || typeof dollar === 'string');
        expect(wireToolProblem(t, false) === undefined, JSON.stringify(t)).toBe(
          sdkProblem(t) === undefined,
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('wireToolProblem', () => {
  it.each([
    [good('ok'), undefined],
    [{ name: '', inputSchema: { type: 'object' } }, undefined], // the SDK takes it; adaptTools does not
    [
      { name: 'x', inputSchema: { type: 'object', $schema: 5 } },
      'its input schema\'s "$schema" is not a string',
    ],
    [good('x', { outputSchema: 'no' }), 'its output schema is not an object'],
    [
      good('x', { outputSchema: { type: 'object', properties: 1 } }),
      'its output schema\'s "properties" is not an object',
    ],
    [
      good('x', { outputSchema: { type: 'object', required: 'a' } }),
      'its output schema\'s "required" is not a list of names',
    ],
    [
      good('x', { execution: { taskSupport: 'always' } }),
      /^it does not match the MCP tool schema \(at "execution\.taskSupport": /,
    ],
    [good('x', { title: 3 }), /^it does not match the MCP tool schema \(at "title": /],
  ])('%j → %s', (tool, expected) => {
    const problem = wireToolProblem(tool, true);
    if (expected instanceof RegExp) expect(problem).toMatch(expected);
    else expect(problem).toBe(expected);
  });

  it('quotes hostile keys of the path it reports', () => {
    const tool = good('x', { annotations: JSON.parse('{"title": 1}') });
    expect(wireToolProblem(tool, true)).toMatch(/\(at "annotations\.title": /);
    const icons = good('x', { icons: [{ src: 1 }] });
    expect(wireToolProblem(icons, true)).toMatch(/\(at "icons\.0\.src": /);
  });
});
