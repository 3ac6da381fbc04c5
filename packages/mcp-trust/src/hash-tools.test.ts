import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepShuffle, seededRandom, toolsArb } from '../test/arbitraries.js';
import { diffTools } from './diff-tools.js';
import { hashTools, toolHashes, type PinnedToolShape } from './hash-tools.js';

const search: PinnedToolShape = {
  name: 'search',
  title: 'Search',
  description: 'Search issues',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'number' } },
    required: ['query'],
  },
  annotations: { readOnlyHint: true },
};
const create: PinnedToolShape = {
  name: 'create',
  description: 'Create an issue',
  inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
  outputSchema: { type: 'object', properties: { id: { type: 'number' } } },
};

describe('hashTools', () => {
  it('is a sha256 hex digest', () => {
    expect(hashTools([search])).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTools([])).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTools([])).not.toBe(hashTools([search]));
  });

  it('does not depend on key order at any depth', () => {
    const reordered: PinnedToolShape = {
      annotations: { readOnlyHint: true },
      inputSchema: {
        required: ['query'],
        properties: { limit: { type: 'number' }, query: { minLength: 1, type: 'string' } },
        type: 'object',
      },
      description: 'Search issues',
      title: 'Search',
      name: 'search',
    };
    expect(hashTools([reordered])).toBe(hashTools([search]));
    expect(toolHashes([reordered])).toEqual(toolHashes([search]));
  });

  it('does not depend on the order of the list', () => {
    expect(hashTools([search, create])).toBe(hashTools([create, search]));
  });

  it('ignores _meta, which servers may change on every listing', () => {
    expect(hashTools([{ ...search, _meta: { requestId: 1 } }])).toBe(hashTools([search]));
    expect(toolHashes([{ ...search, _meta: { at: 'now' } }])).toEqual(toolHashes([search]));
  });

  it('changes with every field that matters, array order inside schemas included', () => {
    const base = hashTools([search]);
    const variants: PinnedToolShape[] = [
      { ...search, name: 'search2' },
      { ...search, title: 'Search!' },
      { ...search, description: 'Search issues.' },
      { ...search, annotations: { readOnlyHint: false } },
      { ...search, inputSchema: { ...(search.inputSchema as object), required: [] } },
      { ...search, outputSchema: { type: 'object' } },
      { ...search, icons: [{ src: 'https://x.test/i.png' }] } as PinnedToolShape,
      {
        ...create,
        name: 'search',
        inputSchema: search.inputSchema,
        description: search.description,
        title: search.title,
        annotations: search.annotations,
      },
    ];
    const hashes = variants.map((t) => hashTools([t]));
    for (const h of hashes) expect(h).not.toBe(base);
    expect(new Set(hashes).size).toBe(hashes.length);
    const enumOrder = (values: string[]): PinnedToolShape => ({
      name: 't',
      inputSchema: { type: 'object', properties: { x: { enum: values } } },
    });
    expect(hashTools([enumOrder(['a', 'b'])])).not.toBe(hashTools([enumOrder(['b', 'a'])]));
  });

  it('tolerates odd input and still hashes what is there', () => {
    const odd = [
      { description: 'no name' },
      { name: 42, inputSchema: 'not an object' },
      null,
      'a string',
      { name: 'x', inputSchema: [1, 2] },
    ] as unknown as PinnedToolShape[];
    const h = hashTools(odd);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTools([...odd].reverse())).toBe(h);
    expect(hashTools(odd.slice(1))).not.toBe(h);
    expect(hashTools('nope' as never)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTools('nope' as never)).not.toBe(hashTools([]));
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(hashTools([{ name: 'c', inputSchema: cyclic }])).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(toolHashes(odd))).toEqual(['x']);
    expect(toolHashes('nope' as never)).toEqual({});
  });

  it('hashes nesting too deep for a recursive serialiser, and still sees a change at the bottom', () => {
    const deep = (leaf: string): PinnedToolShape => {
      let schema: unknown = { type: leaf };
      for (let i = 0; i < 50_000; i++) schema = { items: schema };
      return { name: 'deep', inputSchema: schema };
    };
    const a = hashTools([deep('string')]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(hashTools([deep('string')])).toBe(a);
    expect(hashTools([deep('number')])).not.toBe(a);
  });

  it('property: a deep key-shuffled, reordered copy hashes the same', () => {
    fc.assert(
      fc.property(toolsArb, fc.integer(), (tools, seed) => {
        const copy = deepShuffle(tools, seededRandom(seed), true) as PinnedToolShape[];
        expect(hashTools(copy)).toBe(hashTools(tools));
        expect(toolHashes(copy)).toEqual(toolHashes(tools));
      }),
      { numRuns: 200 },
    );
  });

  it('property: changing any description string changes the hash and marks that tool', () => {
    fc.assert(
      fc.property(
        toolsArb.filter((t) => t.length > 0),
        fc.nat(),
        fc.string({ maxLength: 40 }),
        (tools, pick, text) => {
          const i = pick % tools.length;
          const tool = tools[i] as PinnedToolShape;
          fc.pre(text !== tool.description);
          const changed = tools.map((t, j) => (j === i ? { ...t, description: text } : t));
          expect(hashTools(changed)).not.toBe(hashTools(tools));
          expect(diffTools(toolHashes(tools), changed)).toEqual({
            added: [],
            removed: [],
            changed: [{ tool: tool.name, description: true, schema: false }],
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('toolHashes', () => {
  it('maps each name to "<descriptionHash>:<schemaHash>"', () => {
    const pins = toolHashes([search, create]);
    expect(Object.keys(pins).sort()).toEqual(['create', 'search']);
    for (const pin of Object.values(pins)) expect(pin).toMatch(/^[0-9a-f]{64}:[0-9a-f]{64}$/);
  });

  it('splits description-side and schema-side changes', () => {
    const [d0, s0] = (toolHashes([search]).search as string).split(':');
    const [d1, s1] = (toolHashes([{ ...search, title: 'Find' }]).search as string).split(':');
    const [d2, s2] = (toolHashes([{ ...search, outputSchema: {} }]).search as string).split(':');
    const [d3, s3] = (
      toolHashes([{ ...search, annotations: { destructiveHint: true } }]).search as string
    ).split(':');
    expect([d1 !== d0, s1 !== s0]).toEqual([true, false]);
    expect([d2 !== d0, s2 !== s0]).toEqual([false, true]);
    expect([d3 !== d0, s3 !== s0]).toEqual([true, false]);
  });

  it('keeps a tool named "__proto__" as an ordinary key', () => {
    const pins = toolHashes([{ name: '__proto__', description: 'x' }]);
    expect(Object.hasOwn(pins, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(pins)).toBe(Object.prototype);
    expect(diffTools(pins, [{ name: '__proto__', description: 'y' }]).changed).toEqual([
      { tool: '__proto__', description: true, schema: false },
    ]);
  });

  it('gives a repeated name one pin, whatever the order', () => {
    const a = { name: 'dup', description: 'a' };
    const b = { name: 'dup', description: 'b' };
    expect(toolHashes([a, b])).toEqual(toolHashes([b, a]));
  });
});
