import { describe, expect, it } from 'vitest';
import { brand } from './brand.js';
import { CodedError } from './coded-error.js';

// The same three classes as two copies of one package would define them: separate class
// objects, the same marker names.
function definePackage() {
  class BaseError extends CodedError<'A' | 'B'> {
    static readonly isInstance = brand(this, 'garuda.test-pkg', 'BaseError');
  }
  class ChildError extends BaseError {
    static override readonly isInstance = brand(this, 'garuda.test-pkg', 'ChildError');
    constructor() {
      super('A', 'child');
    }
  }
  class SiblingError extends BaseError {
    static override readonly isInstance = brand(this, 'garuda.test-pkg', 'SiblingError');
    constructor() {
      super('B', 'sibling');
    }
  }
  return { BaseError, ChildError, SiblingError };
}

const one = definePackage();
const two = definePackage();

describe('brand', () => {
  it('accepts the class and its subclasses, never a sibling or a parent', () => {
    const { BaseError, ChildError, SiblingError } = one;
    expect(BaseError.isInstance(new BaseError('A', 'x'))).toBe(true);
    expect(BaseError.isInstance(new ChildError())).toBe(true);
    expect(ChildError.isInstance(new ChildError())).toBe(true);
    expect(ChildError.isInstance(new SiblingError())).toBe(false);
    expect(ChildError.isInstance(new BaseError('A', 'x'))).toBe(false);
    expect(SiblingError.isInstance(new ChildError())).toBe(false);
  });

  it('recognises instances made by another copy, both ways', () => {
    expect(one.ChildError).not.toBe(two.ChildError);
    expect(one.ChildError.isInstance(new two.ChildError())).toBe(true);
    expect(two.BaseError.isInstance(new one.SiblingError())).toBe(true);
    expect(two.SiblingError.isInstance(new one.ChildError())).toBe(false);
  });

  it('puts the marker Symbol.for("<scope>.<name>") on the prototype, not the instance', () => {
    const error = new one.ChildError();
    const marker = Symbol.for('garuda.test-pkg.ChildError');
    expect((error as unknown as Record<symbol, unknown>)[marker]).toBe(true);
    expect(Object.hasOwn(error, marker)).toBe(false);
    expect(Object.getOwnPropertyDescriptor(one.ChildError.prototype, marker)).toMatchObject({
      value: true,
      enumerable: false,
      writable: false,
    });
  });

  it('names instances after their class, in the stack too, without an own property', () => {
    const error = new one.ChildError();
    expect(error.name).toBe('ChildError');
    expect(new one.BaseError('A', 'x').name).toBe('BaseError');
    expect(Object.hasOwn(error, 'name')).toBe(false);
    expect(String(error)).toBe('ChildError: child');
    expect(error.stack?.split('\n')[0]).toBe('ChildError: child');
  });

  it('works detached, as a filter', () => {
    const errors = [new one.ChildError(), new one.SiblingError(), new Error('plain')];
    expect(errors.filter(one.ChildError.isInstance)).toEqual([errors[0]]);
  });

  it('rejects primitives, plain errors and look-alikes', () => {
    const lookAlike = Object.assign(new Error('child'), { name: 'ChildError', code: 'A' });
    for (const value of [null, undefined, 0, 'ChildError', lookAlike, { name: 'ChildError' }]) {
      expect(one.BaseError.isInstance(value)).toBe(false);
      expect(one.ChildError.isInstance(value)).toBe(false);
    }
  });

  it('brands any class, not only errors', () => {
    class Thing {
      static readonly isInstance = brand(this, 'garuda.test-pkg', 'Thing');
    }
    expect(Thing.isInstance(new Thing())).toBe(true);
    expect(Thing.isInstance(new one.ChildError())).toBe(false);
  });
});
