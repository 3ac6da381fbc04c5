import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, iterativeCanonicalJson, sha256Hex } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('handles what JSON cannot hold without throwing', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"a":1,"self":"[Circular]"}');
    expect(canonicalJson({ f: () => 1, u: undefined, n: Number.NaN, b: 2n })).toBe(
      '{"b":2,"n":null}',
    );
    expect(canonicalJson([undefined, () => 1])).toBe('[null,null]');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('the iterative path writes the same text as the library for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(iterativeCanonicalJson(value)).toBe(canonicalJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it('the iterative path matches on odd values too', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    cyclic.self = { back: cyclic, list: [cyclic] };
    const samples: unknown[] = [
      cyclic,
      { f: () => 1, u: undefined, s: Symbol('x'), n: -0, inf: Infinity, big: 12n },
      [undefined, () => 1, Symbol('y'), null],
      { d: new Date(0), nested: { toJSON: () => ({ z: 1, a: 2 }) } },
      { '\u2028': 'line\u2029sep', '\ud800': 'lone\udfff', '': '' },
      { z: [{}], a: [[]], m: {} },
    ];
    for (const value of samples) expect(iterativeCanonicalJson(value)).toBe(canonicalJson(value));
    expect(iterativeCanonicalJson(undefined)).toBeUndefined();
  });

  it('sha256Hex is the sha256 of the UTF-8 bytes, in lowercase hex', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    // U+00E9 as UTF-8 is the two bytes c3 a9.
    expect(sha256Hex('\u00e9')).toBe(
      '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c',
    );
  });
});
