import fc from 'fast-check';
import type { PinnedToolShape } from '../src/hash-tools.js';

/** A JSON Schema-like object: nested objects, arrays and scalars, keys in any order. */
export const schemaArb: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 4 }),
  { maxKeys: 6 },
);

/** A list of MCP tools with distinct names. */
export const toolsArb: fc.Arbitrary<PinnedToolShape[]> = fc.uniqueArray(
  fc.record(
    {
      name: fc.string({ minLength: 1, maxLength: 12 }),
      title: fc.string({ maxLength: 12 }),
      description: fc.string({ maxLength: 40 }),
      inputSchema: schemaArb,
      outputSchema: schemaArb,
      annotations: fc.record(
        { readOnlyHint: fc.boolean(), destructiveHint: fc.boolean(), title: fc.string() },
        { requiredKeys: [] },
      ),
      _meta: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ['name', 'inputSchema'] },
  ),
  { selector: (tool) => tool.name, maxLength: 6 },
);

/** A small deterministic random number generator, so shuffles are reproducible from a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * A deep copy of `value` whose object keys are in another order at every depth. Arrays keep
 * their order (it means something in JSON); `shuffleList` also reorders the top-level list.
 */
export function deepShuffle(value: unknown, random: () => number, shuffleList = false): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => deepShuffle(v, random));
    return shuffleList ? shuffled(items, random) : items;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = shuffled(Object.entries(value), random);
    return Object.fromEntries(entries.map(([k, v]) => [k, deepShuffle(v, random)]));
  }
  return value;
}
