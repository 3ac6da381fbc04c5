import { describe, expect, it } from 'vitest';
import { errnoCode } from './errno-code.js';
import { isRecord } from './is-record.js';
import { kindOf } from './kind-of.js';

describe('kindOf', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    [[1], 'an array'],
    [{ secret: 'x' }, 'an object'],
    [7, 'a number'],
    ['text', 'a string'],
    [() => 1, 'a function'],
    [1n, 'a bigint'],
    [true, 'a boolean'],
  ])('describes %o as %s, without its content', (value, kind) => {
    expect(kindOf(value)).toBe(kind);
  });
});

describe('errnoCode', () => {
  it('reads the code of a system error', () => {
    expect(errnoCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errnoCode({ code: 'ERR_STREAM_DESTROYED' })).toBe('ERR_STREAM_DESTROYED');
  });

  it('gives nothing for other values, or a code of another shape', () => {
    for (const value of [null, undefined, 'ENOENT', new Error('x'), { code: 5 }]) {
      expect(errnoCode(value)).toBeUndefined();
    }
    expect(errnoCode({ code: 'E\x1b[2J' })).toBeUndefined();
    expect(errnoCode({ code: 'enoent' })).toBeUndefined();
    expect(errnoCode({ code: 'E'.repeat(65) })).toBeUndefined();
  });
});

describe('isRecord', () => {
  it('accepts objects, not null or arrays', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
    expect(isRecord(undefined)).toBe(false);
  });
});
