import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN, hostileString } from '../test/arbitraries.js';
import { JSON_MARKERS } from '@garuda/internal';
import { cleanJson } from './clean-json.js';
import { SanitizeErrorCode } from './errors.js';
import { neutralizeTags } from './neutralize-tags.js';

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

describe('cleanJson', () => {
  it('cleans every string, keys included', () => {
    const out = cleanJson({
      'na\u200bme': '\x1b[1mbold\x1b[0m',
      list: ['\u202eevil', { deep: 'x\u{e0041}y' }],
      n: 1.5,
      ok: true,
      none: null,
    });
    expect(out).toEqual({
      name: 'bold',
      list: ['evil', { deep: 'xy' }],
      n: 1.5,
      ok: true,
      none: null,
    });
  });

  it('a __proto__ key is a plain property and pollutes nothing', () => {
    const input = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"x": 1}}}',
    );
    const out = cleanJson(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(out))).toEqual(input);
  });

  it('replaces cycles, non-JSON values and unreadable properties with markers', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const shared = { s: 1 };
    const hostile = {
      f: () => 1,
      sym: Symbol('x'),
      big: 10n,
      nan: Number.NaN,
      inf: -Infinity,
      undef: undefined,
      date: new Date(0),
      map: new Map(),
      get boom(): never {
        throw new Error('getter');
      },
    };
    const out = cleanJson({ cyclic, twice: [shared, shared], hostile }) as Record<string, any>;
    expect(out.cyclic).toEqual({ a: 1, self: JSON_MARKERS.circular });
    expect(out.twice).toEqual([{ s: 1 }, { s: 1 }]);
    expect(out.hostile).toEqual({
      f: '[not JSON: function]',
      sym: '[not JSON: symbol]',
      big: '[not JSON: bigint]',
      nan: '[not JSON: NaN]',
      inf: '[not JSON: -Infinity]',
      undef: '[not JSON: undefined]',
      date: '[not JSON: Date]',
      map: '[not JSON: Map]',
      boom: JSON_MARKERS.unreadable,
    });
  });

  it('a throwing Proxy does not escape', () => {
    const p = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(cleanJson({ p })).toEqual({ p: JSON_MARKERS.unreadable });
  });

  it('bounds depth', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const out = cleanJson(deep, { maxDepth: 5 });
    expect(JSON.stringify(out)).toBe(`[[[[[${JSON.stringify(JSON_MARKERS.tooDeep)}]]]]]`);
    expect(() => cleanJson(deep)).not.toThrow();
  });

  it('bounds size, even for a huge sparse array', () => {
    const out = cleanJson(new Array(1e9), { maxNodes: 10 }) as unknown[];
    expect(out.length).toBe(10);
    expect(out.at(-1)).toBe(JSON_MARKERS.tooLarge);
    const obj = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const small = cleanJson(obj, { maxNodes: 5 }) as Record<string, unknown>;
    expect(Object.keys(small)).toEqual(['k0', 'k1', 'k2', 'k3', JSON_MARKERS.cutKey]);
  });

  it('keeps the first of two keys that clean to the same text', () => {
    expect(cleanJson({ path: 'safe', 'pa\u200bth': 'evil' })).toEqual({ path: 'safe' });
  });

  it('applies mapString after cleaning', () => {
    expect(
      cleanJson({ d: '<\u200b/mcp_result>' }, { mapString: (s) => neutralizeTags(s) }),
    ).toEqual({ d: '‹/mcp_result>' });
  });

  it.each([{ maxDepth: -1 }, { maxNodes: 1.5 }, { maxNodes: '5' }])(
    'rejects bad bounds %j',
    (opts) => {
      expect(() => cleanJson({}, opts as never)).toThrow(
        expect.objectContaining({ name: 'SanitizeError', code: SanitizeErrorCode.INVALID_LIMIT }),
      );
    },
  );

  it('property: the result is plain JSON with no forbidden character, and stable', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        hostileString,
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const out = cleanJson(v);
        const text = JSON.stringify(out);
        return (
          JSON.stringify(JSON.parse(text)) === text &&
          strings(out).every((s) => !FORBIDDEN.test(s)) &&
          JSON.stringify(cleanJson(out)) === text
        );
      }),
      { numRuns: 500 },
    );
  });
});
